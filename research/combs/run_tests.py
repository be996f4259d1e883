#!/usr/bin/env python3
"""Validate the constructions and report latency H and time / lower bound.
usage: nice -n 19 python3 run_tests.py [quick]"""
import sys
import time
import math
import pipe

MIB = 1 << 20


def chain_ratio(n, m):
    t, P = pipe.best_P(lambda P: P + n - 2, m)
    return t / pipe.lower_bound(n, m), P


def plan_ratio(d, n, m):
    t, P = pipe.best_P(lambda P: pipe.num_steps(d, P), m)
    return t / pipe.lower_bound(n, m), P


def run(kind, dims, roots, full_check=True, out=None):
    dims = pipe.norm_dims(kind, dims)
    n = pipe.num_nodes(kind, dims)
    rows = []
    for root in roots:
        t0 = time.time()
        per, d, H, name = pipe.best_plan(kind, dims, root)
        if full_check:
            for P in sorted({1, 2, 3, 5, 2 * H + 5}):
                steps = pipe.unroll(per, d, P)
                pipe.check(kind, dims, root, P, steps)
                assert len(steps) == pipe.num_steps(d, P)
        r16, P16 = plan_ratio(d, n, 16 * MIB)
        r1, P1 = plan_ratio(d, n, 1 * MIB)
        c16, _ = chain_ratio(n, 16 * MIB)
        c1, _ = chain_ratio(n, 1 * MIB)
        rows.append((root, H, name, r16, P16, r1, P1, c16, c1, time.time() - t0))
    return rows


def fmt_dims(kind, dims):
    dims = pipe.norm_dims(kind, dims)
    return '%s:%s' % (kind, 'x'.join(map(str, dims)))


def main():
    quick = 'quick' in sys.argv
    cases = []
    cases.append(('linear', 64, list(range(64)) if not quick else [0, 20, 32, 63]))
    for n in (2, 3, 5, 8, 13, 17, 33, 100):
        cases.append(('linear', n, sorted({0, n // 2, n - 1, n // 3})))
    R = C = 32
    mroots = [0, 16 * 32 + 16, 15 * 32 + 15, 16, 16 * 32, 31 * 32 + 31, 5 * 32 + 9, 31, 8 * 32 + 24]
    cases.append(('mesh', (32, 32), mroots if not quick else [0, 528]))
    cases.append(('torus', (32, 32), [0, 528, 5 * 32 + 9] if not quick else [0]))
    for dims in ((4, 4), (3, 5), (5, 7), (7, 11), (9, 4), (16, 16), (32, 17), (17, 32), (12, 20)):
        R, C = dims
        cases.append(('mesh', dims, sorted({0, (R // 2) * C + C // 2, C - 1, (R - 1) * C, (R // 3) * C})))
    for dims in ((4, 4), (5, 5), (6, 8), (7, 9), (12, 12), (16, 16)):
        cases.append(('torus', dims, [0]))
    print('| topology | root | H | plan | ratio 16MiB (P) | chain 16MiB | ratio 1MiB (P) | chain 1MiB |')
    print('|---|---|---|---|---|---|---|---|')
    for kind, dims, roots in cases:
        rows = run(kind, dims, roots)
        for (root, H, name, r16, P16, r1, P1, c16, c1, dt) in rows:
            if isinstance(name, tuple):
                name = name[0]
            print('| %s | %d | %d | %s | %.4f (%d) | %.4f | %.4f (%d) | %.4f |' % (
                fmt_dims(kind, dims), root, H, name, r16, P16, c16, r1, P1, c1), flush=True)


if __name__ == '__main__':
    main()
