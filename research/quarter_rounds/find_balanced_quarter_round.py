#!/usr/bin/env python3
#===- research/quarter_rounds/find_balanced_quarter_round.py --------------===#
#
# Offline only (not built, not run by tests): the SAT search behind
# kQuarterRound of AllPortRecursion.cpp, with the balance the recursion
# needs (RESULTS.md records the runs). find_quarter_round.py's first table
# left a cell's D and A slots with disjoint but unequal shares, which made
# every later round send more than 7p.
#
# The cell-level move model. A block of side 4s is 4 x 4 cells of side s;
# slot D of cell (i, j) is nodes (is+t, js+t), slot A is (is+t, js+s-1-t),
# t < s. Segment i (i < 4) starts in slot D of cell (i, i), segment 4+i in
# slot A of cell (i, 3-i). In step r = 1..3 a move (a, b) makes node t of
# slot a share with node t of slot b, every t: b receives the segments a
# holds and b lacks. Exact encoding (variables X[r,a,b], H[r,slot,seg]):
#   - H[r,b] = H[r-1,b] | union of H[r-1,a] over the moves (a, b) of step r;
#   - no segment reaches a slot twice in one step (two moves into b that
#     both carry a segment b lacked);
#   - message sizes: a move of step r carries at most 2^(r-1) segments
#     (p, 2p, 4p, p = the flints of one node), and carries at least one
#     (a move that carries nothing can be dropped: this loses no table);
#   - links: on every geometry given (mesh or torus routes of ir/Topology:
#     X first, the shorter way round, a tie the positive way), no directed
#     link carries two moves of one step (every t of every move counted);
#   - goal (Lemma 5's invariant, halves): after step 3 every cell's D and A
#     slots hold disjoint sets of exactly 4 segments each, so node t of D and
#     of A together own flint t and each owns half of it.
# Moves join slots of cells in one row or one column of cells (--pairs
# rowcol) or any two slots (--pairs all). Geometries not in the encoding are
# checked after each model; one that fails is added and the solver re-run
# (lazy constraints), so a table printed holds on every --check geometry.
#
# Usage (RESULTS.md lists the runs behind the tables):
#   find_balanced_quarter_round.py --encode mesh2,mesh4 --rotate \
#     --check mesh2,mesh4,mesh8,mesh16 --out mesh_quarter_round.json
#   find_balanced_quarter_round.py --encode torus2,torus4 --translate \
#     --check torus2,torus4,torus8,torus16 --out torus_quarter_round.json
#   find_balanced_quarter_round.py --verify mesh_quarter_round.json \
#     --check mesh2,mesh4,mesh8,mesh16
# --rotate / --translate add symmetry clauses (a restriction: UNSAT with
# them proves nothing about tables without). Needs the Debian package
# `cadical` on PATH.
#
#===----------------------------------------------------------------------===#
import argparse, itertools, json, os, subprocess, sys, tempfile, time

R = 3
NSEG = 8
CELLS = [(i, j) for j in range(4) for i in range(4)]
SLOTS = [(c, sl) for c in CELLS for sl in 'DA']


def initial(slot):
    (i, j), sl = slot
    if sl == 'D' and i == j:
        return {i}
    if sl == 'A' and j == 3 - i:
        return {4 + i}
    return set()


def node(slot, t, s):
    (i, j), sl = slot
    return (i * s + t, j * s + (t if sl == 'D' else s - 1 - t))


def route(a, b, side, torus):
    """Directed links (axis, fixed coordinate, from, step) of the route."""
    (x1, y1), (x2, y2) = a, b
    out = []

    def walk(c, goal, fixed, axis):
        while c != goal:
            if torus:
                fwd = (goal - c) % side
                st = 1 if 2 * fwd <= side else -1
            else:
                st = 1 if goal > c else -1
            out.append((axis, fixed, c, st))
            c = (c + st) % side

    walk(x1, x2, y1, 0)
    walk(y1, y2, x2, 1)
    return out


