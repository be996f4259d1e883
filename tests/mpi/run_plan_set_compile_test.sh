#!/bin/bash
#===- tests/mpi/run_plan_set_compile_test.sh - Plan-set files compile -----===#
#
# run_plan_set_compile_test.sh GEN_PLAN_SET
#
# The fast check of the plan-set form: each test set's mpi-cpp file
# compiles with mpicxx -Wall -Wextra -Werror (and the sanitizer flags of
# the build, mpi_env.sh), and its mpi-header compiles as C and as C++.
# mpi_plan_set_test runs the files.
#
#===----------------------------------------------------------------------===#

set -u
GEN=$1
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"
case "$GEN" in /*) ;; *) GEN=$PWD/$GEN ;; esac
cd "$WORK" || exit 1

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}
for set in torus mesh torus-placed; do
  if ! "$GEN" --set="$set" --function-name=set_bcast -o "$set.cc" ||
    ! "$GEN" --set="$set" --emit=mpi-header --function-name=set_bcast \
      -o "$set.h"; then
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
done
echo "$FAILED failures"
[ $FAILED -eq 0 ]
