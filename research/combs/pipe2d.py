"""2-D part of the reference implementation: comb of combs on meshes / tori.

Virtual coordinates (r, c) on an R x C grid; phys(r, c) gives the node id.
Root at (r0, c0) with c0 <= C-2.  Column c0 carries the class-0 spine (a_j),
column c0+1 the class-1 spine (b_j) of a vertical comb over rows ("level 2").
Every other node belongs to a row segment comb (rootless, |T_1| = 0, exits
next to the root column) or is a relay (r, c0).  The teeth of the level-2
comb are chains of such members.
"""
import pipe
from pipe import Comb, best_comb, comb_latency, PlanError, K

_comb_cache = {}


def default_g1(L):
    for g1 in range(0, L + 1):
        if seg_teeth(L, g1) is not None:
            return g1
    return None


def seg_teeth(L, g1=0):
    if g1 is None:
        g1 = default_g1(L)
    key = (L, g1)
    if key not in _comb_cache:
        try:
            _comb_cache[key] = best_comb(L, g1=g1)
        except ValueError:
            _comb_cache[key] = None
    return _comb_cache[key]


class Plan:
    def __init__(self, phys):
        self.per = {0: [], 1: []}
        self.phys = phys
        self.roles = {}
        self.tag = '?'

    def add(self, col, u, v, cls):
        self.per[col].append((self.phys(*u), self.phys(*v), cls))


# ---------------------------------------------------------------- members
# A stream is a list of (colour, node, class): the feeder sends `class` in
# `colour` from `node`.  Members consume a stream and return their exits.

def feed_relay(plan, x, stream, slow=False):
    plan.roles[x] = 'r'
    for (col, src, cls) in stream:
        plan.add(col, src, x, cls)
    if slow:
        return [(col, x, cls) for (col, src, cls) in stream]
    return [(1 - col, x, cls) for (col, src, cls) in stream]


def feed_seg(plan, xs, stream, g1=None):
    """segment comb on node list xs (pos 1 = xs[0] next to the root column)."""
    L = len(xs)
    if L == 0:
        return stream
    for x in xs:
        plan.roles[x] = plan.tag
    if g1 is None:
        g1 = default_g1(L)
    g = seg_teeth(L, g1)
    if g is None:
        raise PlanError('no comb for segment %d g1=%d' % (L, g1))
    want = {col: cls for (col, src, cls) in stream}
    src = {col: s for (col, s, cls) in stream}
    # which colour must feed pos-1 ?  prefer vertical alignment
    m = len(g) - 1
    options = []
    for colA in range(K):
        k0 = want[colA]
        if want[1 - colA] != 1 - k0:
            continue
        cb = Comb(xs, g, colA, k0)
        score = 0
        for (col, node, cls) in cb.entries():
            if src[col][1] == node[1]:
                score += 1
        options.append((score, cb))
    if not options:
        raise PlanError('bad stream')
    options.sort(key=lambda t: -t[0])
    cb = options[0][1]
    merge_edges(plan, cb.edges(None))
    for (col, node, cls) in cb.entries():
        plan.add(col, src[col], node, cls)
    return cb.exits()


def merge_edges(plan, per):
    for k in per:
        for (u, v, c) in per[k]:
            plan.add(k, u, v, c)


_flip_cache = {}


def seg_flips(L, g1=None):
    key = (L, g1)
    if key not in _flip_cache:
        _flip_cache[key] = _seg_flips(L, g1)
    return _flip_cache[key]


def _seg_flips(L, g1=None):
    if g1 is None:
        g1 = default_g1(L)
    g = seg_teeth(L, g1)
    if g is None:
        return None
    cb = Comb([(0, i) for i in range(L)], g, 0, 0)
    ent = {col: cls for (col, n, cls) in cb.entries()}
    ex = {col: cls for (col, n, cls) in cb.exits()}
    return ent != ex


