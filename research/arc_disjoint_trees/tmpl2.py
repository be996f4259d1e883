#!/usr/bin/env python3
"""Template search v2: rotation symmetric; features defined on the fundamental domain D
(for each orbit rep w in D and tree index t), label of tree t at w = table[key(n,w,t)].
Tree k at v: find j with v = R^j w (w in D): dir = table[key(n,w,(k-j)%4)] + j."""
import sys, subprocess, time, os, json
from sat import DX, depth_of, show
from template import cen

def rep(n, x, y):
    """return (w, j) with v = R^j w, w in D (centred coords)"""
    m = n // 2
    X, Y = cen(n, x), cen(n, y)
    for j in range(4):
        # w = R^{-j} v
        if n % 2 == 1:
            if 1 <= X <= m and 0 <= Y <= m:
                return (X, Y), j
        else:
            if (1 <= X <= m and 0 <= Y <= m - 1) or (X == m and Y == m):
                return (X, Y), j
        X, Y = cen(n, Y), cen(n, -X)  # R^{-1}
    raise Exception('no rep %d %d %d' % (n, x, y))


def rep_k(n, k, x, y):
    """tree k at v = R^k(tree0) at u=R^{-k}v; u = R^j w.  returns (w, total rotation j+k, tree index t=-j)"""
    X, Y = cen(n, x), cen(n, y)
    for _ in range(k):
        X, Y = cen(n, Y), cen(n, -X)
    w, j = rep(n, X, Y)
    return w, (j + k) % 4, (-j) % 4


class T2:
    def __init__(s, key, ns, Lof, fixed=None):
        s.key, s.ns, s.Lof, s.fixed = key, ns, Lof, fixed
        s.nv = 0; s.cl = []; s.K = {}

    def new(s):
        s.nv += 1; return s.nv

    def lab(s, key):
        if key not in s.K:
            vs = [s.new() for _ in range(4)]
            s.K[key] = vs
            s.cl.append(vs[:])
            for i in range(4):
                for j in range(i + 1, 4):
                    s.cl.append([-vs[i], -vs[j]])
        return s.K[key]

    def p(s, n, k, x, y, d):
        (wx, wy), j, t = rep_k(n, k, x, y)
        key = s.key(n, wx, wy, t)
        return s.lab(key)[(d - j) % 4]

    def build(s):
        for n in s.ns:
            L = s.Lof(n)
            dist = lambda x, y: abs(cen(n, x)) + abs(cen(n, y))
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0: continue
                    for d in range(4):
                        vs = [s.p(n, k, x, y, d) for k in range(4)]
                        s.cl.append(vs)
                        for i in range(4):
                            for j in range(i + 1, 4):
                                s.cl.append([-vs[i]] if vs[i] == vs[j] else [-vs[i], -vs[j]])
            R = {}
            def r(x, y, t):
                if (x, y, t) not in R: R[(x, y, t)] = s.new()
                return R[(x, y, t)]
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0: continue
                    dv = dist(x, y)
                    for t in range(dv, L + 1):
                        rv = r(x, y, t)
                        for d in range(4):
                            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                            pv = s.p(n, 0, x, y, d)
                            if ux == 0 and uy == 0: continue
                            if t - 1 < dist(ux, uy): s.cl.append([-rv, -pv])
                            else: s.cl.append([-rv, -pv, r(ux, uy, t - 1)])
                        if t > dv: s.cl.append([-r(x, y, t - 1), rv])
                    s.cl.append([r(x, y, L)])
        if s.fixed:
            for key, vs in list(s.K.items()):
                f = s.fixed(key)
                if f is not None:
                    s.cl.append([vs[f]])

    def solve(s, timeout=None, extra=()):
        fname = '/tmp/t4t2_%d.cnf' % os.getpid()
        cl = s.cl + list(extra)
        with open(fname, 'w') as f:
            f.write('p cnf %d %d\n' % (s.nv, len(cl)))
            for c in cl: f.write(' '.join(map(str, c)) + ' 0\n')
        cmd = ['nice', '-n', '19', 'cadical', '-q', fname]
        if timeout: cmd = ['timeout', str(timeout)] + cmd
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        el = time.time() - t0
        os.unlink(fname)
        if 's SATISFIABLE' not in out:
            return ('UNSAT' if 's UNSATISFIABLE' in out else 'TIMEOUT'), el
        val = set()
        for line in out.splitlines():
            if line.startswith('v '):
                val.update(int(t) for t in line[2:].split() if int(t) > 0)
        return {key: [d for d in range(4) if vs[d] in val][0] for key, vs in s.K.items()}, el


def build_trees(n, key, table):
    par = [[0] * (n * n) for _ in range(4)]
    for k in range(4):
        for y in range(n):
            for x in range(n):
                if x == 0 and y == 0: continue
                (wx, wy), j, t = rep_k(n, k, x, y)
                d = (table[key(n, wx, wy, t)] + j) % 4
                ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                par[k][x + n * y] = ux + n * uy
    return par


def verify(n, par, L):
    # arc-disjoint + spanning + depth
    used = set()
    for k in range(4):
        for v in range(1, n * n):
            a = (par[k][v], v)
            assert a not in used, ('arc reused', n, k, v)
            used.add(a)
    deps = [max(depth_of(n, p)) for p in par]
    return deps