def parse_geoms(text):
    out = []
    for g in filter(None, text.split(',')):
        kind = 'torus' if g.startswith('torus') else 'mesh'
        out.append((int(g[len(kind):]), kind == 'torus'))
    return out


def link_users(moves, s, torus):
    """link -> moves using it, for one step."""
    use = {}
    for m in moves:
        for t in range(s):
            for l in route(node(m[0], t, s), node(m[1], t, s), 4 * s, torus):
                use.setdefault(l, []).append(m)
    return use


def simulate(steps):
    """Holdings after each step and the largest message of each step."""
    h = {sl: set(initial(sl)) for sl in SLOTS}
    sizes = []
    for st in steps:
        new = {sl: set(v) for sl, v in h.items()}
        mx = 0
        for a, b in st:
            mx = max(mx, len(h[a] - h[b]))
            new[b] |= h[a]
        h = new
        sizes.append(mx)
    return h, sizes


def contention(steps, s, torus):
    for r, st in enumerate(steps):
        for l, ms in link_users(st, s, torus).items():
            if len(ms) > 1:
                return r
    return None


class Encoder:
    def __init__(self, pairs, sizes=(1, 2, 4), same_routes=False):
        self.sizes = sizes
        self.nv = 0
        self.clauses = []
        if pairs == 'all':
            self.moves = [(a, b) for a in SLOTS for b in SLOTS if a != b]
        else:
            self.moves = [(a, b) for a in SLOTS for b in SLOTS
                          if a != b and (a[0][0] == b[0][0] or
                                         a[0][1] == b[0][1])]
        if same_routes:
            # Only moves that route alike on a mesh and on a torus: a table
            # of them that holds on one holds on the other.
            self.moves = [m for m in self.moves if all(
                route(node(m[0], t, s), node(m[1], t, s), 4 * s, False) ==
                route(node(m[0], t, s), node(m[1], t, s), 4 * s, True)
                for s in (2, 4, 8, 16) for t in range(s))]
        self.X = {(r, m): self.new() for r in range(1, R + 1)
                  for m in self.moves}
        self.H = {}
        for sl in SLOTS:
            for p in range(NSEG):
                v = self.new()
                self.H[(0, sl, p)] = v
                self.clauses.append([v] if p in initial(sl) else [-v])
        for r in range(1, R + 1):
            self.step(r)
        self.goal()
        self.encoded = set()

    def symmetric(self, image):
        """Asks for a table that \p image (a map of slots) maps to itself."""
        for r in range(1, R + 1):
            for a, b in self.moves:
                x = self.X[(r, (a, b))]
                y = self.X.get((r, (image(a), image(b))))
                if y is None:  # the image is not a move of the model
                    self.clauses.append([-x])
                elif x < y:
                    self.clauses += [[-x, y], [x, -y]]

    def rotate(self):
        """The 180-degree rotation x -> S-1-x, y -> S-1-y maps slot D of cell
        (i, j) node t to slot D of cell (3-i, 3-j) node s-1-t, A likewise,
        and XY mesh routes to routes (not torus ties)."""
        self.symmetric(lambda sl: ((3 - sl[0][0], 3 - sl[0][1]), sl[1]))

    def translate(self):
        """The translation by (2s, 2s) maps slot D of cell (i, j) node t to
        slot D of cell (i+2, j+2) node t (mod 4), A likewise, segment i to
        i+2 and 4+i to 4+(i+2 mod 4), and torus routes (only) to routes."""
        self.symmetric(lambda sl: (((sl[0][0] + 2) % 4, (sl[0][1] + 2) % 4),
                                   sl[1]))

    def pair_last_step(self, axis):
        """Fixes step 3 to slot D of every cell sharing into slot A of the
        neighbouring cell along \p axis (cells i and i^1): a structural
        guess that shrinks the search, not part of the model."""
        for a, b in self.moves:
            (i, j), sa = a
            want = (i ^ 1, j) if axis == 0 else (i, j ^ 1)
            on = sa == 'D' and b == (want, 'A')
            self.clauses.append([self.X[(3, (a, b))] if on else
                                 -self.X[(3, (a, b))]])

    def new(self):
        self.nv += 1
        return self.nv

    def step(self, r):
        H, X, cl = self.H, self.X, self.clauses
        for sl in SLOTS:
            for p in range(NSEG):
                H[(r, sl, p)] = self.new()
        into = {b: [] for b in SLOTS}
        for m in self.moves:
            into[m[1]].append(m[0])
        for b in SLOTS:
            for p in range(NSEG):
                h, old = H[(r, b, p)], H[(r - 1, b, p)]
                carries = []
                for a in into[b]:
                    # c: move (a, b) of step r carries segment p to b.
                    c = self.new()
                    x, ha = X[(r, (a, b))], H[(r - 1, a, p)]
                    cl += [[-c, x], [-c, ha], [-c, -old], [c, -x, -ha, old]]
                    carries.append(c)
                cl.append([-h, old] + carries)
                cl.append([h, -old])
                for c in carries:
                    cl.append([h, -c])
                self.at_most_one(carries)
        lim = self.sizes[r - 1]
        for a, b in self.moves:
            x = X[(r, (a, b))]
            diff = [self.new() for _ in range(NSEG)]
            for p, d in enumerate(diff):
                ha, hb = H[(r - 1, a, p)], H[(r - 1, b, p)]
                cl += [[-d, ha], [-d, -hb], [d, -ha, hb]]
            cl.append([-x] + diff)  # a move carries something
            if lim < NSEG:
                for comb in itertools.combinations(range(NSEG), lim + 1):
                    cl.append([-x] + [-diff[p] for p in comb])

    def goal(self):
        H, cl = self.H, self.clauses
        for c in CELLS:
            for p in range(NSEG):
                d, a = H[(R, (c, 'D'), p)], H[(R, (c, 'A'), p)]
                cl += [[d, a], [-d, -a]]
            for comb in itertools.combinations(range(NSEG), 5):
                cl.append([-H[(R, (c, 'D'), p)] for p in comb])
                cl.append([-H[(R, (c, 'A'), p)] for p in comb])

    def at_most_one(self, lits):
        cl = self.clauses
        if len(lits) <= 5:
            for a, b in itertools.combinations(lits, 2):
                cl.append([-a, -b])
            return
        s = [self.new() for _ in lits[:-1]]
        cl.append([-lits[0], s[0]])
        for i in range(1, len(lits) - 1):
            cl += [[-lits[i], s[i]], [-s[i - 1], s[i]], [-lits[i], -s[i - 1]]]
        cl.append([-lits[-1], -s[-1]])

    def add_geometry(self, s, torus):
        if (s, torus) in self.encoded:
            return
        self.encoded.add((s, torus))
        for r in range(1, R + 1):
            for l, ms in link_users(self.moves, s, torus).items():
                self.at_most_one(sorted({self.X[(r, m)] for m in ms}))

    def solve(self, timeout, tag):
        path = os.path.join(tempfile.gettempdir(), tag + '.cnf')
        with open(path, 'w') as f:
            f.write('p cnf %d %d\n' % (self.nv, len(self.clauses)))
            for c in self.clauses:
                f.write(' '.join(map(str, c)) + ' 0\n')
        t0 = time.time()
        out = subprocess.run(['cadical', '-q', '-t', str(timeout), path],
                             capture_output=True, text=True).stdout
        took = time.time() - t0
        status = next((l[2:] for l in out.splitlines() if l.startswith('s ')),
                      'UNKNOWN')
        val = set()
        for line in out.splitlines():
            if line.startswith('v'):
                val.update(int(v) for v in line.split()[1:] if int(v) > 0)
        steps = [[m for m in self.moves if self.X[(r, m)] in val]
                 for r in range(1, R + 1)]
        return status, took, steps, path

    def forbid(self, steps):
        """Blocks one model (to enumerate others)."""
        self.clauses.append([-self.X[(r + 1, m)]
                             for r, st in enumerate(steps) for m in st])