def expand(members):
    """segments without a |T_1|=0 comb (lengths 2 and 5) become a relay
    followed by the rest of the segment."""
    out = []
    for (kind, x) in members:
        if kind == 'seg':
            L = x if isinstance(x, int) else len(x)
            if L > 0 and seg_teeth(L, 0) is None:
                if isinstance(x, int):
                    out.append(('relay', None))
                    out.append(('seg', L - 1))
                else:
                    out.append(('relay', x[0]))
                    out.append(('seg', x[1:]))
                continue
        out.append((kind, x))
    return out


def run_chain(plan, stream, members, need=None):
    members = expand(members)
    """members: list of ('relay', node) / ('seg', xs).  need: required final
    stream map {colour: class} (drain) or None.  Parity is fixed by turning the
    last relay slow (or the last segment into a |T_1|=1 comb)."""
    flips = 0
    for (kind, x) in members:
        if kind == 'relay':
            flips += 1
        elif len(x) > 0:
            flips += 1 if seg_flips(len(x)) else 0
    start = {col: cls for (col, s, cls) in stream}
    fix = None
    if need is not None:
        final_same = (flips % 2 == 0)
        ok = (start == need) if final_same else (start != need)
        if not ok:
            for i in range(len(members) - 1, -1, -1):
                kind, x = members[i]
                if kind == 'relay':
                    fix = (i, 'slow')
                    break
            if fix is None:
                for i in range(len(members) - 1, -1, -1):
                    kind, x = members[i]
                    if kind == 'seg' and len(x) > 0:
                        for g1 in range(0, 6):
                            f = seg_flips(len(x), g1)
                            if f is not None and f != seg_flips(len(x)):
                                fix = (i, g1)
                                break
                    if fix:
                        break
            if fix is None:
                raise PlanError('parity')
    for i, (kind, x) in enumerate(members):
        if kind == 'relay':
            stream = feed_relay(plan, x, stream, slow=(fix == (i, 'slow')))
        else:
            g1 = fix[1] if (fix is not None and fix[0] == i) else None
            stream = feed_seg(plan, x, stream, g1)
    return stream


# ---------------------------------------------------------------- level 2

