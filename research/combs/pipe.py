#!/usr/bin/env python3
"""Reference implementation: pipelined one-port broadcast schedules on
linear arrays, 2-D meshes and 2-D tori (Seidel's one-port wormhole model,
full-duplex links, dimension-order routing, contention-free steps).

Public API
  schedule(kind, dims, root, P) -> list of steps, each a list of (src, dst, packet)
  check(kind, dims, root, P, steps)   (asserts everything; returns True)
  cost(steps, m)                      model time in microseconds
Nodes are integers: linear i; mesh/torus r*C + c.  dims: linear (n,) or n;
mesh/torus (R, C).

Construction (see NOTES.md): every plan is a period-2 schedule with two
packet classes (even / odd packets), built from "combs" (a spine of long
forward jumps plus backward teeth).  Linear arrays: one comb (root at an end)
or two combs cross-fed through the first comb's idle slots (root inside).
Mesh / torus: a comb along the root's column whose teeth are chains of
row-segment combs ("comb of combs").
"""
import math
import sys

A_US = 0.08      # us per byte
B_US = 75.0      # us per step
K = 2            # period / number of packet classes


# ----------------------------------------------------------------------------
# topology and routes

def norm_dims(kind, dims):
    if kind == 'linear':
        if isinstance(dims, (tuple, list)):
            return (int(dims[0]),)
        return (int(dims),)
    R, C = dims
    return (int(R), int(C))


def num_nodes(kind, dims):
    d = norm_dims(kind, dims)
    return d[0] if kind == 'linear' else d[0] * d[1]


def _line_moves(a, b, L, ring):
    """directed unit moves (pos, dir) from a to b on a line / ring of length L."""
    if not ring:
        if a < b:
            return [(i, +1) for i in range(a, b)]
        return [(i, -1) for i in range(a, b, -1)]
    d = (b - a) % L
    if d == 0:
        return []
    if 2 * d <= L:           # shorter way; exactly half way -> + direction
        return [((a + i) % L, +1) for i in range(d)]
    d = L - d
    return [((a - i) % L, -1) for i in range(d)]


def route(kind, dims, u, v):
    """list of directed links used by a transfer u -> v (dimension order:
    first along the row to v's column, then along the column)."""
    d = norm_dims(kind, dims)
    if kind == 'linear':
        return [('x', p, s) for (p, s) in _line_moves(u, v, d[0], False)]
    R, C = d
    ring = (kind == 'torus')
    r1, c1 = divmod(u, C)
    r2, c2 = divmod(v, C)
    links = [('h', r1, p, s) for (p, s) in _line_moves(c1, c2, C, ring)]
    links += [('v', c2, p, s) for (p, s) in _line_moves(r1, r2, R, ring)]
    return links


# ----------------------------------------------------------------------------
# periodic schedules: per[k] = list of (u, v, cls) used in every step t = k mod K

class PlanError(Exception):
    pass


def evaluate(per, root, n):
    """earliest arrival offsets d[(v, c)] (step at which v receives the class-c
    reference packet, which the root sends at step c) and latency H.
    Raises PlanError when the periodic plan is not a valid two-class plan."""
    inedge = [dict() for _ in range(K)]
    outdeg = [dict() for _ in range(K)]
    for k in range(K):
        for (u, v, c) in per[k]:
            if v == root:
                raise PlanError('root receives')
            if v in inedge[k]:
                raise PlanError('node %d receives twice in colour %d' % (v, k))
            inedge[k][v] = (u, c)
            outdeg[k][u] = outdeg[k].get(u, 0) + 1
            if outdeg[k][u] > 1:
                raise PlanError('node %d sends twice in colour %d' % (u, k))
    src = {}
    for v in range(n):
        if v == root:
            continue
        got = []
        for k in range(K):
            if v not in inedge[k]:
                raise PlanError('node %d idle in colour %d' % (v, k))
            u, c = inedge[k][v]
            got.append(c)
            src[v, c] = (u, k)
        if sorted(got) != list(range(K)):
            raise PlanError('node %d classes %s' % (v, got))
    d = {}
    state = {}

    def arr(v, c):
        if v == root:
            return c - 1
        if (v, c) in d:
            return d[v, c]
        if state.get((v, c)) == 1:
            raise PlanError('cycle at %d class %d' % (v, c))
        state[v, c] = 1
        u, k = src[v, c]
        ready = arr(u, c) + 1
        t = ready + ((k - ready) % K)
        d[v, c] = t
        state[v, c] = 2
        return t

    sys.setrecursionlimit(100000)
    H = 0
    for v in range(n):
        if v == root:
            continue
        for c in range(K):
            H = max(H, arr(v, c) - c + 1)
    return d, H


