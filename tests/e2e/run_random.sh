#!/bin/bash
#===- tests/e2e/run_random.sh - Random plans through bcastc and mpirun ---===#
#
# run_random.sh [-n COUNT] [-s SEED] [--case CASE_SEED] [-j JOBS] [-k DIR]
#               [--sanitize] [--bcastc PATH --gen PATH]
#
# Draws COUNT cases of the run seeded with SEED (default 24 cases, seed 1;
# --case replays the one case of CASE_SEED) with gen_cases, and for each:
#   1. bcastc compile ARGS --emit=text, then bcastc verify on that file:
#      zero errors, or the case fails;
#   2. bcastc compile ARGS --emit=mpi-cpp --function-name=e2e_NNNN;
#   3. the header's collective line gives the kind, root(s) and chunk count.
# Then, per rank count, ONE program: every emitted file of that rank count,
# each wrapped in a namespace of its own, plus a table of calls, compiled
# with `mpicxx -Wall -Wextra -Werror` and linked with e2e_harness.cc, and
# ONE mpirun that checks every byte on every rank (see e2e_harness.cc). A
# plan that hangs or crashes is named by the harness's last RUN line; the
# run is repeated without it; a plan still running after E2E_PLAN_TIMEOUT
# seconds (default 60) counts as hung. If a program does not compile, each
# of its files is compiled alone to find the culprit.
#
# --sanitize (or BCASTC_ASAN / BCASTC_UBSAN in the environment, as a
# sanitizer `bazel test` config sets them) builds the emitted code and the
# harness with -fsanitize=address,undefined (see tests/mpi/mpi_env.sh), so a
# read or write past a buffer by the emitted pack/unpack code fails the
# case even when the bytes come out right.
#
# Every failing case prints its seed, a replay command and the full bcastc
# command line. Without --bcastc/--gen the tools are built with Bazel.
# Under `bazel test` the sh_test passes the tool paths and a small count.
#
# mpirun and mpicxx as every MPI test runs them: tests/mpi/mpi_env.sh.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

COUNT=24
SEED=1
CASE_SEED=
JOBS=2
KEEP=
SANITIZE=
BCASTC=
GEN=
SRC=$(cd "$(dirname "$0")" && pwd)

usage() {
  sed -n '4,5p' "$0" | sed 's/^# //'
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
  -n) COUNT=$2; shift 2 ;;
  -s) SEED=$2; shift 2 ;;
  --case) CASE_SEED=$2; shift 2 ;;
  -j) JOBS=$2; shift 2 ;;
  -k) KEEP=$2; shift 2 ;;
  --sanitize) SANITIZE=1; shift ;;
  --bcastc) BCASTC=$2; shift 2 ;;
  --gen) GEN=$2; shift 2 ;;
  *) usage ;;
  esac
done

abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
if [ -z "$BCASTC" ] || [ -z "$GEN" ]; then
  ROOT=$(cd "$SRC/../.." && pwd)
  echo "building bcastc and gen_cases with Bazel"
  (cd "$ROOT" && bazel build //compiler/driver:bcastc //tests/e2e:gen_cases \
    >/dev/null 2>&1) || {
    echo "FAIL: bazel build //compiler/driver:bcastc //tests/e2e:gen_cases"
    exit 2
  }
  BIN=$(cd "$ROOT" && bazel info bazel-bin 2>/dev/null)
  BCASTC=$BIN/compiler/driver/bcastc
  GEN=$BIN/tests/e2e/gen_cases
fi
BCASTC=$(abs "$BCASTC")
GEN=$(abs "$GEN")

if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP" && WORK=$(cd "$KEEP" && pwd)
else
  WORK=${TEST_TMPDIR:-$(mktemp -d "${TMPDIR:-/tmp}/e2e.XXXXXX")}
fi
cd "$WORK" || exit 2
if [ -n "$SANITIZE" ]; then
  export BCASTC_ASAN=1 BCASTC_UBSAN=1
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
# shellcheck source=../mpi/mpi_env.sh
source "$SRC/../mpi/mpi_env.sh"
MPI_TIMEOUT=3000 mpi_env "$WORK"
export E2E_PLAN_TIMEOUT=${E2E_PLAN_TIMEOUT:-60}
# -O1: hundreds of emitted plans compile in a fraction of -O2's time.
CXXFLAGS=("${MPI_CXXFLAGS[@]/-O2/-O1}")
SECONDS=0

if [ -n "$CASE_SEED" ]; then
  "$GEN" --case-seed="$CASE_SEED" >cases.tsv || exit 2
else
  "$GEN" --seed="$SEED" --count="$COUNT" >cases.tsv || exit 2
  # The same seed must draw the same cases, or replays would be useless.
  "$GEN" --seed="$SEED" --count="$COUNT" | cmp -s - cases.tsv || {
    echo "FAIL: gen_cases --seed=$SEED drew different cases twice"
    exit 1
  }
fi
NUM=$(wc -l <cases.tsv)
echo "$NUM cases (seed $SEED${CASE_SEED:+, case $CASE_SEED}) in $WORK"

