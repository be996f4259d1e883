#!/bin/bash
#===- tests/mpi/run_plan_set_test.sh - mpi-cpp plan sets under mpirun -----===#
#
# run_plan_set_test.sh HARNESS_CC GEN_PLAN_SET BCASTC PLACEMENT
#
# Twelve cases, one per shard: the plan sets torus (torus:4x4), mesh
# (mesh:4x4) and torus-placed (torus:4x4, ranks placed by PLACEMENT), each
# for roots 0..3, 4..7, 8..11 and 12..15. A case builds its set with the real
# CLI, `bcastc compile --bytes=8B..16MiB --root=all --emit=proto` (one
# build: gen_plan_set writes both the mpi-cpp file and its mpi-header from
# the set file, and --edges each root rank's band edges in it), checks a
# placed set verifies on the placed ids (`bcastc verify`), compiles the file
# with plan_set_harness.cc (mpicxx -Wall -Wextra -Werror) and runs it on 16
# ranks for its roots: every rank must print ok (every byte of every
# broadcast at each band edge +- 1 of the root's class, tag isolation,
# errors through the error handler; see plan_set_harness.cc), and stderr
# must hold exactly one misuse line (rank 0's, once per job).
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

HARNESS=$1
GEN=$2
BCASTC=$3
PLACEMENT=$4
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
MPI_TIMEOUT=${MPI_TIMEOUT:-600}
mpi_env "$WORK"
FUNC=bcastc_set_bcast

case "$HARNESS" in /*) ;; *) HARNESS=$PWD/$HARNESS ;; esac
case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
case "$BCASTC" in /*) ;; *) BCASTC=$PWD/$BCASTC ;; esac
case "$PLACEMENT" in /*) ;; *) PLACEMENT=$PWD/$PLACEMENT ;; esac
cd "$WORK" || exit 1

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

i=0
for set in torus mesh torus-placed; do
  for roots in "0 1 2 3" "4 5 6 7" "8 9 10 11" "12 13 14 15"; do
    i=$((i + 1))
    mpi_shard_mine $((i - 1)) || continue
    case $set in
    torus) compile=(--topology=torus:4x4) ;;
    mesh) compile=(--topology=mesh:4x4) ;;
    torus-placed) compile=(--topology=torus:4x4 "--placement=$PLACEMENT") ;;
    esac
    echo "$set, roots $roots"
    mkdir -p "$set" && cd "$set" || exit 1
    start=$SECONDS
    if ! "$BCASTC" compile "${compile[@]}" --bytes=8B..16MiB --root=all \
      --emit=proto -o set.pb >compile.txt 2>&1; then
      fail "$set: bcastc compile failed"
      head -20 compile.txt
      cd .. && continue
    fi
    echo "$set: compiled in $((SECONDS - start)) s"
    "$BCASTC" verify set.pb >verify.txt 2>&1 ||
      fail "$set: the set does not verify: $(head -3 verify.txt)"
    if ! "$GEN" set.pb --function-name=$FUNC -o set.cc ||
      ! "$GEN" set.pb --emit=mpi-header --function-name=$FUNC \
        -o bcastc_set.h || ! "$GEN" set.pb --edges >edges.txt; then
      fail "$set: gen_plan_set failed"
      cd .. && continue
    fi
    echo "$set: $(($(wc -w <edges.txt) - 16)) band edges over 16 roots"
    if ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$HARNESS" set.cc -o harness; then
      fail "$set: does not compile warning-free"
      cd .. && continue
    fi
    # shellcheck disable=SC2086
    start=$SECONDS
    out=$("${MPIRUN[@]}" -np 16 ./harness edges.txt $roots 2>stderr.txt)
    rc=$?
    echo "$set: $(grep -c '^ok$' <<<"$out") of 16 ranks ok in $((SECONDS - start)) s"
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
done
echo "$FAILED failures"
[ $FAILED -eq 0 ]