def unroll(per, d, P):
    steps = {}
    for k in range(K):
        for (u, v, c) in per[k]:
            base = d[v, c]
            for p in range(c, P, K):
                t = base + (p - c)
                steps.setdefault(t, []).append((u, v, p))
    T = max(steps) + 1 if steps else 0
    return [sorted(steps.get(t, [])) for t in range(T)]


def num_steps(d, P):
    """number of steps of the unrolled plan for P packets (without unrolling)."""
    best = 0
    last = {}
    for (v, c), t in d.items():
        last[c] = max(last.get(c, -1), t)
    for c in range(K):
        if c >= P:
            continue
        p = c + ((P - 1 - c) // K) * K      # last packet of class c
        best = max(best, last[c] + (p - c) + 1)
    return best


# ----------------------------------------------------------------------------
# checker and cost

def check(kind, dims, root, P, steps):
    n = num_nodes(kind, dims)
    have = [set() for _ in range(n)]
    have[root] = set(range(P))
    for t, step in enumerate(steps):
        snd, rcv, used = set(), set(), set()
        new = []
        for (u, v, p) in step:
            assert 0 <= u < n and 0 <= v < n and u != v, (t, u, v)
            assert 0 <= p < P, (t, p)
            assert u not in snd, ('one-port send', t, u)
            assert v not in rcv, ('one-port receive', t, v)
            snd.add(u)
            rcv.add(v)
            assert p in have[u], ('data flow: sender lacks packet', t, u, v, p)
            assert p not in have[v], ('duplicate delivery', t, u, v, p)
            for l in route(kind, dims, u, v):
                assert l not in used, ('link contention', t, u, v, l)
                used.add(l)
            new.append((v, p))
        for v, p in new:
            have[v].add(p)
    for v in range(n):
        assert len(have[v]) == P, ('incomplete', v, P - len(have[v]))
    return True


def cost(steps, m):
    P = 1 + max(p for st in steps for (_, _, p) in st)
    s = m / P
    return sum(B_US + A_US * s for st in steps if st)


def lower_bound(n, m):
    return max(math.ceil(math.log2(n)) * B_US if n > 1 else 0.0, m * A_US + B_US)


def time_for(nsteps, m, P):
    return nsteps * (B_US + A_US * m / P)


# ----------------------------------------------------------------------------
# 1-D combs

def comb_layout(g):
    """g = [g_1, ..., g_{m+1}]; returns list of labels for positions 1..L."""
    m = len(g) - 1
    lab = [('T', 1, i) for i in range(g[0])]         # bottom .. top (pos order)
    for j in range(1, m + 1):
        lab.append(('a', j))
        lab.append(('b', j))
        lab += [('T', j + 1, i) for i in range(g[j])]
    lab.append(('N',))
    return lab


def comb_valid(g):
    m = len(g) - 1
    if any(x < 0 for x in g):
        return False
    for j in range(2, m + 1):          # teeth T_2..T_m must be odd
        if g[j - 1] % 2 == 0:
            return False
    if m >= 1 and g[m] != 0 and g[m] % 2 == 0:   # T_{m+1}: 0 or odd
        return False
    return True


def comb_latency(g):
    """latency (steps, counting the receiving step) of a rooted comb, relative
    to the step in which the root sends class 0 to a_1."""
    m = len(g) - 1
    lat = 2 * m                                  # N
    lat = max(lat, g[0])                         # T_1 bottom
    for j in range(2, m + 1):
        lat = max(lat, 2 * j - 1 + g[j - 1])     # b_{j-1} via T_j
    if m >= 1:
        lat = max(lat, 2 * m + 1 + max(g[m], 1))  # b_m via T_{m+1} (or N)
    return lat + 1


def best_comb(L, g1=None, g1min=0):
    """tooth lengths for a comb on L nodes minimising comb_latency.
    g1: force |T_1| (0 gives fast exits)."""
    best = None
    for D in range(1, 4 * L + 8):
        for m in range(0, L):
            if 2 * m + 1 > L:
                break
            caps = [D - 1]
            for j in range(2, m + 1):
                c = D - 2 * j
                if c % 2 == 0:
                    c -= 1
                caps.append(c)
            if m >= 1:
                c = D - 2 * m - 2
                if c >= 1 and c % 2 == 0:
                    c -= 1
                caps.append(max(c, 0) if c >= 1 else 0)
            if m >= 1 and 2 * m + 2 > D - 1:
                continue
            if any(c < 1 for c in caps[1:m]):
                continue
            lo = [0] + [1] * (m - 1) + ([0] if m >= 1 else [])
            hi = list(caps)
            if g1 is not None:
                if g1 > hi[0]:
                    continue
                lo[0] = hi[0] = g1
            if g1min > hi[0]:
                continue
            lo[0] = max(lo[0], g1min)
            base = 2 * m + 1
            if not (base + sum(lo) <= L <= base + sum(hi)):
                continue
            g = list(lo)
            rest = L - base - sum(lo)
            # fill: T_1 first (any amount), then the others by steps of 2
            add = min(rest, hi[0] - g[0])
            g[0] += add
            rest -= add
            for j in range(1, len(g)):
                if rest <= 0:
                    break
                if g[j] == 0:            # last tooth 0 -> odd
                    if rest >= 1 and hi[j] >= 1:
                        g[j] = 1
                        rest -= 1
                add = min(hi[j] - g[j], rest - rest % 2)
                add -= add % 2
                g[j] += add
                rest -= add
            if rest != 0:
                # try to fix parity using T_1 (if free) -- otherwise skip
                continue
            if not comb_valid(g):
                continue
            lat = comb_latency(g)
            if best is None or lat < best[0]:
                best = (lat, g)
        if best is not None:
            return best[1]
    raise ValueError('no comb for L=%d g1=%s' % (L, g1))


class Comb:
    """a comb on the ordered node list xs (pos 1..L, pos 0 = root or feed).
    colour map: 'A' -> colA, 'B' -> 1-colA; class map: class0 -> k0."""

    def __init__(self, xs, g, colA=0, k0=0):
        assert len(xs) == sum(g) + 2 * (len(g) - 1) + 1, (len(xs), g)
        assert comb_valid(g), g
        self.xs, self.g, self.colA, self.k0 = list(xs), list(g), colA, k0
        lab = comb_layout(g)
        self.pos = {l: xs[i] for i, l in enumerate(lab)}
        self.m = len(g) - 1

    def node(self, *lab):
        return self.pos[tuple(lab)]

    def tooth(self, j):
        """nodes of T_j from top (far from root) to bottom."""
        return [self.pos[('T', j, i)] for i in reversed(range(self.g[j - 1]))]

    def edges(self, root=None):
        """per-colour edges (u, v, cls).  If root is None the two feeds into
        a_1 / b_1 (or N when m == 0) are omitted."""
        A, B = self.colA, 1 - self.colA
        c0, c1 = self.k0, 1 - self.k0
        per = {A: [], B: []}
        m = self.m
        a = [self.pos[('a', j)] for j in range(1, m + 1)]
        b = [self.pos[('b', j)] for j in range(1, m + 1)]
        N = self.pos[('N',)]
        sa = ([root] if root is not None else []) + a + [N]
        sb = ([root] if root is not None else []) + b + [N]
        for i in range(len(sa) - 1):
            per[A].append((sa[i], sa[i + 1], c0))
        for i in range(len(sb) - 1):
            per[B].append((sb[i], sb[i + 1], c1))
        # left chains
        for col, other, first_cls in ((A, b, c1), (B, a, c0)):
            chain = [N]
            cls = {}
            for j in range(m + 1, 0, -1):        # T_{m+1} .. T_1
                t = self.tooth(j)
                for i, x in enumerate(t):
                    # top tooth node gets class1 in A / class0 in B
                    cls[x] = first_cls if i % 2 == 0 else (c0 + c1 - first_cls)
                chain += t
                if j >= 2:
                    y = other[j - 2]
                    cls[y] = c0 if col == A else c1
                    chain.append(y)
            for i in range(len(chain) - 1):
                per[col].append((chain[i], chain[i + 1], cls[chain[i + 1]]))
        return per

    def entries(self):
        """[(colour, node, class)] that the feed must supply."""
        A, B = self.colA, 1 - self.colA
        if self.m == 0:
            N = self.pos[('N',)]
            return [(A, N, self.k0), (B, N, 1 - self.k0)]
        return [(A, self.pos[('a', 1)], self.k0), (B, self.pos[('b', 1)], 1 - self.k0)]

    def exits(self):
        """[(colour, node, class)]: idle send slots (end of the backward chains)
        and the class they can forward with minimum delay."""
        A, B = self.colA, 1 - self.colA
        c0, c1 = self.k0, 1 - self.k0
        if self.g[0] > 0:
            x = self.pos[('T', 1, 0)]
            # bottom of T_1: its index from top is g1-1 -> class parity
            i = self.g[0] - 1
            clsA = c1 if i % 2 == 0 else c0     # class received in A
            clsB = c0 + c1 - clsA
            return [(A, x, clsB), (B, x, clsA)]
        if self.m == 0:
            N = self.pos[('N',)]
            return [(A, N, c1), (B, N, c0)]
        return [(A, self.pos[('b', 1)], c1), (B, self.pos[('a', 1)], c0)]


def comb_for_entries(xs, g, want):
    """Comb on xs whose entries match want = {colour: class} of the feed:
    a_1 (or N) gets class want[colA] in colour colA."""
    for colA in range(K):
        k0 = want[colA]
        if want[1 - colA] != 1 - k0:
            continue
        return Comb(xs, g, colA, k0)
    raise PlanError('bad feed %s' % want)


def merge(per, more):
    for k in more:
        per.setdefault(k, []).extend(more[k])
    return per


# ----------------------------------------------------------------------------
# linear arrays

def linear_plan(n, root):
    """list of candidate periodic plans (per dicts) for a linear array."""
    cands = []
    right = list(range(root + 1, n))
    left = list(range(root - 1, -1, -1))
    # one comb on the virtual line (far side first, so that tooth T_1 runs
    # across the root): needs |T_1| >= size of the near side
    for near, far in ((left, right), (right, left)):
        if not far:
            continue
        xs = list(reversed(near)) + far
        try:
            g = best_comb(len(xs), g1min=len(near))
        except ValueError:
            continue
        cands.append(Comb(xs, g).edges(root))
    if not right or not left:
        return cands
    for first, second in ((right, left), (left, right)):
        for g1first in (0,):
            try:
                gf = best_comb(len(first), g1=g1first)
            except ValueError:
                continue
            c1 = Comb(first, gf)
            per = c1.edges(root)
            ex = c1.exits()
            want = {col: cls for (col, node, cls) in ex}
            src = {col: node for (col, node, cls) in ex}
            gs = best_comb(len(second))
            c2 = comb_for_entries(second, gs, want)
            merge(per, c2.edges(None))
            for (col, node, cls) in c2.entries():
                per[col].append((src[col], node, cls))
            cands.append(per)
    return cands


def chain_plan(order):
    """pipelined chain along order[0] (root), order[1], ... (period 2 form)."""
    per = {0: [], 1: []}
    for i in range(len(order) - 1):
        u, v = order[i], order[i + 1]
        # node i (i>=1) receives class c at colour (c + i - 1) % 2
        for c in range(K):
            per[(c + i) % K].append((u, v, c))
    return per


def grid_chain(kind, dims, root):
    """Hamiltonian order for the chain fallback: on a torus a unit-step
    boustrophedon from the root; on a mesh root row (right part, then left
    part), rows below as a snake, then rows above as a snake."""
    R, C = dims
    r0, c0 = divmod(root, C)
    if kind == 'torus':
        order = []
        for i in range(R):
            cols = range(C) if i % 2 == 0 else range(C - 1, -1, -1)
            for j in cols:
                order.append(((r0 + i) % R) * C + (c0 + j) % C)
        return order
    order = [r0 * C + c for c in range(c0, C)] + [r0 * C + c for c in range(c0 - 1, -1, -1)]
    left = (c0 > 0)            # where we are: column 0 if c0 > 0 else C-1
    cur = 0 if c0 > 0 else C - 1
    for r in list(range(r0 + 1, R)):
        cols = range(C) if cur == 0 else range(C - 1, -1, -1)
        order += [r * C + c for c in cols]
        cur = C - 1 if cur == 0 else 0
    for r in range(r0 - 1, -1, -1):
        cols = range(C) if cur == 0 else range(C - 1, -1, -1)
        order += [r * C + c for c in cols]
        cur = C - 1 if cur == 0 else 0
    return order


# ----------------------------------------------------------------------------
# plan selection

def best_plan(kind, dims, root):
    """returns (per, d, H, name) with the smallest latency among valid
    candidates (each candidate is validated on the exact routes)."""
    dims = norm_dims(kind, dims)
    n = num_nodes(kind, dims)
    cands = []
    if kind == 'linear':
        for per in linear_plan(n, root):
            cands.append(('comb', per))
        order = list(range(root, n)) + list(range(root - 1, -1, -1))
        cands.append(('chain', chain_plan(order)))
    else:
        import pipe2d
        R, C = dims
        if R == 1 or C == 1:
            for per in linear_plan(n, root):
                cands.append(('comb1d', per))
        else:
            for (per, d, H, name) in pipe2d.best2d(kind, dims, root):
                cands.append((name, per))
            cands.append(('chain', chain_plan(grid_chain(kind, dims, root))))
    best = None
    for name, per in cands:
        try:
            d, H = evaluate(per, root, n)
            check_periodic(kind, dims, per)
        except (PlanError, AssertionError) as e:
            continue
        if best is None or H < best[2]:
            best = (per, d, H, name)
    if best is None:
        raise PlanError('no valid plan')
    return best


def check_periodic(kind, dims, per):
    for k in per:
        snd, rcv, used = set(), set(), set()
        for (u, v, c) in per[k]:
            assert u not in snd and v not in rcv
            snd.add(u)
            rcv.add(v)
            for l in route(kind, dims, u, v):
                assert l not in used, ('contention', k, u, v, l)
                used.add(l)


def schedule(kind, dims, root, P):
    per, d, H, name = best_plan(kind, dims, root)
    return unroll(per, d, P)


def best_P(nsteps_of_P, m, Pmax=200000):
    best = None
    # time(P) = T(P) (b + a m / P), T(P) ~ P + H - 1: scan around the optimum
    lo, hi = 1, Pmax
    cands = set()
    for P in range(1, 64):
        cands.add(P)
    x = 1.0
    while x < Pmax:
        cands.add(int(x))
        x *= 1.02
    for P in sorted(cands):
        t = time_for(nsteps_of_P(P), m, P)
        if best is None or t < best[0]:
            best = (t, P)
    t0, P0 = best
    for P in range(max(1, int(P0 / 1.03) - 2), int(P0 * 1.03) + 3):
        t = time_for(nsteps_of_P(P), m, P)
        if t < best[0]:
            best = (t, P)
    return best


if __name__ == '__main__':
    pass
