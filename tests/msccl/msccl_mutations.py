#!/usr/bin/env python3
"""tests/msccl/msccl_mutations.py BCASTC FILE.xml...

Each real MSCCL file verifies (exit 0); then, for each file, one mutation of
each kind must give exit 1 (2 for a missing attribute) and its diagnostic at
FILE:LINE, the line being the mutated step or the other op it names.
"""
import os, re, subprocess, sys, tempfile

BCASTC = sys.argv[1]
SWAPPED = []  # files where a swapped dependency was found
WORK = os.environ.get("TEST_TMPDIR") or tempfile.mkdtemp()
failures = 0


def verify(path):
    p = subprocess.run([BCASTC, "verify", path], capture_output=True, text=True)
    return p.returncode, p.stderr + p.stdout


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def steps(lines):
    """(index, gpu, tb, tb_send, tb_recv) of each <step> line."""
    out, gpu, tb = [], None, None
    for i, l in enumerate(lines):
        if "<gpu " in l:
            gpu = int(re.search(r' id="(\d+)"', l).group(1))
        elif "<tb " in l:
            tb = (int(re.search(r' id="(\d+)"', l).group(1)),
                  int(re.search(r' send="(-?\d+)"', l).group(1)),
                  int(re.search(r' recv="(-?\d+)"', l).group(1)))
        elif "<step " in l:
            out.append((i, gpu) + tb)
    return out


def attr(l, k):
    return re.search(r'\b' + k + r'="([^"]*)"', l).group(1)


def setattr_(l, k, v):
    return re.sub(r'\b' + k + r'="[^"]*"', k + '="' + v + '"', l, count=1)


def run(name, lines, mutated_line, want_rc, pattern, kind):
    path = os.path.join(WORK, kind + "-" + name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    rc, out = verify(path)
    if rc != want_rc:
        return fail(f"{name} {kind}: exit {rc}, want {want_rc}\n{out[:600]}")
    diags = re.findall(re.escape(path) + r":(\d+): error: (.*)", out)
    ok = any(re.search(pattern, m) and
             (mutated_line is None or int(ln) == mutated_line or
              f"(line {mutated_line})" in m)
             for ln, m in diags)
    if not ok:
        fail(f"{name} {kind}: no '{pattern}' at line {mutated_line}\n{out[:800]}")


RECV = ("r", "rcs", "rrc", "rrcs", "rrs")
for src in sys.argv[2:]:
    name = os.path.basename(src)
    rc, out = verify(src)
    if rc != 0:
        fail(f"{name} does not verify:\n{out[:800]}")
        continue
    L = open(src).read().split("\n")
    S = steps(L)
    # 1. A receive dropped (made a nop): its send is unmatched.
    i = next(x[0] for x in S if attr(L[x[0]], "type") in RECV)
    M = list(L); M[i] = setattr_(M[i], "type", "nop")
    run(name, M, None, 1, r"send without a matching receive", "recv-dropped")
    # 2. A dependency dropped: the first site where the file relied on it
    #    reports a race or an early read at the step.
    found = False
    for x in [x for x in S if attr(L[x[0]], "depid") != "-1"][:12]:
        M = list(L)
        M[x[0]] = setattr_(setattr_(M[x[0]], "depid", "-1"), "deps", "-1")
        path = os.path.join(WORK, "dep-" + name)
        open(path, "w").write("\n".join(M) + "\n")
        rc, out = verify(path)
        if rc == 0:
            continue
        found = True
        # A nop's dependency holds the steps after it: the finding names
        # the mutated threadblock.
        run(name, M, None, 1, rf"(race|before any data).*gpu {x[1]} tb {x[2]} step",
            "dep-dropped")
        break
    if not found and any(attr(L[x[0]], "depid") != "-1" for x in S):
        fail(f"{name}: no dropped dependency was found")
    # 2b. A dependency swapped for an earlier step of the same threadblock
    #     (it waits for the wrong step): the first site where that matters.
    sites = [x for x in S if int(attr(L[x[0]], "deps")) > 0][:12]
    for x in sites:
        M = list(L)
        deps = int(attr(M[x[0]], "deps"))
        M[x[0]] = setattr_(M[x[0]], "deps", str(deps - 1))
        # The step now waited on must signal.
        d = int(attr(M[x[0]], "depid"))
        t = next(y for y in S if y[1] == x[1] and y[2] == d and
                 int(attr(L[y[0]], "s")) == deps - 1)
        M[t[0]] = setattr_(M[t[0]], "hasdep", "1")
        path = os.path.join(WORK, "swap-" + name)
        open(path, "w").write("\n".join(M) + "\n")
        rc, out = verify(path)
        if rc == 0:
            continue
        run(name, M, None, 1, rf"(race|before any data).*gpu {x[1]} tb {x[2]} step",
            "dep-swapped")
        SWAPPED.append(name)
        break
    # 3. A wrong chunk: a plain receive writes the next slot (or the previous).
    for x in S:
        l = L[x[0]]
        if attr(l, "type") in ("r", "rcs") and attr(l, "cnt") == "1":
            off = int(attr(l, "dstoff"))
            M = list(L); M[x[0]] = setattr_(l, "dstoff", str(off + 1 if off == 0 else off - 1))
            run(name, M, x[0] + 1, 1, r"ends with|race|reduces chunk|counts gpu", "wrong-chunk")
            break
    # 4. An extra send at the end of the first threadblock that sends.
    x = next(x for x in S if attr(L[x[0]], "type") == "s")
    end = x[0]
    while "</tb>" not in L[end]:
        end += 1
    n = end - 1 - next(j for j in range(x[0], -1, -1) if "<tb " in L[j])
    extra = setattr_(setattr_(setattr_(L[x[0]], "s", str(n)), "depid", "-1"), "deps", "-1")
    M = L[:end] + [setattr_(extra, "hasdep", "0")] + L[end:]
    run(name, M, end + 1, 1, r"send without a matching receive", "extra-send")
    # 5. A dependency cycle between the first steps of gpu 0's tb 0 and tb 1.
    a = next(x[0] for x in S if x[1] == 0 and x[2] == 0)
    b = next(x[0] for x in S if x[1] == 0 and x[2] == 1)
    M = list(L)
    M[a] = setattr_(setattr_(setattr_(M[a], "depid", "1"), "deps", "0"), "hasdep", "1")
    M[b] = setattr_(setattr_(setattr_(M[b], "depid", "0"), "deps", "0"), "hasdep", "1")
    run(name, M, a + 1, 1, r"dependency cycle on gpu 0: tb 0 step 0", "dep-cycle")
    # 6. A missing attribute: malformed input, exit 2.
    M = list(L); M[S[0][0]] = re.sub(r' cnt="\d+"', "", M[S[0][0]])
    path = os.path.join(WORK, "attr-" + name)
    open(path, "w").write("\n".join(M) + "\n")
    rc, out = verify(path)
    want = f"{path}:{S[0][0] + 1}: error: <step> lacks attribute cnt"
    if rc != 2 or want not in out:
        fail(f"{name} missing-attr: exit {rc}\n{out[:400]}")

print(f"dependency swapped found in {len(SWAPPED)} files: {' '.join(SWAPPED)}")
print(f"{failures} failures")
sys.exit(1 if failures else 0)
