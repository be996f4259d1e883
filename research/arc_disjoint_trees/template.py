#!/usr/bin/env python3
"""Template SAT search: tree0 label = function of a feature key, shared over several n.
Rotation symmetry: tree k = R^k tree0.  feat(n,x,y) -> (key, flip) with x,y centred in
[-m, n-1-m]; flip=True means label is mirrored N<->S (mirror about x-axis)."""
import sys, subprocess, time, os
from sat import DX, depth_of, show

MIR = {0: 0, 2: 2, 1: 3, 3: 1}


def cen(n, x):
    m = n // 2
    x %= n
    return x if x <= m else x - n


class TEnc:
    def __init__(s, feat, ns, Lof):
        s.feat, s.ns, s.Lof = feat, ns, Lof
        s.nv = 0
        s.cl = []
        s.K = {}
        s.R = {}

    def new(s):
        s.nv += 1
        return s.nv

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
        # tree k at v: tree0 at R^{-k} v, direction d-k
        x, y = cen(n, x), cen(n, y)
        for _ in range(k):
            x, y = cen(n, y), cen(n, -x)
        d = (d - k) % 4
        key, flip = s.feat(n, x, y)
        if flip:
            d = MIR[d]
        return s.lab(key)[d]

    def build(s):
        for n in s.ns:
            L = s.Lof(n)
            def dist(x, y):
                return abs(cen(n, x)) + abs(cen(n, y))
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0:
                        continue
                    for d in range(4):
                        vs = [s.p(n, k, x, y, d) for k in range(4)]
                        # each direction used by exactly one tree (exactly-one per tree is from lab)
                        s.cl.append(vs)
                        for i in range(4):
                            for j in range(i + 1, 4):
                                if vs[i] == vs[j]:
                                    s.cl.append([-vs[i]])
                                else:
                                    s.cl.append([-vs[i], -vs[j]])
            # reachability only for tree 0 (others are rotations)
            k = 0
            R = {}
            def r(x, y, t):
                key = (x, y, t)
                if key not in R:
                    R[key] = s.new()
                return R[key]
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0:
                        continue
                    dv = dist(x, y)
                    for t in range(dv, L + 1):
                        rv = r(x, y, t)
                        for d in range(4):
                            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                            pv = s.p(n, 0, x, y, d)
                            if ux == 0 and uy == 0:
                                continue
                            if t - 1 < dist(ux, uy):
                                s.cl.append([-rv, -pv])
                            else:
                                s.cl.append([-rv, -pv, r(ux, uy, t - 1)])
                        if t > dv:
                            s.cl.append([-r(x, y, t - 1), rv])
                    s.cl.append([r(x, y, L)])

    def solve(s, timeout=None, extra=()):
        fname = '/tmp/t4t_%d.cnf' % os.getpid()
        cl = s.cl + list(extra)
        with open(fname, 'w') as f:
            f.write('p cnf %d %d\n' % (s.nv, len(cl)))
            for c in cl:
                f.write(' '.join(map(str, c)) + ' 0\n')
        cmd = ['nice', '-n', '19', 'cadical', '-q', fname]
        if timeout:
            cmd = ['timeout', str(timeout)] + cmd
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        el = time.time() - t0
        os.unlink(fname)
        if 's SATISFIABLE' not in out:
            return ('UNSAT' if 's UNSATISFIABLE' in out else 'TIMEOUT'), el
        val = set()
        for line in out.splitlines():
            if line.startswith('v '):
                for t in line[2:].split():
                    i = int(t)
                    if i > 0:
                        val.add(i)
        table = {}
        for key, vs in s.K.items():
            for d in range(4):
                if vs[d] in val:
                    table[key] = d
        return table, el


def trees_from_table(n, feat, table):
    par = [[0] * (n * n) for _ in range(4)]
    for k in range(4):
        for y in range(n):
            for x in range(n):
                if x == 0 and y == 0:
                    continue
                X, Y = cen(n, x), cen(n, y)
                for _ in range(k):
                    X, Y = cen(n, Y), cen(n, -X)
                key, flip = feat(n, X, Y)
                d = table[key]
                if flip:
                    d = MIR[d]
                d = (d + k) % 4
                ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                par[k][x + n * y] = ux + n * uy
    return par
