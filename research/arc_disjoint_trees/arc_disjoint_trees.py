#!/usr/bin/env python3
"""T4: four arc-disjoint spanning arborescences of depth <= D+1 in the torus Z_n x Z_n,
rooted at (0,0), D = 2*floor(n/2).  Self-contained (python3, no packages).

Conventions
  node id      v = x + n*y   (0 <= x,y < n); root = 0
  trees(n)     -> [P0, P1, P2, P3], Pk = list of length n*n, Pk[v] = parent of v in tree k,
                  Pk[0] = 0 (parent of the root is the root)
  directions   0=E(+x) 1=N(+y) 2=W(-x) 3=S(-y); a "label" is the direction from a node to its parent
  rotation     R(x,y) = (-y,x);   for every n != 5:  tree k = R^k(tree 0)

Construction (n >= 10): see NOTES.md.  Centred coords X,Y in (-n/2, n/2], m = n//2.
  Every non-root node v is written v = R^j w with w in the fundamental domain
     D = {1<=X<=m, 0<=Y<=m}            (n odd)
     D = {1<=X<=m, 0<=Y<=m-1} + {(m,m)} (n even)
  Tree k at v uses column t of the TABLE entry of w, rotated by j:
     u = R^{-k} v = R^j w,  t = -j mod 4,  label = TABLE[w][t] + j + k   (mod 4)
  TABLE[w] depends only on (xa, ya, p, c):
     xa = X if X<3, 'f0'/'f1' if m-X in {0,1}, else 'm' ;  ya likewise with Y (Y=0,1,2 exact)
     p  = n%2 if a far class (f0/f1) is involved, else '-' ;   c = (X-Y) mod 4
  Interior block (m,m):  tree c <- W, tree c+1 <- S, tree c+2 <- E, tree c+3 <- N.
  The /FFFF part of each entry is the excess F (depth - dist) of that node in trees t=0..3;
  it is not needed to build the trees, only for the local proof (prove()).
n in 3..9: explicit tables found by SAT (n=5: no rotation symmetry, depths 5,5,6,6; depth 5
for all four trees is impossible for n=5).
"""
import sys, time

DX = [(1, 0), (0, 1), (-1, 0), (0, -1)]
LET = 'ENWS'

# xa ya p   c:LLLL/FFFF ...   (letters = labels of trees t=0..3 at w, F = excess; '?' = unused)
TABLE_TXT = """
1  0  -  1:WENS/0482
1  1  -  0:SWEN/0066
1  2  -  3:SNWE/0624
1  m  -  0:SNWE/0224 1:SWNE/0044 2:SEWN/0466 3:SWNE/0084
1  f1 0  0:NEWS/2224 1:SWEN/0064 2:SNEW/0466 3:SWNE/0068
1  f1 1  0:SNWE/0426 1:SWNE/0044 2:SNEW/0263 3:SWEN/0065
1  f0 1  0:SEWN/0223 1:SWEN/0061 2:SWNE/0733 3:SENW/0236
2  0  -  2:WNES/0282
2  1  -  1:EWNS/4042
2  2  -  0:NEWS/2222
2  m  -  0:NWES/2042 1:NEWS/4422 2:EWNS/2042 3:WNES/0262
2  f1 0  0:NWSE/2026 1:NSWE/2024 2:EWNS/2042 3:WSNE/0048
2  f1 1  0:NWES/2042 1:NSWE/2024 2:EWNS/2042 3:WESN/0245
2  f0 1  0:WSEN/0041 1:ESWN/2021 2:WNSE/0343 3:WSEN/0051
m  0  -  0:WENS/0482 1:WNES/0282 2:WNSE/0264 3:WENS/0662
m  1  -  0:EWNS/2042 1:SWEN/0066 2:EWNS/2042 3:SWEN/0066
m  2  -  0:SEWN/0224 1:NSWE/2026 2:NSWE/4024 3:NEWS/4422
m  m  -  0:WSEN/0044 1:NWSE/2024 2:ENWS/2222 3:SENW/0242
m  f1 0  0:WSNE/0046 1:NWSE/2024 2:NEWS/4422 3:SENW/0242
m  f1 1  0:WSEN/0043 1:EWSN/4025 2:NEWS/2422 3:SENW/0242
m  f0 1  0:WSNE/0033 1:WESN/0421 2:SEWN/0223 3:WSEN/0051
f1 0  0  0:WESN/0464 1:SNEW/4262 2:WENS/0462 3:NWES/4262
f1 0  1  0:WENS/0472 1:WNES/0282 2:WSNE/0864 3:WNES/0232
f1 1  0  0:EWNS/6042 1:SWNE/0046 2:NWES/2042 3:SNEW/0422
f1 1  1  0:EWNS/2042 1:SWNE/0044 2:SWNE/0044 3:SWEN/0056
f1 2  0  0:SEWN/0224 1:WSEN/0026 2:SNWE/0224 3:NWES/6022
f1 2  1  0:SEWN/0224 1:NSWE/2024 2:SNWE/0224 3:NEWS/4522
f1 m  0  0:WSNE/0064 1:NWSE/2024 2:NEWS/4422 3:SENW/0242
f1 m  1  0:WSEN/0044 1:NWSE/2024 2:ENWS/2222 3:SENW/0542
f1 f1 0  0:WSEN/0022
f1 f1 1  0:WSEN/0033
f1 f0 1  3:ESWN/2021
f0 0  0  0:W??N/4??4 1:W??S/0??2 2:W??S/4??2 3:S??W/6??2
f0 0  1  0:WNES/0312 1:SNEW/4252 2:WSNE/0566 3:ENWS/7262
f0 1  0  0:NESW/2002 1:SWEN/4026 2:SEWN/6044 3:SENW/4022
f0 1  1  0:NWES/2032 1:SENW/0142 2:EWNS/4052 3:WENS/0142
f0 2  0  0:SWEN/4004 1:NSWE/6022 2:WNES/0202 3:WENS/0242
f0 2  1  0:SNWE/0325 1:WSNE/0036 2:NEWS/2122 3:WENS/0342
f0 m  0  0:ESWN/4044 1:NWES/6002 2:WENS/2022 3:SNEW/4242
f0 m  1  0:SNEW/0312 1:WNSE/0526 2:NEWS/2122 3:SENW/0142
f0 f1 0  1:WSEN/0002
f0 f1 1  1:WNES/0212
f0 f0 0  0:N???/0???
f0 f0 1  0:SWEN/0011
"""

