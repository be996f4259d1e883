"""All-n proof check for a potential template: for every n in [a,b]:
 (1) per node, the 4 trees' in-arcs are distinct (arc-disjointness, local),
 (2) tree-0 potential D(u)=dist(u)+F(key(u)) satisfies D(parent(u)) = D(u)-1, D(u) <= L
     (so parent chains strictly decrease D: no cycles, depth(u)=D(u) <= L),
 (3) the set of local configurations (key(u), key(parent), delta-dist, slack class) is periodic
     with period 8 in n from some n1 on  => (1),(2) hold for all n >= a.
Trees k are R^k(tree 0), R an automorphism fixing the root, so tree k has the same depth."""
import sys, json
from tmpl2 import rep_k, DX, build_trees, verify, depth_of
from template import cen
from pot import mkkey
J = json.load(open(sys.argv[1]))
lab = {eval(k): v for k, v in J['lab']}; F = {eval(k): v for k, v in J['F']}
Ax, Ay, Bx, By, s = map(int, sys.argv[2:7]); a, b = int(sys.argv[7]), int(sys.argv[8])
key = mkkey(Ax, Ay, Bx, By, s)
conf = {}
allok = True
for n in range(a, b + 1):
    L = 2 * (n // 2) + 1
    dist = lambda x, y: abs(cen(n, x)) + abs(cen(n, y))
    C = set()
    for y in range(n):
        for x in range(n):
            if x == 0 and y == 0: continue
            dirs = []
            for k in range(4):
                w, j, t = rep_k(n, k, x, y)
                dirs.append((lab[key(n, w[0], w[1], t)] + j) % 4)
            if len(set(dirs)) != 4: print('not bijective', n, x, y); allok = False
            w, j, t = rep_k(n, 0, x, y); K = key(n, w[0], w[1], t)
            d = dirs[0]
            ux, uy = (x + DX[d][0]) % n, (y + DX[d][1]) % n
            Du = dist(x, y) + F[K]
            if Du > L: print('too deep', n, x, y); allok = False
            if ux == 0 and uy == 0:
                if Du != 1: print('root child bad', n, x, y); allok = False
                C.add((K, 'root', 0, min(L - Du, 3)))
                continue
            wp, jp, tp = rep_k(n, 0, ux, uy); Kp = key(n, wp[0], wp[1], tp)
            Dp = dist(ux, uy) + F[Kp]
            if Dp != Du - 1: print('potential broken', n, x, y, K, Kp); allok = False
            C.add((K, Kp, dist(ux, uy) - dist(x, y), min(L - Du, 3)))
    conf[n] = C
per = [n for n in range(a, b - 7) if conf[n] == conf[n + 8]]
n1 = min(n for n in range(a, b - 7) if all(conf[m] == conf[m + 8] for m in range(n, b - 7)))
print('n in [%d,%d]: all local checks ok=%s; configuration sets periodic (period 8) from n1=%d; #configs per n: %s'
      % (a, b, allok, n1, sorted({len(c) for c in conf.values()})))
# cross-check with a global BFS for a few n
for n in (a, a + 1, b - 1, b):
    par = build_trees(n, key, lab); print(n, 'global check depths', verify(n, par, 0))
