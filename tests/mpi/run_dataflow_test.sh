#!/bin/bash
#===- tests/mpi/run_dataflow_test.sh - timing=dataflow plans under mpirun --===#
#
# run_dataflow_test.sh SET_HARNESS_CC BCAST_HARNESS_CC GEN_PLAN_SET BCASTC
#
# The dataflow walker (runtime/mpi/Runtime.h, BCASTC_DATAFLOW: every
# receive posted at the call's start, each send once the receives of its
# chunks and the rank's sends `window` steps back have ended) on 16
# ranks, every byte of every rank checked:
#   - single plans compiled with --model=...timing=dataflow,window=W for
#     W = 1, 2, 5: arborescences on torus:4x4 and hc-edst-pipelined on
#     hypercube:4 (all-port), two-tree on torus:4x4 (one-port), each from
#     three roots, run with plan_set_harness.cc (MPI_BYTE and MPI_DOUBLE
#     counts 0, 1, 7, 1000 and 1001 bytes (not divisible by the plan's
#     chunk counts), 1 MiB + 3, a strided type; a pending
#     MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) on the communicator must match
#     none of the plan's messages) and, window 2, with harness.cc (counts
#     0, 1, 7, 4096, 1 MiB + 3 in MPI_BYTE, MPI_INT and a vector with holes,
#     twice each) from the first root;
#   - a plan set (torus:4x4, 8B..64KiB, every root, timing=dataflow) through
#     the dispatching function (gen_plan_set), roots 0, 5, 10, 15 and its
#     band edges +- 1;
#   - refusals: an allreduce and nccl-cu under timing=dataflow exit
#     non-zero, name the reason and write no file.
# Sharded (mpi_env.sh): each shard runs every sixth case.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
SET_HARNESS=$(abs "$1")
BCAST_HARNESS=$(abs "$2")
GEN=$(abs "$3")
BCASTC=$(abs "$4")
WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
MPI_TIMEOUT=${MPI_TIMEOUT:-300}
mpi_env "$WORK"
mpi_shard_init
cd "$WORK" || exit 1

FAILED=0
CASE=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}
FUNC=bcastc_set_bcast

# run NAME -- MPIRUN_ARGS...: one 16-rank run; every rank must print ok
# (plan_set_harness) or rank 0 PASS (harness.cc).
run() {
  local name=$1 out rc
  shift 2
  out=$("${MPIRUN[@]}" -np 16 "$@" 2>"$name.err")
  rc=$?
  echo "$name: $(grep -c '^ok$' <<<"$out") ranks ok; $(grep -h '^PASS' <<<"$out")"
  if [ $rc -ne 0 ] || { [ "$(grep -c '^ok$' <<<"$out")" -ne 16 ] &&
    ! grep -q '^PASS' <<<"$out"; }; then
    fail "$name: mpirun exited with $rc"
    grep FAIL <<<"$out" | head -20
    head -5 "$name.err"
  fi
}

# plan NAME ROOT W FIRST ARGS...: compiles `bcastc compile ARGS --root=ROOT` with
# timing=dataflow window=W appended to ARGS's --model, and runs it.
plan() {
  local name=$1 root=$2 w=$3 first=$4
  shift 4
  CASE=$((CASE + 1))
  mpi_shard_mine $((CASE - 1)) || return
  local args=() a
  for a in "$@"; do
    case $a in --model=*) a="$a,timing=dataflow,window=$w" ;; esac
    args+=("$a")
  done
  mkdir -p "$name" && cd "$name" || exit 1
  if ! "$BCASTC" compile "${args[@]}" --root="$root" --emit=mpi-cpp \
    --function-name=$FUNC -o plan.cc >compile.txt 2>&1 ||
    ! "$BCASTC" compile "${args[@]}" --root="$root" --emit=mpi-header \
      --function-name=$FUNC -o bcastc_set.h >>compile.txt 2>&1; then
    fail "$name: bcastc compile failed: $(tail -3 compile.txt)"
    cd .. && return
  fi
  grep -q "^const uint64_t kWindow = $w;$" plan.cc ||
    fail "$name: no kWindow = $w in the emitted code"
  if ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$SET_HARNESS" plan.cc -o set_harness; then
    fail "$name: does not compile warning-free with plan_set_harness.cc"
    cd .. && return
  fi
  echo "$root 1000 1001" >edges.txt
  run "$name" -- ./set_harness edges.txt "$root"
  # harness.cc's datatypes once per algorithm: window 2, its first root.
  if [ "$w" = 2 ] && [ "$first" = 1 ]; then
    if ! "$BCASTC" compile "${args[@]}" --root="$root" --emit=mpi-cpp \
      --function-name=bcastc_under_test -o bcast.cc >>compile.txt 2>&1; then
      fail "$name: bcastc compile for harness.cc failed"
    elif mpicxx "${MPI_CXXFLAGS[@]}" "$BCAST_HARNESS" bcast.cc -o harness; then
      run "$name-harness" -- ./harness "$root" ok
    else
      fail "$name: does not compile warning-free with harness.cc"
    fi
  fi
  cd ..
}

