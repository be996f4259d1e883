#!/bin/bash
#===- tests/mpi/run_plan_set_compile_test.sh - Plan-set files compile -----===#
#
# run_plan_set_compile_test.sh GEN_PLAN_SET RELABEL_CHECK_CC BCASTC PLACEMENT
#
# The fast check of the plan-set form, on sets `bcastc compile --root=all
# --bytes=8B..1MiB --emit=proto` builds for torus:4x4, mesh:4x4 and
# torus:4x4 placed by PLACEMENT: each set's mpi-cpp file (gen_plan_set)
# compiles with mpicxx -Wall -Wextra -Werror (and the sanitizer flags of
# the build, mpi_env.sh), and its mpi-header compiles as C and as C++; its
# dispatch and relabelling at each root's band edges (relabel_check.cc, no
# MPI calls, no mpirun) print exactly what PlanSet::select and NodeRelabelling::map give
# (gen_plan_set --relabelling). mpi_plan_set_test runs the files.
#
#===----------------------------------------------------------------------===#

set -u
GEN=$1
CHECK=$2
BCASTC=$3
PLACEMENT=$4
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
case "$CHECK" in /*) ;; *) CHECK=$PWD/$CHECK ;; esac
case "$BCASTC" in /*) ;; *) BCASTC=$PWD/$BCASTC ;; esac
case "$PLACEMENT" in /*) ;; *) PLACEMENT=$PWD/$PLACEMENT ;; esac
cd "$WORK" || exit 1

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}
for set in torus mesh torus-placed; do
  case $set in
  torus) compile=(--topology=torus:4x4) ;;
  mesh) compile=(--topology=mesh:4x4) ;;
  torus-placed) compile=(--topology=torus:4x4 "--placement=$PLACEMENT") ;;
  esac
  if ! "$BCASTC" compile "${compile[@]}" --bytes=8B..1MiB --root=all \
    --emit=proto -o "$set.pb" >"$set.compile.txt" 2>&1; then
    fail "$set: bcastc compile failed"
    head -20 "$set.compile.txt"
    continue
  fi
  if ! "$GEN" "$set.pb" --function-name=set_bcast -o "$set.cc" ||
    ! "$GEN" "$set.pb" --emit=mpi-header --function-name=set_bcast \
      -o "$set.h" || ! "$GEN" "$set.pb" --edges >"$set.edges"; then
    fail "$set: generation failed"
    continue
  fi
  mpicxx "${MPI_CXXFLAGS[@]}" -c "$set.cc" -o "$set.o" ||
    fail "$set: the mpi-cpp file does not compile warning-free"
  printf '#include "%s.h"\nint use(void *b) { return set_bcast(b, 1, %s); }\n' \
    "$set" "MPI_BYTE, 0, MPI_COMM_WORLD" >"use-$set.c"
  mpicc -std=c99 -Wall -Wextra -Werror -I. -c "use-$set.c" -o "use-$set.o" ||
    fail "$set: the mpi-header does not compile as C"
  cp "use-$set.c" "use-$set.cc"
  mpicxx "${MPI_CXXFLAGS[@]}" -DOMPI_SKIP_MPICXX=1 -I. -c "use-$set.cc" \
    -o "use-$set-cc.o" || fail "$set: the mpi-header does not compile as C++"
  cp "$set.cc" set_under_test.cc
  if ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$CHECK" -o "check-$set" ||
    ! "$GEN" "$set.pb" --relabelling >"$set.want"; then
    fail "$set: relabel_check does not build or gen_plan_set fails"
    continue
  fi
  "./check-$set" "$set.edges" >"$set.got" || fail "$set: relabel_check failed"
  if ! diff "$set.want" "$set.got" >"$set.diff"; then
    fail "$set: the emitted dispatch or relabelling differs from PlanSet's"
    head -10 "$set.diff"
  fi
done
echo "$FAILED failures"
[ $FAILED -eq 0 ]