# prepare I LINE: steps 1-3 for case I; writes e2e_NNNN.entry (RANKS KIND
# ROOT ROOTS CALLS...) or e2e_NNNN.fail (the reason).
prepare() {
  local i=$1 line=$2 name
  name=$(printf 'e2e_%04d' "$i")
  local F
  IFS=$'\t' read -r -a F <<<"$line"
  local ranks=${F[1]} calls=${F[3]} args=("${F[@]:4}")
  if ! "$BCASTC" compile "${args[@]}" --emit=text -o "$name.sched" \
    >"$name.log" 2>&1; then
    echo "compile --emit=text failed: $(tail -1 "$name.log")" >"$name.fail"
    return
  fi
  if ! "$BCASTC" verify "$name.sched" >>"$name.log" 2>&1 ||
    ! grep -q "^verified: 0 errors" "$name.log"; then
    echo "bcastc verify failed: $(grep -m1 error "$name.log")" >"$name.fail"
    return
  fi
  if ! "$BCASTC" compile "${args[@]}" --emit=mpi-cpp --function-name="$name" \
    -o "$name.cc" >>"$name.log" 2>&1; then
    echo "compile --emit=mpi-cpp failed: $(tail -1 "$name.log")" \
      >"$name.fail"
    return
  fi
  local header kind root=0 roots=- chunks
  header=$(grep -m1 '^// collective: ' "$name.cc")
  # word KEY: the value of ` KEY=...` on the collective line.
  word() { echo "$header" | sed -n "s/.* $1=\([0-9,]*\).*/\1/p"; }
  kind=$(echo "$header" | awk '{print $3}')
  chunks=$(word chunks)
  case $kind in
  broadcast) root=$(word root) ;;
  multibroadcast) roots=$(word roots) ;;
  allgather | allreduce) ;;
  *) echo "unknown collective line: $header" >"$name.fail"; return ;;
  esac
  if [ -z "$chunks" ] || [ -z "$root" ] || [ -z "$roots" ]; then
    echo "cannot read the collective line: $header" >"$name.fail"
    return
  fi
  # cK+1: K times the chunk count plus one.
  local resolved=() c count
  for c in $calls; do
    count=${c%%:*}
    if [ "${count#c}" != "$count" ]; then
      count=${count#c}
      count=$((chunks * ${count%+*} + ${count#*+}))
    fi
    resolved+=("$count:${c#*:}")
  done
  echo "$ranks $kind $root $roots ${resolved[*]}" >"$name.entry"
}

# Steps 1-3, JOBS cases at a time.
i=0
while IFS= read -r line; do
  prepare "$i" "$line" &
  i=$((i + 1))
  [ $((i % JOBS)) -eq 0 ] && wait
done <cases.tsv
wait
PREPARED=$SECONDS

# fail_case I REASON...: records a failure of case I (reasons accumulate).
fail_case() {
  local name
  name=$(printf 'e2e_%04d' "$1")
  echo "${*:2}" >>"$name.fail"
}

# The program for RANKS: the table of every prepared case of that rank count
# whose name is not in SKIP_BUILD.
write_program() {
  local ranks=$1 out=$2 e n r kind root roots rest names=()
  for e in e2e_*.entry; do
    [ -e "${e%.entry}.fail" ] && continue
    read -r r _ <"$e"
    [ "$r" = "$ranks" ] && names+=("${e%.entry}")
  done
  {
    echo '// generated by tests/e2e/run_random.sh'
    echo '#define OMPI_SKIP_MPICXX 1'
    echo '#define MPICH_SKIP_MPICXX 1'
    # The emitted files' headers, included here once so that their own
    # includes, inside the namespaces below, are no-ops.
    for n in "${names[@]}"; do grep -h '^#include' "$n.cc"; done | sort -u
    for n in "${names[@]}"; do
      printf 'namespace plan_%s {\n#include "%s.cc"\n}\n' "$n" "$n"
    done
    echo '#include "CaseTable.h"'
    echo 'namespace e2e {'
    echo 'const PlanCase PlanCases[] = {'
    for n in "${names[@]}"; do
      local calls=() spec
      read -r r kind root roots rest <"$n.entry"
      for spec in $rest; do calls+=("{${spec//:/, }}"); done
      case $kind in
      broadcast) kind=Broadcast ;; multibroadcast) kind=Multibroadcast ;;
      allgather) kind=Allgather ;; allreduce) kind=Allreduce ;;
      esac
      [ "$roots" = - ] && roots=
      local joined
      joined=$(IFS=,; echo "${calls[*]}")
      printf '    {"%s", Collective::%s,\n' "$n" "$kind"
      printf '     reinterpret_cast<void (*)()>(&plan_%s::%s),\n' "$n" "$n"
      printf '     %s, "%s", %d, {%s}},\n' "$root" "$roots" "${#calls[@]}" \
        "$joined"
    done
    echo '};'
    echo 'const int NumPlanCases = sizeof PlanCases / sizeof *PlanCases;'
    echo '} // namespace e2e'
  } >"$out"
  [ ${#names[@]} -gt 0 ]
}

index_of() { echo $((10#${1#e2e_})); }

if ! mpicxx "${CXXFLAGS[@]}" -I"$SRC" -c "$SRC/e2e_harness.cc" \
  -o harness.o; then
  echo "FAIL: e2e_harness.cc does not compile"
  exit 1
fi

# build RANKS: compiles plans_RANKS; on failure finds the files that do not
# compile alone, fails them, and tries again without them.
build() {
  local ranks=$1
  write_program "$ranks" "plans_$ranks.cc" || return 1
  if mpicxx "${CXXFLAGS[@]}" -I"$SRC" -I"$WORK" "plans_$ranks.cc" harness.o \
    -o "e2e_$ranks" 2>"plans_$ranks.err"; then
    return 0
  fi
  local e n r bad=0
  for e in e2e_*.entry; do
    n=${e%.entry}
    [ -e "$n.fail" ] && continue
    read -r r _ <"$e"
    [ "$r" = "$ranks" ] || continue
    if ! mpicxx "${CXXFLAGS[@]}" -c "$n.cc" -o "$n.o" 2>"$n.cxx.err"; then
      fail_case "$(index_of "$n")" \
        "emitted code does not compile: $(grep -m1 error "$n.cxx.err")"
      bad=1
    fi
  done
  if [ $bad = 0 ]; then
    echo "FAIL: plans_$ranks.cc does not compile, but each file alone does:"
    head -20 "plans_$ranks.err"
    return 1
  fi
  build "$ranks"
}

# run RANKS: one mpirun; a hung or crashed plan is failed and skipped.
run() {
  local ranks=$1 skip=() attempt rc last
  for attempt in 1 2 3 4 5; do
    "${MPIRUN[@]}" -np "$ranks" "./e2e_$ranks" "${skip[@]}" >"run_$ranks.out" 2>"run_$ranks.err"
    rc=$?
    grep '^FAIL e2e_' "run_$ranks.out" | while read -r _ n rest; do
      fail_case "$(index_of "$n")" "$rest"
    done
    tail -1 "run_$ranks.out" | grep -q '^\(PASS\|FAIL\): ' && return 0
    # Neither PASS nor FAIL: the last plan started hung or crashed.
    last=$(grep '^RUN ' "run_$ranks.out" | tail -1 | awk '{print $2}')
    if [ -z "$last" ]; then
      echo "FAIL: mpirun -np $ranks exited with $rc before any plan ran"
      head -20 "run_$ranks.err"
      return 1
    fi
    if grep -q "^HUNG $last" "run_$ranks.out"; then
      fail_case "$(index_of "$last")" \
        "hung: not done after ${E2E_PLAN_TIMEOUT}s (mpirun -np $ranks)"
    else
      fail_case "$(index_of "$last")" "crashed: mpirun -np $ranks exited" \
        "with $rc: $(grep -m1 -i 'signal\|error' "run_$ranks.err")"
    fi
    skip+=("$last")
  done
  echo "FAIL: mpirun -np $ranks: too many hung or crashed plans"
  return 1
}

HARD=0
for ranks in $(cat e2e_*.entry 2>/dev/null | awk '{print $1}' | sort -nu); do
  start=$SECONDS
  if build "$ranks"; then
    built=$((SECONDS - start))
    run "$ranks" || HARD=1
    echo "$ranks ranks: $(grep -l "^$ranks " e2e_*.entry | wc -l) plans," \
      "build ${built}s, run $((SECONDS - start - built))s:" \
      "$(tail -1 "run_$ranks.out")"
  else
    HARD=1
  fi
done

# Report every failed case with its replay lines.
FAILED=0
i=0
while IFS= read -r line; do
  name=$(printf 'e2e_%04d' "$i")
  if [ -e "$name.fail" ]; then
    FAILED=$((FAILED + 1))
    IFS=$'\t' read -r -a F <<<"$line"
    echo "FAIL case $i (seed ${F[0]}, ${F[2]} on ${F[1]} ranks, calls ${F[3]}):"
    sed 's/^/  /' "$name.fail"
    echo "  replay: tests/e2e/run_random.sh --case ${F[0]}"
    printf '  bcastc compile'
    printf ' %q' "${F[@]:4}"
    printf ' --emit=mpi-cpp --function-name=%s -o %s.cc\n' "$name" "$name"
  fi
  i=$((i + 1))
done <cases.tsv

# tally: `word count, ` for each distinct line of standard input.
tally() { sort | uniq -c | awk '{printf "%s %s, ", $2, $1}'; }
echo "by algorithm: $(cut -f3 cases.tsv | tally)"
echo "by collective: $(cat e2e_*.entry 2>/dev/null | awk '{print $2}' | tally)"
echo "$NUM cases, $FAILED failed; bcastc steps ${PREPARED}s, total ${SECONDS}s"
[ $FAILED -eq 0 ] && [ $HARD -eq 0 ]
