#!/usr/bin/python3
"""Lower bound on any one-port step plan's model cost (issue 9, section 1).

bcastc's cost model (lambda = 1, contention forbidden) charges a step
b + a * (its largest message), steps one after another. Every plan it can
express therefore costs K*b + a*sum(s_t) for some K steps with largest
messages s_1..s_K. This script minimises that over every (s_t) satisfying
constraints that any one-port broadcast of m bytes to n nodes must meet
(BOUNDS.md proves each), as a linear program per K, and takes the least
over every K that could still win.
The result is a lower bound for every topology (links are ignored), every
chunking and every packet-size profile; the equal-packet binomial pipeline
(P - 1 + ceil(lg n)) (b + m a / P) is printed next to it.

    /usr/bin/python3 research/one_port_bound/one_port_step_bound.py [--a=0.08 --b=75]

Needs python3-scipy (Debian; HiGHS solver). Not built or run by the tests.
"""
import argparse
import math

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix


def step_lp(n, K, Ma, b):
    """Least K*b + Ma*sum(s) (bytes in units of m) over K steps, or None."""
    S = lambda t: t          # largest message of step t
    R = lambda t: K + t      # bytes the root sends for the first time in t
    H = lambda t: 2 * K + t  # byte copies held by non-root nodes after t
    C = lambda t: 3 * K + t  # r_0 + ... + r_t, so that (4) stays sparse
    L = math.ceil(math.log2(n))
    rows, rhs = [], []

    def le(coefs):
        rows.append(coefs)
        rhs.append(0.0)

    for t in range(K):
        le({R(t): 1, S(t): -1})                                  # (1)
        senders = min(2 ** min(t, 62), n - 1)
        c = {H(t): 1, S(t): -senders}                            # (2)
        if t:
            c[H(t - 1)] = -1
        le(c)
        c = {H(t): 1, S(t): -1}                                  # (3)
        if t:
            c[H(t - 1)] = -2
        le(c)
        # (4): bytes first sent L or more steps before t+1 may have reached
        # all n - 1; the later ones at most 2^(t-j+1) - 1 nodes.
        c = {H(t): 1}
        old = t - L + 1      # releases j <= old have coefficient n - 1
        if old >= 0:
            c[C(old)] = -(n - 1)
        for j in range(max(old + 1, 0), t + 1):
            c[R(j)] = -min(n - 1, 2 ** (t - j + 1) - 1)
        le(c)
    A = lil_matrix((len(rows), 4 * K))
    for i, c in enumerate(rows):
        for k, v in c.items():
            A[i, k] = v
    Aeq = lil_matrix((K + 2, 4 * K))
    for t in range(K):
        Aeq[0, R(t)] = 1                                         # (5)
        Aeq[2 + t, C(t)] = 1                                     # C's definition
        Aeq[2 + t, R(t)] = -1
        if t:
            Aeq[2 + t, C(t - 1)] = -1
    Aeq[1, H(K - 1)] = 1                                         # (6)
    cost = np.zeros(4 * K)
    cost[:K] = Ma
    res = linprog(cost, A_ub=A.tocsr(), b_ub=rhs, A_eq=Aeq.tocsr(),
                  b_eq=[1.0, n - 1.0] + [0.0] * K,
                  bounds=[(0, None)] * (4 * K), method='highs')
    return K * b + res.fun if res.status == 0 else None


def bound(n, Ma, b):
    """min over K of step_lp: returns (time, K).

    Every plan has sum(s) >= m (the root sends every byte), so a K-step plan
    costs at least K*b + Ma; the scan stops once that reaches the best found,
    which makes the minimum exact rather than a local one.
    """
    L = math.ceil(math.log2(n))
    best = None
    K = L
    while best is None or K * b + Ma < best[0]:
        v = step_lp(n, K, Ma, b)
        if v is not None and (best is None or v < best[0]):
            best = (v, K)
        K += 1
    return best


def pipeline(n, Ma, b):
    L = math.ceil(math.log2(n))
    return min((P - 1 + L) * (b + Ma / P) for P in range(1, 100000))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', type=float, default=0.08)
    ap.add_argument('--b', type=float, default=75.0)
    args = ap.parse_args()
    print('a=%g us/B b=%g us; ratios to max(ceil(lg n) b, m a + b)' %
          (args.a, args.b))
    print('n      MiB  steps  step_bound_us  ratio  pipeline_ratio')
    for n in (64, 1000, 1024):
        for mib in (1, 2, 4, 8, 16):
            Ma = args.a * mib * 2 ** 20
            lower = max(math.ceil(math.log2(n)) * args.b, Ma + args.b)
            t, K = bound(n, Ma, args.b)
            print('%-6d %3d  %5d  %13.0f  %.4f  %.4f' %
                  (n, mib, K, t, t / lower, pipeline(n, Ma, args.b) / lower),
                  flush=True)


if __name__ == '__main__':
    main()
