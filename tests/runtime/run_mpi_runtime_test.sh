#!/bin/bash
#===- tests/runtime/run_mpi_runtime_test.sh - runtime/mpi on its own ------===#
#
# run_mpi_runtime_test.sh PROGRAM_CC
#
# Compiles runtime_program.cc (hand-written tables, then runtime/mpi's
# files as the emitted code includes them) once per variant the emitter
# selects -- broadcast and allreduce, with and without synchronous sends,
# allreduce with the `received` accumulator -- with mpicxx -Wall -Wextra
# -Werror, and runs each on 4 ranks under mpirun; every rank must print ok.
# mpicxx and mpirun as in tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
PROGRAM=$1
WORK=${TEST_TMPDIR:-$(mktemp -d)}
ROOT=$PWD
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
mpi_env "$WORK"

FAILED=0
i=0
for flags in "BROADCAST" "BROADCAST SYNCHRONOUS_SENDS" "ALLREDUCE" \
  "ALLREDUCE SYNCHRONOUS_SENDS" "ALLREDUCE RECEIVED_SENDS SYNCHRONOUS_SENDS"; do
  i=$((i + 1))
  defines=(-DBCASTC_STANDALONE=1)
  for f in $flags; do defines+=("-DBCASTC_$f=1"); done
  if ! mpicxx "${MPI_CXXFLAGS[@]}" -DOMPI_SKIP_MPICXX=1 "${defines[@]}" \
    -I"$ROOT" "$PROGRAM" -o "$WORK/program$i"; then
    echo "FAIL: $flags: does not compile warning-free"
    FAILED=$((FAILED + 1))
    continue
  fi
  out=$("${MPIRUN[@]}" -np 4 "$WORK/program$i" 2>"$WORK/err$i")
  rc=$?
  echo "$flags: $(echo $out)"
  if [ $rc -ne 0 ] || [ "$(grep -c '^ok$' <<<"$out")" -ne 4 ]; then
    echo "FAIL: $flags: mpirun exited with $rc"
    grep FAIL "$WORK/err$i" | head -20
    FAILED=$((FAILED + 1))
  fi
done
echo "$FAILED failures"
[ $FAILED -eq 0 ]
