#!/usr/bin/env python3
#===- research/quarter_rounds/find_extended_domination.py ----------------===#
#
# Offline only (not built, not run by tests): how kExtended of
# DominatingNodes.cpp was found. V_j's 16 nodes in a 4 x 4 virtual block sit
# at levelPoint() positions; the four D-nodes (kPattern) must inform the
# other 12, three each, with no link shared by two dimension-order (XY)
# mesh routes. Sending each node to its virtual neighbour (kDominated) is
# contention-free only at j = 0. Prints how many assignments are
# contention-free at each level, how many at all of them, how many virtual
# neighbours the best keeps (6 of 12), and that kExtended, one of those, is
# among them. The C++ tests check the plans themselves.
#
#===----------------------------------------------------------------------===#
PATTERN = {(0, 0): (1, 0), (1, 0): (3, 1), (0, 1): (0, 2), (1, 1): (2, 3)}
D = list(PATTERN.values())
CELLS = [(x, y) for y in range(4) for x in range(4)]
OTHERS = [c for c in CELLS if c not in D]


def level_point(j, u, v):
    for _ in range(j):
        lx, ly = PATTERN[(u % 2, v % 2)]
        u, v = 4 * (u // 2) + lx, 4 * (v // 2) + ly
    return u, v


def route(a, b):
    (x1, y1), (x2, y2) = a, b
    links = []
    step = 1 if x2 > x1 else -1
    for x in range(x1, x2, step):
        links.append(((x, y1), (x + step, y1)))
    step = 1 if y2 > y1 else -1
    for y in range(y1, y2, step):
        links.append(((x2, y), (x2, y + step)))
    return links


def assignments(j):
    pos = {c: level_point(j, *c) for c in CELLS}
    found, used, count, chosen = [], set(), {d: 0 for d in D}, {}

    def place(i):
        if i == len(OTHERS):
            found.append(tuple(sorted(chosen.items())))
            return
        b = OTHERS[i]
        for a in D:
            r = route(pos[a], pos[b])
            if count[a] == 3 or any(l in used for l in r):
                continue
            used.update(r)
            count[a] += 1
            chosen[b] = a
            place(i + 1)
            used.difference_update(r)
            count[a] -= 1
            del chosen[b]

    place(0)
    return set(found)


levels = [assignments(j) for j in range(1, 8)]
print("per level:", [len(s) for s in levels])
common = set.intersection(*levels)
print("at every level 1..7:", len(common))


def neighbours(c):
    return sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for b, a in c)


# kExtended as (informed node, D-node) pairs.
K_EXTENDED = tuple(sorted({
    (1, 1): (1, 0), (1, 2): (1, 0), (2, 0): (1, 0),
    (0, 3): (3, 1), (3, 0): (3, 1), (3, 3): (3, 1),
    (0, 0): (0, 2), (0, 1): (0, 2), (3, 2): (0, 2),
    (1, 3): (2, 3), (2, 1): (2, 3), (2, 2): (2, 3),
}.items()))
print("most virtual neighbours kept:", max(neighbours(c) for c in common))
print("kExtended keeps", neighbours(K_EXTENDED), "and is contention-free at "
      "every level:", K_EXTENDED in common)
