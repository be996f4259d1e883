#!/bin/bash
#===- tests/mpi/run_plan_set_test.sh - mpi-cpp plan sets under mpirun -----===#
#
# run_plan_set_test.sh HARNESS_CC GEN_PLAN_SET
#
# For each test plan set (tests/mpi/TestPlanSets.h: torus, mesh,
# torus-placed; one per shard): generate the mpi-cpp file twice (the two
# must be byte-identical) and its mpi-header, compile them with
# plan_set_harness.cc (mpicxx -Wall -Wextra -Werror) and run it on 16 ranks:
# every rank must print ok (every byte of every broadcast, tag isolation,
# errors through the error handler; see plan_set_harness.cc), and stderr
# must hold exactly one misuse line (rank 0's, once per job).
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

HARNESS=$1
GEN=$2
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
MPI_TIMEOUT=${MPI_TIMEOUT:-600}
mpi_env "$WORK"
FUNC=bcastc_set_bcast

case "$HARNESS" in /*) ;; *) HARNESS=$PWD/$HARNESS ;; esac
case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
cd "$WORK" || exit 1

EDGES=$("$GEN" --edges) || exit 1
FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

i=0
for set in torus mesh torus-placed; do
  i=$((i + 1))
  mpi_shard_mine $((i - 1)) || continue
  mkdir -p "$set" && cd "$set" || exit 1
  if ! "$GEN" --set="$set" --function-name=$FUNC -o set.cc ||
    ! "$GEN" --set="$set" --function-name=$FUNC -o again.cc ||
    ! "$GEN" --set="$set" --emit=mpi-header --function-name=$FUNC \
      -o bcastc_set.h; then
    fail "$set: generation failed"
    cd .. && continue
  fi
  cmp -s set.cc again.cc || fail "$set: two generations differ"
  if ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$HARNESS" set.cc -o harness; then
    fail "$set: does not compile warning-free"
    cd .. && continue
  fi
  # shellcheck disable=SC2086
  out=$("${MPIRUN[@]}" -np 16 ./harness $EDGES 2>stderr.txt)
  rc=$?
  echo "$set: $(grep -c '^ok$' <<<"$out") of 16 ranks ok"
  if [ $rc -ne 0 ] || [ "$(grep -c '^ok$' <<<"$out")" -ne 16 ]; then
    fail "$set: mpirun exited with $rc"
    grep FAIL <<<"$out" | head -20
    head -20 stderr.txt
  fi
  lines=$(grep -c "^$FUNC: " stderr.txt)
  if [ "$lines" -ne 1 ]; then
    fail "$set: $lines misuse lines on stderr, expected rank 0's one"
    head -5 stderr.txt
  fi
  cd ..
done
echo "$FAILED failures"
[ $FAILED -eq 0 ]
