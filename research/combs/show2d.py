"""ASCII pictures of a 2-D comb-of-combs plan.
usage: python3 show2d.py mesh 12x12 ROOT [single|double] [t...]
Role map: R root, a / b class-0 / class-1 spine node, N spine end,
r relay, digit j = node of a row-segment comb in tooth T_j of the comb
below the root (lower-case letters: comb above the root)."""
import sys
import pipe, pipe2d

def show(kind, R, C, root):
    res = pipe2d.best2d(kind, (R, C), root)
    per, d, H, name = res[0]
    # rebuild to get roles
    if name[0] == 'double':
        _, vr, vc, td, tu = name
    else:
        _, vr, vc, td = name
        tu = None
    for (vr2, vc2, phys) in pipe2d._views(kind, R, C, *divmod(root, C)):
        if (vr2, vc2) != (vr, vc):
            continue
        plan = pipe2d.Plan(phys)
        try:
            if name[0] == 'single':
                pipe2d.build_comb2(plan, R, C, vr, vc, +1, list(td), 0, 0, None, True)
            elif name[0] == 'single+':
                pipe2d.build_comb2(plan, R, C, vr, vc, +1, list(td), 0, 0, None, True, extra=vr)
            else:
                plan.per = pipe2d.mesh_plan(R, C, vr, vc, phys, list(td), list(tu))
                plan.roles = pipe2d.LAST_ROLES
        except Exception:
            continue
        if plan.per == per or True:
            inv = {phys(vr, vc): 'R'}
            for (r, c), lab in plan.roles.items():
                if phys(r, c) != phys(vr, vc):
                    inv[phys(r, c)] = lab
            break
    print('%s %dx%d root %s  H=%d  %s' % (kind, R, C, divmod(root, C), H, name))
    print('roles:')
    for r in range(R):
        print('  ' + ' '.join(inv.get(r * C + c, '?') for c in range(C)))
    print('arrival step of class 0 (relative to its injection):')
    for r in range(R):
        print('  ' + ' '.join('%2s' % ('R' if r * C + c == root else d[r * C + c, 0]) for c in range(C)))

if __name__ == '__main__':
    kind = sys.argv[1]; R, C = map(int, sys.argv[2].split('x')); root = int(sys.argv[3])
    show(kind, R, C, root)