def load(path):
    return [[((tuple(a), sa), (tuple(b), sb)) for a, sa, b, sb in st]
            for st in json.load(open(path))]


def verify(path, geoms):
    steps = load(path)
    h, sizes = simulate(steps)
    ok = all(len(h[(c, 'D')]) == 4 and h[(c, 'D')] | h[(c, 'A')] ==
             set(range(NSEG)) for c in CELLS) and sizes == [1, 2, 4]
    print('%s: halves %s, sizes %s' % (path, ok, sizes))
    for g in geoms:
        r = contention(steps, *g)
        ok &= r is None
        print('  %s %d: %s' % ('torus' if g[1] else 'mesh', g[0],
                               'contention-free' if r is None else
                               'link shared in step %d' % (r + 1)))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--encode', default='mesh2,mesh4')
    ap.add_argument('--check', default='mesh2,mesh4,mesh8,mesh16')
    ap.add_argument('--pairs', choices=['rowcol', 'all'], default='rowcol')
    ap.add_argument('--timeout', type=int, default=3000)
    ap.add_argument('--tag', default='balanced_qr')
    ap.add_argument('--rotate', action='store_true',
                    help='only tables equal to their 180-degree rotation')
    ap.add_argument('--same-routes', action='store_true',
                    help='only moves routed alike on mesh and torus')
    ap.add_argument('--translate', action='store_true',
                    help='only tables equal to their (2s, 2s) translation')
    ap.add_argument('--pair-last-step', choices=['x', 'y'],
                    help='fix step 3 to D -> A of the x (or y) neighbour')
    ap.add_argument('--sizes', default='1,2,4',
                    help='segments a move may carry in steps 1, 2, 3')
    ap.add_argument('--out', help='write the table as JSON here')
    ap.add_argument('--verify', metavar='JSON',
                    help='only check a table written by --out on --check')
    args = ap.parse_args()
    if args.verify:
        return verify(args.verify, parse_geoms(args.check))
    enc = Encoder(args.pairs, [int(v) for v in args.sizes.split(',')],
                  args.same_routes)
    if args.rotate:
        enc.rotate()
    if args.translate:
        enc.translate()
    if args.pair_last_step:
        enc.pair_last_step('xy'.index(args.pair_last_step))
    for g in parse_geoms(args.encode):
        enc.add_geometry(*g)
    total = 0.0
    while True:
        status, took, steps, path = enc.solve(args.timeout, args.tag)
        total += took
        print('%s: %s in %.1f s (%d vars, %d clauses, geometries %s)' %
              (args.tag, status, took, enc.nv, len(enc.clauses),
               sorted(enc.encoded)), flush=True)
        if status != 'SATISFIABLE':
            print('total solver time %.1f s' % total)
            return 1 if status == 'UNSATISFIABLE' else 2
        bad = [g for g in parse_geoms(args.check) if contention(steps, *g)
               is not None]
        if not bad:
            break
        print('  contention on', bad[0], '- adding it', flush=True)
        enc.add_geometry(*bad[0])
    h, sizes = simulate(steps)
    assert all(len(h[(c, 'D')]) == 4 and h[(c, 'D')] | h[(c, 'A')] ==
               set(range(NSEG)) for c in CELLS)
    print('total solver time %.1f s; sizes %s; moves %s' %
          (total, sizes, [len(st) for st in steps]))
    if args.out:
        with open(args.out, 'w') as f:
            json.dump([[[list(a[0]), a[1], list(b[0]), b[1]] for a, b in st]
                       for st in steps], f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