TABLE = {}
for _line in TABLE_TXT.strip().splitlines():
    _f = _line.split()
    _blk = TABLE.setdefault((_f[0], _f[1], _f[2]), {})
    for _e in _f[3:]:
        _c, _rest = _e.split(':')
        _lab, _exc = _rest.split('/')
        _blk[int(_c)] = (_lab, _exc)

# n = 3,4,6,7,8,9: label string of tree 0 (index v = x+n*y, '.' = root); tree k = R^k tree 0
SMALL_ROT = {
    3: '.SSNNNNWE',
    4: '.NSNNNNENWWNNSEE',
    6: '.SSNSSNSNESWNNNNNNNNNWEENWWWENNSSSEE',
    7: '.SEEEEENNNNSWSWWWESWSWNSESWNWNNENWNWWWENWNESSSNWN',
    8: '.SNNNNNWSWWWWNEESWNESESWSWWESSWWSSSSSSWWSWWWSSSNSSSSEENWESEENWNS',
    9: '.SNEENNEEWNEEEEESSNNESNNSWSWWNEEESWSWWWWESWNSNWWWENWNWNWSEEENWWWWWWEEEENSSSEESSSN',
}
# n = 5: no rotation symmetry; depths 5,5,6,6 (D+1 = 5 is impossible for all four trees)
SMALL_N5 = [
    '.WSWNESWWENESWSNENWEENWWW',
    '.EEEEWWEESWSESNWWEENWENNN',
    '.NNNSSNNNNSWWEESSSSSSSSSS',
    '.SWSWNESSWENNNWENWNWNWEEE',
]


def centre(n, a):
    a %= n
    return a if a <= n // 2 else a - n


def in_domain(n, X, Y):
    m = n // 2
    if n % 2:
        return 1 <= X <= m and 0 <= Y <= m
    return (1 <= X <= m and 0 <= Y <= m - 1) or (X == m and Y == m)


def rinv(n, X, Y):
    """R^{-1}(X,Y) = (Y,-X), centred"""
    return centre(n, Y), centre(n, -X)


def table_entry(n, X, Y):
    m = n // 2
    def cls(a, lim):
        if a < lim:
            return str(a)
        if a > m - 2:
            return 'f%d' % (m - a)
        return 'm'
    xa, ya = cls(X, 3), cls(Y, 3)
    p = str(n % 2) if (xa[0] == 'f' or ya[0] == 'f') else '-'
    return TABLE[(xa, ya, p)][(X - Y) % 4]


