#!/usr/bin/env python3
"""SAT search (cadical) for periodic pipelined one-port broadcast schedules.

Period K, K packet classes.  Class c's reference packet is sent by the root at
step c (colour c).  Step t has colour t mod K; in colour k the set of transfers
is fixed (periodic).  Each non-root node receives exactly one packet per step,
sends at most one, directed links used at most once per step.  For each node,
colour -> class is a bijection.  Latency bound D: class-c packet reaches every
node by step c + D - 1.
"""
import itertools, subprocess, sys, os, tempfile


def routes_linear(n):
    nodes = list(range(n))
    def route(u, v):
        if u < v:
            return [('R', i) for i in range(u, v)]
        return [('L', i) for i in range(v, u)]
    return nodes, route


def routes_mesh(R, C, torus=False):
    nodes = [(r, c) for r in range(R) for c in range(C)]
    def step1(a, b, L):
        # returns list of (pos, dir) moves along a ring/line of length L from a to b
        if not torus:
            if a < b:
                return [(i, +1) for i in range(a, b)]
            return [(i, -1) for i in range(a, b, -1)]
        d = (b - a) % L
        if d == 0:
            return []
        if 2 * d <= L:  # + direction (ties -> +)
            return [((a + i) % L, +1) for i in range(d)]
        d = L - d
        return [((a - i) % L, -1) for i in range(d)]
    def route(u, v):
        (r1, c1), (r2, c2) = u, v
        links = []
        for (c, d) in step1(c1, c2, C):
            links.append(('row', r1, c, d))
        for (r, d) in step1(r1, r2, R):
            links.append(('col', c2, r, d))
        return links
    return nodes, route


class CNF:
    def __init__(self):
        self.nv = 0
        self.cl = []
    def var(self):
        self.nv += 1
        return self.nv
    def add(self, c):
        self.cl.append(c)
    def amo(self, lits):
        lits = list(lits)
        if len(lits) <= 6:
            for a, b in itertools.combinations(lits, 2):
                self.add([-a, -b])
            return
        # sequential counter
        s = [self.var() for _ in lits[:-1]]
        self.add([-lits[0], s[0]])
        for i in range(1, len(lits) - 1):
            self.add([-lits[i], s[i]])
            self.add([-s[i - 1], s[i]])
            self.add([-lits[i], -s[i - 1]])
        self.add([-lits[-1], -s[-1]])
    def exactly1(self, lits):
        lits = list(lits)
        self.add(lits)
        self.amo(lits)
    def solve(self, timeout=None):
        fd, path = tempfile.mkstemp(suffix='.cnf', dir='/tmp')
        with os.fdopen(fd, 'w') as f:
            f.write('p cnf %d %d\n' % (self.nv, len(self.cl)))
            for c in self.cl:
                f.write(' '.join(map(str, c)) + ' 0\n')
        cmd = ['nice', '-n', '19', 'cadical', '-q', path]
        if timeout:
            cmd = ['nice', '-n', '19', 'cadical', '-q', '-t', str(timeout), path]
        p = subprocess.run(cmd, capture_output=True, text=True)
        os.unlink(path)
        sat = None
        vals = {}
        for line in p.stdout.splitlines():
            if line.startswith('s '):
                sat = {'s SATISFIABLE': True, 's UNSATISFIABLE': False}.get(line.strip(), None)
            elif line.startswith('v '):
                for x in line[2:].split():
                    x = int(x)
                    if x != 0:
                        vals[abs(x)] = x > 0
        return sat, vals