def build_comb2(plan, R, C, r0, c0, sign, t, colA, k0, feed=None, rootrow=True, extra=0):
    """vertical comb on rows r0+sign*1 .. r0+sign*h (h = sum(t)+m+1) with
    spine pairs (a_j, b_j) = ((rho_j, c0), (rho_j, c0+1)); t = tooth row
    counts [t_1..t_{m+1}].  feed: stream replacing the root's two sends
    (list of (colour, node, class) going to a_1 / b_1) or None (root sends).
    rootrow: cover the root row's segments at the end of tooth T_1.
    Returns the exits of tooth T_1's chain (idle slots) when rootrow is False.
    """
    m = len(t) - 1
    A, B = colA, 1 - colA
    c0c, c1c = k0, 1 - k0

    def row(i):
        return r0 + sign * i

    def Lseg(i):
        return [(row(i), c) for c in range(c0 - 1, -1, -1)]

    def Rseg(i, start):
        return [(row(i), c) for c in range(start, C)]

    rho = []
    i = 0
    for j in range(m):
        i += t[j] + 1
        rho.append(i)
    h = i + t[m] + 1
    root = (r0, c0)
    a = [(row(p), c0) for p in rho]
    b = [(row(p), c0 + 1) for p in rho]
    N = (row(h), c0 + 1)
    # spines
    sa = a + [N]
    sb = b + [N]
    for x in a:
        plan.roles[x] = 'a'
    for x in b:
        plan.roles[x] = 'b'
    plan.roles[N] = 'N'
    plan.roles[root] = 'R' if feed is None else plan.roles.get(root, 'R')
    if feed is None:
        plan.add(A, root, sa[0], c0c)
        plan.add(B, root, sb[0], c1c)
    else:
        f = {col: (s, cls) for (col, s, cls) in feed}
        plan.add(A, f[A][0], sa[0], f[A][1])
        plan.add(B, f[B][0], sb[0], f[B][1])
        assert f[A][1] == c0c and f[B][1] == c1c
    for x in range(len(sa) - 1):
        plan.add(A, sa[x], sa[x + 1], c0c)
        plan.add(B, sb[x], sb[x + 1], c1c)

    def tooth_rows(lo, hi):
        """members for tooth rows lo..hi (local), walking towards the root."""
        mem = []
        for p in range(hi, lo - 1, -1):
            mem.append(('relay', (row(p), c0)))
            mem.append(('seg', Lseg(p)))
            mem.append(('seg', Rseg(p, c0 + 1)))
        return mem

    need = {A: c0c, B: c1c}
    exits_T1 = None
    for j in range(1, m + 2):
        plan.tag = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'[j % 36] if sign > 0 else 'abcdefghijklmnopqrstuvwxyz'[j % 26]
        if j <= m:
            p = rho[j - 1]
            stream = [(B, a[j - 1], c0c), (A, b[j - 1], c1c)]
            mem = [('seg', Rseg(p, c0 + 2)), ('seg', Lseg(p))]
            lo = rho[j - 2] + 1 if j >= 2 else 1
            mem += tooth_rows(lo, p - 1)
        else:
            p = h
            stream = [(B, N, c0c), (A, N, c1c)]
            mem = [('seg', Rseg(p, c0 + 2)), ('relay', (row(p), c0)), ('seg', Lseg(p))]
            lo = rho[m - 1] + 1 if m >= 1 else 1
            mem += tooth_rows(lo, p - 1)
        if j == 1 or (j == m + 1 and m == 0):
            # tooth T_1: no drain; optionally the root row at the end
            if rootrow:
                if lo <= p - 1 or j == m + 1:
                    mem += [('seg', Rseg(0, c0 + 1)), ('seg', Lseg(0))]
                else:
                    # no tooth rows: R'(p) -> R(0) -> L(0) -> L(p)
                    mem = [('seg', Rseg(p, c0 + 2)), ('seg', Rseg(0, c0 + 1)),
                           ('seg', Lseg(0)), ('seg', Lseg(p))]
                for q in range(1, extra + 1):     # rows beyond the root
                    mem += [('relay', (row(-q), c0)), ('seg', Lseg(-q)), ('seg', Rseg(-q, c0 + 1))]
            exits_T1 = run_chain(plan, stream, mem, None)
            continue
        fin = run_chain(plan, stream, mem, need)
        # drain into b_{j-1} (A) and a_{j-1} (B)
        f = {col: (s, cls) for (col, s, cls) in fin}
        plan.add(A, f[A][0], b[j - 2], f[A][1])
        plan.add(B, f[B][0], a[j - 2], f[B][1])
        assert f[A][1] == c0c and f[B][1] == c1c
    return exits_T1


LAST_ROLES = {}


def mesh_plan(R, C, r0, c0, phys, tdown, tup=None):
    """tdown: tooth rows of the comb below the root (rows r0+1..R-1);
    tup: comb above the root (rows r0-1..0) or None (then r0 must be 0)."""
    plan = Plan(phys)
    if tup is None:
        build_comb2(plan, R, C, r0, c0, +1, tdown, 0, 0, None, True)
        return plan.per
    # down comb: T_1 = its first pair's row only; its chain exits feed the up comb
    ex = build_comb2(plan, R, C, r0, c0, +1, tdown, 0, 0, None, False)
    want = {col: cls for (col, s, cls) in ex}
    # up comb's a'_1 must be fed in the colour whose route to column c0+1
    # ... let both conventions be tried by the caller; here: a' in colour B
    for colA in (1, 0):
        k0 = want[colA]
        feed = [(col, s, cls) for (col, s, cls) in ex]
        try:
            sub = Plan(phys)
            build_comb2(sub, R, C, r0, c0, -1, tup, colA, k0, feed, True)
        except (PlanError, AssertionError):
            continue
        for k in sub.per:
            plan.per[k] += sub.per[k]
        for x, lab in sub.roles.items():
            if x not in plan.roles or plan.roles[x] in ('?',):
                plan.roles[x] = lab
        global LAST_ROLES
        LAST_ROLES = plan.roles
        return plan.per
    raise PlanError('up comb')


