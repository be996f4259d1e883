#!/usr/bin/env python3
"""SAT exploration for 4 arc-disjoint spanning arborescences of the torus.
usage: sat.py n L [sym] [extra...]
 sym: none | rot (tree k = R^k tree0) | ...
Directions: 0=E(+x) 1=N(+y) 2=W 3=S. p[k][v][d]: parent of v in tree k is v+dir(d).
"""
import sys, subprocess, time, os

DX = [(1, 0), (0, 1), (-1, 0), (0, -1)]


class Enc:
    def __init__(s, n, L, sym='none'):
        s.n, s.L, s.sym = n, L, sym
        s.nv = 0
        s.cl = []
        N = n * n
        s.P = {}
        # parent vars
        for k in range(4):
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0:
                        continue
                    for d in range(4):
                        key = s.canon(k, x, y, d)
                        if key not in s.P:
                            s.nv += 1
                            s.P[key] = s.nv
        s.R = {}

    def rot(s, x, y):
        return (-y) % s.n, x % s.n

    def canon(s, k, x, y, d):
        if s.sym == 'rot':
            # tree k at v uses label of tree0 at R^{-k} v, dir d-k
            for _ in range(k):
                x, y = y, (-x) % s.n  # R^{-1}(x,y) = (y,-x)
            return (0, x, y, (d - k) % 4)
        if s.sym == 'rotmir':
            for _ in range(k):
                x, y = y, (-x) % s.n
            d = (d - k) % 4
            # tree0 mirror-symmetric about x-axis: use rep with y <= n/2
            if y > s.n - y:
                y = s.n - y
                d = {0: 0, 2: 2, 1: 3, 3: 1}[d]
            return (0, x, y, d)
        if s.sym == 'r2':  # tree k+2 = R^2 tree k
            if k >= 2:
                return (k - 2, (-x) % s.n, (-y) % s.n, (d + 2) % 4)
            return (k, x, y, d)
        return (k, x, y, d)

    def p(s, k, x, y, d):
        return s.P[s.canon(k, x % s.n, y % s.n, d)]

    def r(s, k, x, y, t):
        key = (k, x % s.n, y % s.n, t)
        if key not in s.R:
            s.nv += 1
            s.R[key] = s.nv
        return s.R[key]

    def dist(s, x, y):
        n = s.n
        return min(x % n, n - x % n) + min(y % n, n - y % n)

    def build(s, maxdepth=None):
        n, L = s.n, s.L
        md = maxdepth or {}
        trees = range(4) if s.sym == 'none' else ([0] if s.sym in ('rot','rotmir') else [0, 1])
        for y in range(n):
            for x in range(n):
                if x == 0 and y == 0:
                    continue
                for k in range(4):
                    vs = [s.p(k, x, y, d) for d in range(4)]
                    s.cl.append(vs)
                    for i in range(4):
                        for j in range(i + 1, 4):
                            s.cl.append([-vs[i], -vs[j]])
                for d in range(4):
                    vs = [s.p(k, x, y, d) for k in range(4)]
                    s.cl.append(vs)
                    for i in range(4):
                        for j in range(i + 1, 4):
                            s.cl.append([-vs[i], -vs[j]])
        # reachability
        for k in trees:
            Lk = md.get(k, L)
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0:
                        continue
                    dv = s.dist(x, y)
                    for t in range(dv, Lk + 1):
                        rv = s.r(k, x, y, t)
                        for d in range(4):
                            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                            if ux == 0 and uy == 0:
                                continue  # parent root: fine at any t>=1
                            if t - 1 < s.dist(ux, uy):
                                s.cl.append([-rv, -s.p(k, x, y, d)])
                            else:
                                s.cl.append([-rv, -s.p(k, x, y, d), s.r(k, ux, uy, t - 1)])
                        if t > dv:
                            s.cl.append([-s.r(k, x, y, t - 1), rv])
                    s.cl.append([s.r(k, x, y, Lk)])

    def solve(s, solver='cadical', timeout=None, fname=None):
        fname = fname or '/tmp/t4_%d.cnf' % os.getpid()
        with open(fname, 'w') as f:
            f.write('p cnf %d %d\n' % (s.nv, len(s.cl)))
            for c in s.cl:
                f.write(' '.join(map(str, c)) + ' 0\n')
        cmd = ['nice', '-n', '19', solver, '-q', fname]
        if timeout:
            cmd = ['timeout', str(timeout)] + cmd
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        el = time.time() - t0
        os.unlink(fname)
        if 's SATISFIABLE' not in out:
            return None if 's UNSATISFIABLE' in out else 'TIMEOUT', el
        val = set()
        for line in out.splitlines():
            if line.startswith('v '):
                for t in line[2:].split():
                    i = int(t)
                    if i > 0:
                        val.add(i)
        n = s.n
        par = [[None] * (n * n) for _ in range(4)]
        for k in range(4):
            par[k][0] = 0
            for y in range(n):
                for x in range(n):
                    if x == 0 and y == 0:
                        continue
                    for d in range(4):
                        if s.p(k, x, y, d) in val:
                            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
                            par[k][x + n * y] = ux + n * uy
        return par, el


def depth_of(n, par):
    dep = [None] * (n * n)
    dep[0] = 0
    def g(v):
        path = []
        while dep[v] is None:
            path.append(v)
            v = par[v]
            if len(path) > n * n:
                raise Exception('cycle')
        d = dep[v]
        for u in reversed(path):
            d += 1
            dep[u] = d
        return dep
    for v in range(n * n):
        g(v)
    return dep


def show(n, par, center=True):
    """arrows: direction from node to parent, drawn with y up; centred on root."""
    ch = {(1, 0): '>', (0, 1): '^', (-1, 0): '<', (0, -1): 'v'}
    m = n // 2
    rows = []
    ys = range(n - 1 - m + (0 if n % 2 else 0), -m - 1, -1) if center else range(n - 1, -1, -1)
    xs = range(-m, n - m) if center else range(n)
    if center:
        ys = list(range(n - 1 - m, -m - 1, -1))
        xs = list(range(-m, n - m))
    for y in ys:
        row = ''
        for x in xs:
            v = (x % n) + n * (y % n)
            if v == 0:
                row += ' R'
                continue
            u = par[v]
            ddx = (u % n - x % n) % n
            ddy = (u // n - y % n) % n
            ddx = ddx if ddx <= 1 else ddx - n
            ddy = ddy if ddy <= 1 else ddy - n
            row += ' ' + ch[(ddx, ddy)]
        rows.append(row)
    return '\n'.join(rows)


if __name__ == '__main__':
    n = int(sys.argv[1]); L = int(sys.argv[2]); sym = sys.argv[3] if len(sys.argv) > 3 else 'none'
    e = Enc(n, L, sym)
    e.build()
    res, el = e.solve()
    print('n=%d L=%d sym=%s vars=%d clauses=%d time=%.1fs' % (n, L, sym, e.nv, len(e.cl), el))
    if res is None or res == 'TIMEOUT':
        print('UNSAT' if res is None else 'TIMEOUT')
    else:
        for k in range(4):
            print('tree', k, 'depth', max(depth_of(n, res[k])))
            print(show(n, res[k]))