def build(nodes, route, root, K, D, maxlen=None, allowed=None):
    cnf = CNF()
    N = len(nodes)
    idx = {v: i for i, v in enumerate(nodes)}
    r = idx[root]
    pairs = [(u, v) for u in range(N) for v in range(N) if u != v and v != r]
    if maxlen is not None:
        pairs = [(u, v) for (u, v) in pairs if len(route(nodes[u], nodes[v])) <= maxlen]
    if allowed is not None:
        pairs = [(u, v) for (u, v) in pairs if allowed(nodes[u], nodes[v])]
    rts = {(u, v): route(nodes[u], nodes[v]) for (u, v) in pairs}
    e = {}
    for k in range(K):
        for (u, v) in pairs:
            e[k, u, v] = cnf.var()
    for k in range(K):
        # each non-root exactly one in, each node at most one out
        for v in range(N):
            ins = [e[k, u, v] for u in range(N) if (k, u, v) in e]
            if v != r:
                cnf.exactly1(ins)
            outs = [e[k, v, w] for w in range(N) if (k, v, w) in e]
            if outs:
                cnf.amo(outs)
        linkuse = {}
        for (u, v) in pairs:
            for l in rts[u, v]:
                linkuse.setdefault(l, []).append(e[k, u, v])
        for l, lits in linkuse.items():
            if len(lits) > 1:
                cnf.amo(lits)
    # class bijection y[v,k,c]
    y = {}
    for v in range(N):
        if v == r:
            continue
        for k in range(K):
            for c in range(K):
                y[v, k, c] = cnf.var()
        for k in range(K):
            cnf.exactly1([y[v, k, c] for c in range(K)])
        for c in range(K):
            cnf.exactly1([y[v, k, c] for k in range(K)])
    # root sends class k in colour k
    for k in range(K):
        for v in range(N):
            if (k, r, v) in e:
                cnf.add([-e[k, r, v], y[v, k, k]])
    # h[v,c,t]: t in [c-1, c+D-1]
    h = {}
    for c in range(K):
        for v in range(N):
            for t in range(c - 1, c + D):
                if v == r:
                    continue
                h[v, c, t] = cnf.var()
            if v != r:
                cnf.add([-h[v, c, c - 1]])
                cnf.add([h[v, c, c + D - 1]])
    def H(v, c, t):
        if v == r:
            return True
        return h[v, c, t]
    for c in range(K):
        for v in range(N):
            if v == r:
                continue
            for t in range(c, c + D):
                k = t % K
                a, b = h[v, c, t], h[v, c, t - 1]
                cnf.add([-b, a])  # monotone
                # new arrival at t -> colour k carries class c, in-neighbour has it at t-1
                cnf.add([-a, b, y[v, k, c]])
                for u in range(N):
                    if (k, u, v) not in e:
                        continue
                    hu = H(u, c, t - 1)
                    if hu is True:
                        continue
                    cnf.add([-a, b, -e[k, u, v], hu])
    return cnf, e, y, h, pairs


def extract(nodes, root, K, D, e, y, h, vals, pairs):
    N = len(nodes)
    r = nodes.index(root)
    sched = []
    for k in range(K):
        step = []
        for (u, v) in pairs:
            if vals.get(e[k, u, v]):
                cls = [c for c in range(K) if vals.get(y[v, k, c])][0]
                step.append((nodes[u], nodes[v], cls))
        sched.append(step)
    arr = {}
    for c in range(K):
        for v in range(N):
            if v == r:
                continue
            for t in range(c, c + D):
                if vals.get(h[v, c, t]):
                    arr[nodes[v], c] = t - c
                    break
    return sched, arr


if __name__ == '__main__':
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument('kind')
    ap.add_argument('dims')
    ap.add_argument('--root', default='0')
    ap.add_argument('-K', type=int, default=2)
    ap.add_argument('-D', type=int)
    ap.add_argument('--maxlen', type=int)
    ap.add_argument('--timeout', type=int)
    ap.add_argument('--straight', action='store_true')
    a = ap.parse_args()
    if a.kind == 'linear':
        nodes, route = routes_linear(int(a.dims))
        root = int(a.root)
    else:
        R, C = map(int, a.dims.split('x'))
        nodes, route = routes_mesh(R, C, a.kind == 'torus')
        root = tuple(map(int, a.root.split(','))) if ',' in a.root else (0, 0)
    Ds = [a.D] if a.D else range(1, 200)
    for D in Ds:
        cnf, e, y, h, pairs = build(nodes, route, root, a.K, D, a.maxlen,
                                    (lambda u, v: u[0] == v[0] or u[1] == v[1]) if a.straight else None)
        sat, vals = cnf.solve(a.timeout)
        print('D', D, 'sat', sat, 'vars', cnf.nv, 'clauses', len(cnf.cl), flush=True)
        if sat:
            sched, arr = extract(nodes, root, a.K, D, e, y, h, vals, pairs)
            for k, st in enumerate(sched):
                print('colour', k, sorted(st))
            for c in range(a.K):
                print('class', c, [arr[v, c] for v in nodes if v != root])
            break