def rows_needed(t):
    return sum(t) + (len(t) - 1) + 1


def tooth_configs(h, maxm=None, first_zero=False):
    """candidate tooth-row vectors t (sum(t)+m+1 == h)."""
    out = set()
    if h <= 0:
        return []
    for m in range(0, (h + 1) // 1):
        if maxm is not None and m > maxm:
            break
        rest = h - m - 1
        if rest < 0:
            break
        # decreasing profiles: t_j ~ x - s*j
        for s in (0, 1, 2, 3):
            for x0 in range(0, rest + 1):
                t = []
                for j in range(m + 1):
                    t.append(max(0, x0 - s * j))
                if first_zero:
                    t[0] = 0
                tot = sum(t)
                # adjust to rest: add/remove from the front teeth
                k = 0
                guard = 0
                while tot != rest and guard < 10000:
                    guard += 1
                    idx = k % (m + 1)
                    if first_zero and idx == 0 and m >= 1:
                        k += 1
                        continue
                    if tot < rest:
                        t[idx] += 1
                        tot += 1
                    elif t[idx] > 0:
                        t[idx] -= 1
                        tot -= 1
                    k += 1
                if tot == rest:
                    out.add(tuple(t))
    return [list(t) for t in out]


def _views(kind, R, C, r0, c0):
    views = []
    if kind == 'mesh':
        for fr in (False, True):
            for fc in (False, True):
                vr = R - 1 - r0 if fr else r0
                vc = C - 1 - c0 if fc else c0
                if vc > C - 2:
                    continue
                views.append((vr, vc, fr, fc, None))
    else:
        for vr in sorted({R // 2, (R - 1) // 2}):
            for vc in sorted({C // 2, (C - 1) // 2, (C - 2) // 2}):
                if vc > C - 2 or vc < 0:
                    continue
                views.append((vr, vc, False, False, (r0, c0)))
    out = []
    for (vr, vc, fr, fc, shift) in views:
        def phys(r, c, vr=vr, vc=vc, fr=fr, fc=fc, shift=shift):
            if shift is not None:
                return ((r - vr + shift[0]) % R) * C + (c - vc + shift[1]) % C
            return (R - 1 - r if fr else r) * C + (C - 1 - c if fc else c)
        out.append((vr, vc, phys))
        # rows mirrored inside the view (the first comb goes the other way)
        def phys_m(r, c, p=phys):
            return p(R - 1 - r, c)
        out.append((R - 1 - vr, vc, phys_m))
    return out


def evaluate_partial(per, root_id):
    """latency over the nodes the plan covers (used to pick the first comb)."""
    nodes = set()
    for k in per:
        for (u, v, c) in per[k]:
            nodes.add(v)
    n = max(max(nodes), root_id) + 1
    inedge = [dict() for _ in range(K)]
    for k in per:
        for (u, v, c) in per[k]:
            if v in inedge[k]:
                raise PlanError('double')
            inedge[k][v] = (u, c)
    src = {}
    for v in nodes:
        got = []
        for k in range(K):
            if v not in inedge[k]:
                raise PlanError('idle')
            u, c = inedge[k][v]
            got.append(c)
            src[v, c] = (u, k)
        if sorted(got) != [0, 1]:
            raise PlanError('classes')
    d = {}

    def arr(v, c, depth=0):
        if v == root_id:
            return c - 1
        if (v, c) in d:
            return d[v, c]
        if depth > 5000 or (v, c) not in src:
            raise PlanError('cycle/uncovered')
        u, k = src[v, c]
        ready = arr(u, c, depth + 1) + 1
        t = ready + ((k - ready) % K)
        d[v, c] = t
        return t
    H = 0
    for v in nodes:
        for c in range(K):
            H = max(H, arr(v, c) - c + 1)
    return H


def best2d(kind, dims, root, verbose=False, ncand=3):
    R, C = dims
    n = R * C
    r0, c0 = divmod(root, C)
    results = []
    if R == 1 or C == 1:
        return results
    for (vr, vc, phys) in _views(kind, R, C, r0, c0):
        hd, hu = R - 1 - vr, vr
        rootid = phys(vr, vc)
        if hu == 0:
            for Hm, t in model_search(hd, C, vc)[:ncand]:
                try:
                    plan = Plan(phys)
                    build_comb2(plan, R, C, vr, vc, +1, t, 0, 0, None, True)
                    d, H = pipe.evaluate(plan.per, rootid, n)
                except (PlanError, AssertionError, RecursionError) as e:
                    if verbose:
                        print('fail', vr, vc, t, repr(e))
                    continue
                results.append((H, ('single', vr, vc, tuple(t)), plan.per, d))
        if hu > 0 and hd > 0:
            # one comb below the root; its tooth T_1 continues above the root
            for Hm, t in model_search(hd, C, vc, extra=hu)[:ncand]:
                try:
                    plan = Plan(phys)
                    build_comb2(plan, R, C, vr, vc, +1, t, 0, 0, None, True, extra=hu)
                    d, H = pipe.evaluate(plan.per, rootid, n)
                except (PlanError, AssertionError, RecursionError) as e:
                    if verbose:
                        print('fail', vr, vc, t, repr(e))
                    continue
                results.append((H, ('single+', vr, vc, tuple(t)), plan.per, d))
        if hu > 0 and hd >= 2:
            downs = model_search(hd, C, vc, rootrow=False, first_zero=True)[:ncand]
            off = chain_model(1, tooth_members(C, vc, 0, 'pairrow'))[1]
            ups = model_search(hu, C, vc, rootrow=True, offset=off)[:ncand]
            for Hd, td in downs:
                for Hu, tu in ups:
                    try:
                        per = mesh_plan(R, C, vr, vc, phys, td, tu)
                        d, H = pipe.evaluate(per, rootid, n)
                    except (PlanError, AssertionError, RecursionError) as e:
                        if verbose:
                            print('fail', vr, vc, td, tu, repr(e))
                        continue
                    results.append((H, ('double', vr, vc, tuple(td), tuple(tu)), per, d))
    results.sort(key=lambda x: x[0])
    out = []
    for H, name, per, d in results:
        try:
            pipe.check_periodic(kind, dims, per)
        except AssertionError as e:
            if verbose:
                print('reject', name, H, e)
            continue
        out.append((per, d, H, name))
        break
    return out


# ---------------------------------------------------------------- latency model

_lat_cache = {}


def seg_lat(L, g1=None):
    if (L, g1) not in _lat_cache:
        _lat_cache[L, g1] = _seg_lat(L, g1)
    return _lat_cache[L, g1]


def _seg_lat(L, g1=None):
    if L <= 0:
        return 0
    g = seg_teeth(L, g1)
    if g is None:
        return None
    return comb_latency(g)


def chain_model(start, members, need_parity=None):
    """members: list of ('relay', None) / ('seg', L).  Returns (latest arrival
    offset inside the chain, arrival offset of the chain's output)."""
    members = expand(members)
    flips = 0
    for kind, L in members:
        if kind == 'relay':
            flips += 1
        elif L > 0:
            flips += 1 if seg_flips(L) else 0
    slow_at = None
    if need_parity is not None and (flips % 2) != need_parity:
        for i in range(len(members) - 1, -1, -1):
            if members[i][0] == 'relay':
                slow_at = i
                break
        if slow_at is None:
            slow_at = len(members) - 1  # approx: a slower segment at the end
    s = start
    worst = start - 1
    for i, (kind, L) in enumerate(members):
        if kind == 'relay':
            worst = max(worst, s)
            s += 2 if slow_at == i else 1
        elif L > 0:
            lat = seg_lat(L)
            worst = max(worst, s + lat - 1)
            s += 2 if slow_at == i else 1
    return worst, s


def geometry(C, c0):
    return c0, C - 1 - c0, C - 2 - c0          # |L|, |R|, |R'|


def tooth_members(C, c0, t, kind, extra=0):
    Ll, Lr, Lr2 = geometry(C, c0)
    row = [('relay', None), ('seg', Ll), ('seg', Lr)]
    if kind == 'mid':
        return [('seg', Lr2), ('seg', Ll)] + row * t
    if kind == 'last':
        return [('seg', Lr2), ('relay', None), ('seg', Ll)] + row * t
    if kind == 'first':          # with the root row at the end
        if t > 0:
            return [('seg', Lr2), ('seg', Ll)] + row * t + [('seg', Lr), ('seg', Ll)] + row * extra
        return [('seg', Lr2), ('seg', Lr), ('seg', Ll), ('seg', Ll)] + row * extra
    if kind == 'first0':         # m == 0: N feeds everything incl. root row
        return [('seg', Lr2), ('relay', None), ('seg', Ll)] + row * t + [('seg', Lr), ('seg', Ll)] + row * extra
    if kind == 'pairrow':        # T_1 of the first comb of a two-comb plan
        return [('seg', Lr2), ('seg', Ll)]
    raise ValueError(kind)


def comb_model(C, c0, t, rootrow=True, offset=0, extra=0):
    """model latency (max arrival offset + 1) of a level-2 comb."""
    m = len(t) - 1
    worst = offset - 1
    if m == 0:
        w, _ = chain_model(offset + 1, tooth_members(C, c0, t[0], 'first0', extra))
        return max(w, offset) + 1
    worst = max(worst, offset + 2 * m)     # N
    for j in range(1, m + 2):
        start = offset + 2 * (j - 1) + 1
        if j == 1:
            k = 'first' if rootrow else 'pairrow'
            w, s = chain_model(start, tooth_members(C, c0, t[0], k, extra))
            worst = max(worst, w)
            continue
        k = 'mid' if j <= m else 'last'
        mem = tooth_members(C, c0, t[j - 1], k)
        w, s = chain_model(start, mem, need_parity=1)
        worst = max(worst, w, s)           # s: arrival at the drained pair
    return worst + 1


def model_search(h, C, c0, rootrow=True, first_zero=False, offset=0, maxH=400, extra=0):
    """tooth-row vectors with small model latency (a few per m)."""
    out = []
    if h <= 0:
        return out
    for m in range(0, h):
        if m + 1 > h:
            break
        if first_zero and m == 0:
            continue
        for H in range(1, maxH):
            # greedy maxima per tooth
            tmax = []
            ok = True
            for j in range(1, m + 2):
                best = -1
                for tj in range(0, h + 1):
                    if first_zero and j == 1 and tj > 0:
                        break
                    t = [0] * (m + 1)
                    t[j - 1] = tj
                    # evaluate only tooth j: use comb_model on a vector with
                    # zeros elsewhere (other teeth contribute little)
                    if comb_model(C, c0, t, rootrow, offset, extra) <= H:
                        best = tj
                    else:
                        break
                if best < 0:
                    ok = False
                    break
                tmax.append(best)
            if not ok:
                continue
            if sum(tmax) + m + 1 < h:
                continue
            need1 = (c0 >= 1 and m >= 2)     # drain of T_m must not start in row rho_m
            if first_zero and m < 2 and c0 >= 1:
                break
            if need1 and tmax[m - 1] < 1:
                continue
            # distribute h - m - 1 rows, keeping each <= tmax (fill from the end)
            for order in (range(m + 1), range(m, -1, -1)):
                rest = h - m - 1
                t = [0] * (m + 1)
                if need1:
                    t[m - 1] = 1
                    rest -= 1
                if rest < 0:
                    continue
                for j in order:
                    add = min(tmax[j] - t[j], rest)
                    t[j] += add
                    rest -= add
                if rest == 0:
                    out.append((comb_model(C, c0, t, rootrow, offset, extra), t))
            break
    out.sort(key=lambda x: x[0])
    return out
