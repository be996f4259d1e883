#!/bin/bash
#===- tests/recursion/run_cli_test.sh - --table and --np-d on the CLI -------===#
#
# run_cli_test.sh BCASTC
#
# `bcastc cost --table` prints Table 2 by simulation (rb at n = 5: alpha 15,
# beta 39/16; sc: 72, 1023/512; rb-allport: alpha 14; d-node: 7, 7; np-d
# d = 2: 12, 13/4); `--np-d` reaches the np lowerings (the plan name
# carries d) and bad values are usage errors (exit 2).
#
#===----------------------------------------------------------------------===#

set -u
BCASTC=$1
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

out=$("$BCASTC" cost --table --topology=mesh:32x32 --model="a=0.5 b=150" \
  --bytes=4KiB) || fail "cost --table exited with $?"
echo "$out" | grep -Eq '^5  rb +- +15  39/16 ' || fail "no rb row for n=5: $out"
echo "$out" | grep -Eq '^5  sc +- +72  1023/512 ' || fail "no sc row for n=5"
echo "$out" | grep -Eq '^3  np-sc +2 +11  19/8 ' || fail "no np-sc d=2 row for n=3"
# Section 8's RB under ports=all: alpha = 6 + 6 + 2 (AllPortRecursion.h).
echo "$out" | grep -Eq '^5  rb-allport +- +14  ' ||
  fail "no rb-allport row for n=5: $out"

# Section 8.3's baselines: d-node n + 2, n + 2; np-d d = 2 from the corner
# 2 + 5 + 2 + 3 start-ups (AllPortNetworkPartitioning.h).
echo "$out" | grep -Eq '^5  d-node +- +7  7 ' || fail "no d-node row for n=5"
echo "$out" | grep -Eq '^5  np-d +2 +12  13/4 ' || fail "no np-d d=2 row for n=5"
out=$("$BCASTC" cost --topology=mesh:16x16 --algorithm=np-d --np-d=3 \
  --model=ports=all 2>&1) || fail "np-d --np-d=3 exited with $?"
echo "$out" | grep -q "np-d-mesh-16x16-root0-d3" || fail "--np-d not applied: $out"
msg=$("$BCASTC" compile --topology=mesh:8x8 --algorithm=d-node 2>&1)
[ $? -eq 2 ] || fail "one-port d-node is not a usage error"
echo "$msg" | grep -q "d-node needs the all-port model (--model=ports=all" ||
  fail "unexpected d-node refusal: $msg"

out=$("$BCASTC" cost --topology=mesh:16x16 --algorithm=np-rd --np-d=2 2>&1) ||
  fail "np-rd --np-d=2 exited with $?"
echo "$out" | grep -q "np-rd-mesh-16x16-root0-d2" || fail "--np-d not applied: $out"

"$BCASTC" cost --topology=mesh:16x16 --algorithm=np-rd --np-d=-3 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--np-d=-3 is not a usage error"
msg=$("$BCASTC" cost --topology=mesh:16x16 --algorithm=np-sc --np-d=5 2>&1)
[ $? -eq 2 ] || fail "--np-d=5 on 16x16 is not a usage error"
echo "$msg" | grep -q "np-sc: --np-d=5 is out of range for mesh:16x16 (0..4)" ||
  fail "unexpected message: $msg"
msg=$("$BCASTC" cost --table --topology=mesh:6x6 2>&1)
[ $? -eq 2 ] || fail "--table on mesh:6x6 is not a usage error"
msg=$("$BCASTC" compile --topology=mesh:6x6 --algorithm=rb 2>&1)
echo "$msg" | grep -q "rb needs power-of-two sides; got mesh:6x6" ||
  fail "unexpected rb refusal: $msg"

echo "$FAILED failures"
[ $FAILED -eq 0 ]