def label_template(n, k, x, y):
    """(direction to parent, excess F) of node (x,y) in tree k, for n >= 10"""
    X, Y = centre(n, x), centre(n, y)
    for _ in range(k):                      # u = R^{-k} v
        X, Y = rinv(n, X, Y)
    j = 0
    while not in_domain(n, X, Y):            # u = R^j w
        X, Y = rinv(n, X, Y)
        j += 1
    t = (-j) % 4
    lab, exc = table_entry(n, X, Y)
    return (LET.index(lab[t]) + j + k) % 4, int(exc[t])


def label_small(n, k, x, y):
    if n == 5:
        return LET.index(SMALL_N5[k][x + n * y])
    X, Y = x, y
    for _ in range(k):                      # R^{-1}(x,y) = (y,-x)
        X, Y = Y % n, (-X) % n
    return (LET.index(SMALL_ROT[n][X + n * Y]) + k) % 4


def trees(n):
    """four parent arrays (index x+n*y), parent of root = root"""
    assert n >= 3
    T = []
    for k in range(4):
        P = [0] * (n * n)
        for y in range(n):
            for x in range(n):
                if x == 0 and y == 0:
                    continue
                d = label_template(n, k, x, y)[0] if n >= 10 else label_small(n, k, x, y)
                P[x + n * y] = (x + DX[d][0]) % n + n * ((y + DX[d][1]) % n)
        T.append(P)
    return T


def check(n, T):
    """assert: 4 spanning arborescences rooted at 0, torus arcs only, pairwise arc-disjoint,
    no link carries both of its arcs in the same tree.  Returns the list of depths."""
    N = n * n
    assert len(T) == 4
    nbrs = lambda v: {(v % n + dx) % n + n * ((v // n + dy) % n) for dx, dy in DX}
    used = {}
    depths = []
    for k, P in enumerate(T):
        assert len(P) == N and P[0] == 0, 'root must be its own parent'
        for v in range(1, N):
            assert P[v] in nbrs(v), 'tree %d: %d->%d is not a torus arc' % (k, P[v], v)
            arc = (P[v], v)
            assert arc not in used, 'arc %s used by trees %d and %d' % (arc, used[arc], k)
            used[arc] = k
            assert P[P[v]] != v or P[v] == 0, 'tree %d uses both arcs of link {%d,%d}' % (k, v, P[v])
        dep = [None] * N
        dep[0] = 0
        for v in range(1, N):
            path = []
            u = v
            while dep[u] is None:
                path.append(u)
                u = P[u]
                assert len(path) <= N, 'tree %d: cycle through %d' % (k, v)
            d = dep[u]
            for w in reversed(path):
                d += 1
                dep[w] = d
        depths.append(max(dep))
    assert len(used) == 4 * (N - 1)
    return depths


def prove(n):
    """local potential check used in the all-n proof (n >= 10): for tree 0,
    D(u) = dist(u) + F(u) satisfies D(parent) = D(u) - 1 and D(u) <= D+1, and
    the four trees use four different in-arcs at every node."""
    L = 2 * (n // 2) + 1
    dist = lambda x, y: abs(centre(n, x)) + abs(centre(n, y))
    for y in range(n):
        for x in range(n):
            if x == 0 and y == 0:
                continue
            ds = [label_template(n, k, x, y)[0] for k in range(4)]
            assert len(set(ds)) == 4
            d, F = label_template(n, 0, x, y)
            Du = dist(x, y) + F
            assert Du <= L
            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
            Dp = 0 if (ux, uy) == (0, 0) else dist(ux, uy) + label_template(n, 0, ux, uy)[1]
            assert Dp == Du - 1, (n, x, y)
    return True


def main():
    lo, hi = 3, 64
    if len(sys.argv) > 2:
        lo, hi = int(sys.argv[1]), int(sys.argv[2])
    out = []
    for n in range(lo, hi + 1):
        t0 = time.time()
        T = trees(n)
        dep = check(n, T)
        D = 2 * (n // 2)
        pr = prove(n) if n >= 10 else None
        rel = ','.join('D%+d' % (d - D) for d in dep)
        line = 'n=%2d D=%2d depths=%s (%s) max=D%+d %s%s  %.2fs' % (
            n, D, dep, rel, max(dep) - D, 'template' if n >= 10 else 'table',
            ' local-proof-ok' if pr else '', time.time() - t0)
        print(line, flush=True)
        out.append(line)
    return out


if __name__ == '__main__':
    main()
