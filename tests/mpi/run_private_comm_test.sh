#!/bin/bash
#===- tests/mpi/run_private_comm_test.sh - Single plans as MPI citizens ---===#
#
# run_private_comm_test.sh SET_HARNESS_CC ERRHANDLER_HARNESS_CC GEN_PLAN BCASTC
#
# A single plan's mpi-cpp function behaves as MPI's own collectives do
# towards the application (the plan-set form's tests, run_plan_set_test.sh,
# check the same of sets):
#
#   - tag isolation, with the plan-set test's program (plan_set_harness.cc)
#     linked with one broadcast plan's file of the same name and header:
#     `bcastc compile --topology=torus:4x4 --root=3` on 16 ranks, counts
#     {0, 1, 7, 1 MiB + 3} in MPI_BYTE and MPI_DOUBLE, 16 MiB and a strided
#     type, every byte, while an MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) is
#     pending on the same communicator: it must match none of the plan's
#     messages; then the harness's misuse (an 8-rank communicator on even
#     ranks, root 16 on odd ones) returns its errors under MPI_ERRORS_RETURN
#     and each process prints its first misuse once (16 lines);
#   - errors and the private duplicate, errhandler_harness.cc, for each
#     collective (gen_plan's hand-built 4-rank broadcast, multibroadcast,
#     allgather and allreduce) on 8 ranks: a user error handler runs
#     exactly once per failed call with the code returned, and the private
#     duplicates are made once per communicator and freed with it.
#
# Everything compiles with mpicxx -Wall -Wextra -Werror (mpi_env.sh) and
# -Wpedantic -Wshadow -Wconversion.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
SET_HARNESS=$(abs "$1")
ERR_HARNESS=$(abs "$2")
GEN_PLAN=$(abs "$3")
BCASTC=$(abs "$4")
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
MPI_TIMEOUT=${MPI_TIMEOUT:-300}
mpi_env "$WORK"
MPI_CXXFLAGS+=(-Wpedantic -Wshadow -Wconversion)
cd "$WORK" || exit 1

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

# Tag isolation: one broadcast plan in the plan-set harness.
FUNC=bcastc_set_bcast
if ! "$BCASTC" compile --topology=torus:4x4 --root=3 --bytes=1MiB \
  --emit=mpi-cpp --function-name=$FUNC -o plan.cc >compile.txt 2>&1 ||
  ! "$BCASTC" compile --topology=torus:4x4 --root=3 --bytes=1MiB \
    --emit=mpi-header --function-name=$FUNC -o bcastc_set.h \
    >>compile.txt 2>&1; then
  fail "bcastc compile failed: $(tail -3 compile.txt)"
elif ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$SET_HARNESS" plan.cc -o isolation; then
  fail "the single plan with plan_set_harness.cc does not compile warning-free"
else
  echo 3 >edges.txt # root 3's line, no band edges: a plan has none
  out=$("${MPIRUN[@]}" -np 16 ./isolation edges.txt 3 2>isolation.err)
  rc=$?
  echo "isolation: $(grep -c '^ok$' <<<"$out") of 16 ranks ok"
  if [ $rc -ne 0 ] || [ "$(grep -c '^ok$' <<<"$out")" -ne 16 ]; then
    fail "isolation: mpirun exited with $rc"
    grep FAIL <<<"$out" | head -20
    head -5 isolation.err
  fi
  comm=$(grep -c "^$FUNC: the communicator has 8 ranks" isolation.err)
  root=$(grep -c "^$FUNC: called with root 16" isolation.err)
  lines=$(grep -c "^$FUNC: " isolation.err)
  [ "$comm" -eq 8 ] && [ "$root" -eq 8 ] && [ "$lines" -eq 16 ] ||
    fail "isolation: misuse lines: $comm size, $root root, $lines in all;" \
      "want 8, 8, 16"
fi

# Errors through a user handler; the private duplicates' lifetime.
for spec in "BROADCAST --plan=st --root=0" \
  "MULTIBROADCAST --plan=multibcast --roots=0,3" \
  "ALLGATHER --plan=allgather-rd" "ALLREDUCE --plan=allreduce-rd"; do
  # shellcheck disable=SC2086
  set -- $spec
  kind=$1
  shift
  if ! "$GEN_PLAN" "$@" --nodes=4 --function-name=bcastc_under_test \
    -o "$kind.cc"; then
    fail "$kind: gen_plan failed"
    continue
  fi
  if ! mpicxx "${MPI_CXXFLAGS[@]}" "-DHARNESS_$kind" "$ERR_HARNESS" "$kind.cc" \
    -o "$kind"; then
    fail "$kind: does not compile warning-free"
    continue
  fi
  out=$("${MPIRUN[@]}" -np 8 "./$kind" 2>"$kind.err")
  rc=$?
  echo "$kind: $out"
  if [ $rc -ne 0 ] || ! grep -q '^PASS' <<<"$out"; then
    fail "$kind: mpirun exited with $rc"
    head -5 "$kind.err"
  fi
done

echo "$FAILED failures"
[ $FAILED -eq 0 ]
