#!/usr/bin/env python3
#===- compiler/lowering/torus_trees/find_base_figures.py - T6 figures -----===#
#
# Offline only (not built, not run by tests): how the base figures of
# MinimumDepthTrees.cpp were found. Needs a DIMACS SAT solver on PATH
# (Debian package `cadical`).
#
#   find_base_figures.py N0 [T...]   e.g. find_base_figures.py 11 -2 -1 0 1 2
#   find_base_figures.py 4            the two trees of torus:4x4
#
# One arrow grid for the base size N0 is encoded once; the torus of size
# N0 + 4t reads it through the row/column insertion of MinimumDepthTrees.h
# (a = 0: the band |x| = 1, 2), and for every listed t the clauses say: each
# non-root node has one parent arrow, following arrows reaches the root
# within n steps (order-encoded "reaches within j"), the tree keeps the
# root's row, and no edge e of T has g(e) in T, with g the rotation
# (x,y) -> (-y,x) and T symmetric under (x,y) -> (-x,-y) for odd n, or the
# mirror (x,y) -> (y,x) for even n. Solving all the t at once makes the
# figure stretchable; the C++ tests then check n = 3..64. Prints the figure
# as C++ string literals (top line = largest y). For N0 = 4 the two trees
# are free (no image pair exists) and both are printed.
#
#===----------------------------------------------------------------------===#

import itertools
import subprocess
import sys
import tempfile

DIRS = {'>': (1, 0), '^': (0, 1), '<': (-1, 0), 'v': (0, -1)}
ARROWS = '>^<v'


def centred_range(n):
    m = n // 2
    return range(-m, m + 1) if n % 2 else range(-m + 1, m + 1)


def centred(a, n):
    a %= n
    return a if a <= n // 2 else a - n


def to_base(u, t):
    """The header's table: offset u of size n0 + 4t -> offset in the base."""
    s, a = (1 if u >= 0 else -1), abs(u)
    if a == 0:
        return 0
    if t >= 0 and a <= 2 * t + 2:
        return s * (1 if a % 2 else 2)
    return s * (a - 2 * t)


class Cnf:
    def __init__(self):
        self.count, self.clauses = 0, []

    def var(self):
        self.count += 1
        return self.count

    def exactly_one(self, vs):
        self.clauses.append(list(vs))
        self.clauses += [[-a, -b] for a, b in itertools.combinations(vs, 2)]

    def solve(self):
        with tempfile.NamedTemporaryFile('w', suffix='.cnf') as f:
            f.write('p cnf %d %d\n' % (self.count, len(self.clauses)))
            for c in self.clauses:
                f.write(' '.join(map(str, c)) + ' 0\n')
            f.flush()
            out = subprocess.run(['cadical', '-q', f.name], capture_output=True,
                                 text=True).stdout
        if 's SATISFIABLE' not in out:
            return None
        return {int(v) for line in out.splitlines() if line.startswith('v')
                for v in line.split()[1:] if int(v) > 0}


def arrow_vars(cnf, n):
    """Parent-arrow variables of one n x n grid, keyed (x, y, arrow)."""
    P = {}
    for x in centred_range(n):
        for y in centred_range(n):
            if (x, y) != (0, 0):
                for k in ARROWS:
                    P[x, y, k] = cnf.var()
                cnf.exactly_one([P[x, y, k] for k in ARROWS])
    return P


def tree_clauses(cnf, n, arrow):
    """arrow(x, y, k) -> variable; returns the edge variables of the tree."""
    cells = [(x, y) for x in centred_range(n) for y in centred_range(n)]
    step = lambda c, k: (centred(c[0] + DIRS[k][0], n),
                         centred(c[1] + DIRS[k][1], n))
    dist = lambda c: abs(c[0]) + abs(c[1])
    R = {(c, j): cnf.var() for c in cells if c != (0, 0)
         for j in range(dist(c), n + 1)}
    for c in cells:
        if c == (0, 0):
            continue
        cnf.clauses.append([R[c, n]])
        for j in range(dist(c), n + 1):
            for k in ARROWS:
                u = step(c, k)
                if u == (0, 0):
                    continue
                if (u, j - 1) in R:
                    cnf.clauses.append([-R[c, j], -arrow(*c, k), R[u, j - 1]])
                else:
                    cnf.clauses.append([-R[c, j], -arrow(*c, k)])
    E = {}
    for c in cells:
        for k in ARROWS:
            e = frozenset((c, step(c, k)))
            E.setdefault(e, cnf.var())
            if c != (0, 0):
                cnf.clauses.append([-arrow(*c, k), E[e]])
    return E


def image(c, n):
    return (centred(-c[1], n), c[0]) if n % 2 else (c[1], c[0])


def figure(P, n, val):
    return ['"' + ''.join('O' if (x, y) == (0, 0) else
                          next(k for k in ARROWS if P[x, y, k] in val)
                          for x in centred_range(n)) + '",'
            for y in reversed(centred_range(n))]


def main():
    n0 = int(sys.argv[1])
    ts = [int(t) for t in sys.argv[2:]] or [0]
    cnf = Cnf()
    if n0 == 4:
        Ps = [arrow_vars(cnf, 4) for _ in range(2)]
        Es = [tree_clauses(cnf, 4, lambda x, y, k, P=P: P[x, y, k]) for P in Ps]
        for e, v in Es[0].items():
            cnf.clauses.append([-v, -Es[1][e]])
    else:
        P = arrow_vars(cnf, n0)
        for x in centred_range(n0):  # The tree keeps the root's row.
            if x:
                cnf.clauses.append([P[x, 0, '<' if x > 0 else '>']])
        if n0 % 2:  # Symmetric under (x,y) -> (-x,-y).
            opposite = dict(zip(ARROWS, '<v>^'))
            for (x, y, k), v in P.items():
                cnf.clauses.append([-v, P[-x, -y, opposite[k]]])
        for t in ts:
            n = n0 + 4 * t
            E = tree_clauses(cnf, n, lambda x, y, k, t=t:
                             P[to_base(x, t), to_base(y, t), k])
            for e, v in E.items():
                g = frozenset(image(c, n) for c in e)
                cnf.clauses.append([-v, -E[g]])
        Ps = [P]
    val = cnf.solve()
    if val is None:
        print('unsatisfiable for n0 = %d, t = %s' % (n0, ts))
        return 1
    for P in Ps:
        print('\n'.join(figure(P, n0, val)) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