ALL=--model=ports=all
ONE=--model=ports=one
for w in 1 2 5; do
  for root in 0 5 10; do
    plan arb-torus-w$w-r$root "$root" "$w" $((root == 0)) "$ALL" \
      --topology=torus:4x4 --bytes=1MiB --algorithm=arborescences
  done
  for root in 0 9 15; do
    plan edst-hc-w$w-r$root "$root" "$w" $((root == 0)) "$ALL" \
      --topology=hypercube:4 --bytes=1MiB --algorithm=hc-edst-pipelined
  done
  for root in 3 6 12; do
    plan twotree-torus-w$w-r$root "$root" "$w" $((root == 3)) "$ONE" \
      --topology=torus:4x4 --bytes=256KiB --algorithm=two-tree
  done
done

# A plan set through the dispatching function.
CASE=$((CASE + 1))
if mpi_shard_mine $((CASE - 1)); then
  mkdir -p set && cd set || exit 1
  if ! "$BCASTC" compile --topology=torus:4x4 --bytes=8B..64KiB --root=all \
    --model=ports=all,timing=dataflow --emit=proto -o set.pb \
    >compile.txt 2>&1; then
    fail "set: bcastc compile failed: $(tail -3 compile.txt)"
  elif ! "$GEN" set.pb --function-name=$FUNC -o set.cc ||
    ! "$GEN" set.pb --emit=mpi-header --function-name=$FUNC \
      -o bcastc_set.h || ! "$GEN" set.pb --edges >edges.txt; then
    fail "set: gen_plan_set failed"
  elif ! grep -q "^const uint64_t kWindow = 2;$" set.cc; then
    fail "set: no kWindow = 2 in the emitted set"
  elif ! mpicxx "${MPI_CXXFLAGS[@]}" -I. "$SET_HARNESS" set.cc -o harness; then
    fail "set: does not compile warning-free"
  else
    echo "set: $(($(wc -w <edges.txt) - 16)) band edges over 16 roots"
    run set -- ./harness edges.txt 0 5 10 15
  fi
  cd ..
fi

# Refusals: non-zero, the reason, no file.
CASE=$((CASE + 1))
if mpi_shard_mine $((CASE - 1)); then
  # refused NAME WANT ARGS...: bcastc compile ARGS -o NAME.out must fail
  # saying WANT and leave no NAME.out.
  refused() {
    local name=$1 want=$2
    shift 2
    if "$BCASTC" compile "$@" -o "$name.out" >"$name.txt" 2>&1; then
      fail "$name: bcastc compile succeeded"
    fi
    grep -qF "$want" "$name.txt" ||
      fail "$name: the error does not say '$want': $(tail -2 "$name.txt")"
    [ ! -e "$name.out" ] || fail "$name: wrote $name.out"
  }
  refused allreduce "timing=dataflow times the dataflow executor, which runs copy-only plans" \
    --topology=complete:8 --algorithm=postal-combine \
    --model=timing=dataflow --emit=mpi-cpp
  refused nccl "timing=dataflow, which the grouped NCCL steps cannot run" \
    --topology=torus:4x4 --root=5 --bytes=1MiB --algorithm=arborescences \
    --model=ports=all,timing=dataflow --emit=nccl-cu
  echo "refusals checked"
fi

echo "$FAILED failures (shard $MPI_SHARD_INDEX of $MPI_SHARD_TOTAL)"
[ $FAILED -eq 0 ]
