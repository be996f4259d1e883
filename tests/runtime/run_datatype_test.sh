#!/bin/bash
#===- tests/runtime/run_datatype_test.sh - Derived datatypes, both runtimes -===#
#
# run_datatype_test.sh BCASTC PMPI_SO PROGRAM_CC MAKE_PLAN_SET
#
# Runs datatype_program.cc (see there: 26 pairs of datatypes with one type
# signature, root and receivers passing different ones, every byte compared
# with PMPI_Bcast's) through both ways a plan runs:
#
#   emitted   `bcastc compile --emit=mpi-cpp` of two-tree on complete:8 in
#             12 chunks, root 3, linked in; 8 ranks;
#   pmpi      the unmodified program with libbcastc_pmpi.so preloaded and
#             a plan set (make_plan_set) of one `--emit=proto` plan, chain
#             on linear:11 in 12 chunks, serving root 10; 11 ranks. The
#             job's summary must say that no call fell back.
#
# mpicxx and mpirun as in tests/mpi/mpi_env.sh (oversubscribed, sanitizers
# of the Bazel build).
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

BCASTC=$1
PMPI=$2
PROGRAM=$3
MAKE_SET=$4
WORK=${TEST_TMPDIR:-$(mktemp -d)}
for V in BCASTC PMPI PROGRAM MAKE_SET; do
  case "${!V}" in /*) ;; *) printf -v "$V" '%s' "$PWD/${!V}" ;; esac
done
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
cd "$WORK" || exit 1

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

# summary NAME N: every rank compared every broadcast without a failure.
summary() {
  local name=$1 n=$2 clean
  grep "FAIL" "$name.out" | head -20
  clean=$(grep -c "broadcasts compared with PMPI_Bcast, 0 failures" "$name.out")
  echo "$name: $clean of $n ranks compared every broadcast without a wrong byte"
  [ "$clean" -eq "$n" ] || fail "$name: $clean ranks clean, want $n"
}

SECONDS=0
# (a) The emitted code.
if "$BCASTC" compile --topology=complete:8 --algorithm=two-tree --packets=12 \
  --root=3 --emit=mpi-cpp --function-name=bcastc_under_test -o emitted.cc \
  >emitted.report &&
  mpicxx "${MPI_CXXFLAGS[@]}" -DBCASTC_EMITTED "$PROGRAM" emitted.cc \
    -o emitted_program; then
  "${MPIRUN[@]}" -np 8 ./emitted_program 3 >emitted.out 2>emitted.err
  rc=$?
  [ $rc -eq 0 ] || { fail "emitted: mpirun exited with $rc"; head -20 emitted.err; }
  summary emitted 8
else
  fail "emitted: generation or compilation failed"
fi

# (b) libbcastc_pmpi.so under the unmodified program.
mkdir -p plans
if "$BCASTC" compile --topology=linear:11 --algorithm=chain --packets=12 \
  --root=10 --emit=proto -o chain.pb >pmpi.report &&
  "$MAKE_SET" plans/chain-set.pb chain-set none - 10:10:chain.pb &&
  mpicxx "${MPI_CXXFLAGS[@]}" "$PROGRAM" -o pmpi_program; then
  BCASTC_PLAN_DIR=$PWD/plans BCASTC_VERBOSE=1 "${MPIRUN[@]}" -np 11 \
    -x LD_PRELOAD="${ASAN_PRELOAD:+$ASAN_PRELOAD:}$PMPI" \
    -x BCASTC_PLAN_DIR -x BCASTC_VERBOSE \
    ./pmpi_program 10 >pmpi.out 2>pmpi.err
  rc=$?
  [ $rc -eq 0 ] || { fail "pmpi: mpirun exited with $rc"; head -20 pmpi.err; }
  summary pmpi 11
  served=$(grep -c "^bcastc: linear:11 set 'chain-set' .*; 0 calls fell back to PMPI_Bcast$" pmpi.err)
  [ "$served" -eq 1 ] ||
    fail "pmpi: no summary line saying that every call was served by the set"
else
  fail "pmpi: plan or compilation failed"
fi

echo "2 mpirun runs in ${SECONDS}s, $FAILED failures"
[ $FAILED -eq 0 ]
