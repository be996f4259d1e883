#!/usr/bin/env python3
"""Potential-template SAT: labels per key AND excess F per key, with local constraint
 depth(u) = dist(u) + F(key(u)) = depth(parent)+1.  Makes the all-n proof purely local."""
import sys, json, os, subprocess, time
from tmpl2 import rep_k, DX, build_trees, verify, depth_of
from template import cen

def mkkey(Ax, Ay, Bx, By, s, nopar=False, extra=None):
    def key(n, x, y, t):
        m = n // 2
        c = ((x - y) + s) % 4
        xa = x if x < Ax else (('f', m - x) if x > m - Bx else 'mid')
        ya = y if y < Ay else (('f', m - y) if y > m - By else 'mid')
        p = n % 2 if (isinstance(xa, tuple) or isinstance(ya, tuple)) and not nopar else None
        return (xa, ya, c, t, p)
    return key

def form(k): return [2, 3, 0, 1][(k[3] - k[2]) % 4]

class Pot:
    def __init__(s, key, ns, E, Lextra=0, fix_interior=True):
        s.key, s.ns, s.E = key, ns, E
        s.nv = 0; s.cl = set(); s.K = {}; s.F = {}
        s.Lx = Lextra; s.fixi = fix_interior
    def new(s):
        s.nv += 1; return s.nv
    def one_hot(s, k):
        vs = [s.new() for _ in range(k)]
        s.cl.add(tuple(vs))
        for i in range(k):
            for j in range(i + 1, k): s.cl.add((-vs[i], -vs[j]))
        return vs
    def lab(s, K):
        if K not in s.K:
            s.K[K] = s.one_hot(4)
            s.F[K] = s.one_hot(s.E + 1)
            if s.fixi and K[0] == 'mid' and K[1] == 'mid':
                s.cl.add((s.K[K][form(K)],))
        return s.K[K]
    def kd(s, n, k, x, y):
        w, j, t = rep_k(n, k, x, y)
        return s.key(n, w[0], w[1], t), j
    def build(s):
        for n in s.ns:
            L = 2 * (n // 2) + 1 + s.Lx
            dist = lambda x, y: abs(cen(n, x)) + abs(cen(n, y))
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0: continue
                    for d in range(4):
                        vs = []
                        for k in range(4):
                            K, j = s.kd(n, k, x, y)
                            vs.append(s.lab(K)[(d - j) % 4])
                        s.cl.add(tuple(vs))
                        for i in range(4):
                            for i2 in range(i + 1, 4):
                                s.cl.add((-vs[i],) if vs[i] == vs[i2] else (-vs[i], -vs[i2]))
                    # potential constraints for tree 0
                    K, j = s.kd(n, 0, x, y); s.lab(K)
                    du = dist(x, y)
                    Fu = s.F[K]
                    for e in range(s.E + 1):
                        if du + e > L: s.cl.add((-Fu[e],))
                    for d in range(4):
                        pv = s.K[K][(d - j) % 4]
                        ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                        if ux == 0 and uy == 0:
                            # depth 1: dist(u)=1, F=0
                            s.cl.add((-pv, Fu[0]))
                            continue
                        Kp, jp = s.kd(n, 0, ux, uy); s.lab(Kp)
                        Fp = s.F[Kp]
                        delta = dist(ux, uy) - du
                        for e in range(s.E + 1):
                            tgt = e + 1 + delta
                            if 0 <= tgt <= s.E: s.cl.add((-pv, -Fp[e], Fu[tgt]))
                            else: s.cl.add((-pv, -Fp[e]))
    def solve(s, timeout=None):
        fname = '/tmp/t4pot_%d.cnf' % os.getpid()
        with open(fname, 'w') as f:
            f.write('p cnf %d %d\n' % (s.nv, len(s.cl)))
            for c in s.cl: f.write(' '.join(map(str, c)) + ' 0\n')
        cmd = ['nice', '-n', '19', 'cadical', '-q', fname]
        if timeout: cmd = ['timeout', str(timeout)] + cmd
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        el = time.time() - t0
        os.unlink(fname)
        if 's SATISFIABLE' not in out:
            return ('UNSAT' if 's UNSATISFIABLE' in out else 'TIMEOUT'), None, el
        val = set()
        for line in out.splitlines():
            if line.startswith('v '): val.update(int(t) for t in line[2:].split() if int(t) > 0)
        lab = {K: [d for d in range(4) if vs[d] in val][0] for K, vs in s.K.items()}
        F = {K: [e for e in range(s.E + 1) if vs[e] in val][0] for K, vs in s.F.items()}
        return lab, F, el

if __name__ == '__main__':
    Ax, Ay, Bx, By, s_, E = map(int, sys.argv[1:7]); ns = list(map(int, sys.argv[7].split(',')))
    nopar = len(sys.argv) > 8 and sys.argv[8] == 'nopar'
    key = mkkey(Ax, Ay, Bx, By, s_, nopar)
    P = Pot(key, ns, E); P.build()
    lab, F, el = P.solve()
    print(sys.argv[1:], 'keys', len(P.K), 'clauses', len(P.cl), 'time %.1f' % el, lab if isinstance(lab, str) else 'SAT', flush=True)
    if not isinstance(lab, str):
        fn = 'pot_%s.json' % '_'.join(sys.argv[1:7] + (['nopar'] if nopar else []))
        json.dump({'lab': [[repr(k), v] for k, v in lab.items()], 'F': [[repr(k), v] for k, v in F.items()]}, open(fn, 'w'))
        print(fn)
