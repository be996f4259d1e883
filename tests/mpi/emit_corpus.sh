#!/bin/bash
# emit_corpus.sh BCASTC GEN_PLAN OUTDIR [REPO]: writes the mpi-cpp file of
# every plan the MPI tests run (the *_mpi_cases.txt lines of every family,
# the st/bst/hand-built broadcasts of run_mpi_test.sh, the collectives of
# run_collectives_test.sh) into OUTDIR, one file a plan, so two builds of
# the emitter can be compared with `diff -r` (its output must not change
# when only the emitter's own code does).
set -u
BCASTC=$1 GEN_PLAN=$2 OUT=$3 REPO=${4:-$(dirname "$0")/../..}
mkdir -p "$OUT"
failed=0
emit() { # NAME COMMAND...
  local name=$1
  shift
  "$@" -o "$OUT/$name.cc" >/dev/null 2>"$OUT/$name.err" || {
    echo "emit_corpus: $name failed: $(head -1 "$OUT/$name.err")" >&2
    failed=$((failed + 1))
  }
  [ -s "$OUT/$name.err" ] || rm -f "$OUT/$name.err"
}
F=--function-name=bcastc_broadcast
for cases in "$REPO"/tests/*/*_mpi_cases.txt; do
  family=$(basename "$cases" .txt) i=0
  while read -r line; do
    case $line in '' | '#'*) continue ;; esac
    i=$((i + 1))
    # shellcheck disable=SC2086 # one line of compile arguments
    emit "$family-$i" "$BCASTC" compile --emit=mpi-cpp $F $line
  done <"$cases"
done
for kind in st bst; do
  for n in 2 3 5 8 16; do
    for root in 0 $((n / 2)) $((n - 1)); do
      emit "bcastc-$kind-$n-$root" "$BCASTC" compile --topology=linear:$n \
        --root=$root --algorithm=$kind --emit=mpi-cpp $F
      emit "gen-$kind-$n-$root" "$GEN_PLAN" --plan=$kind --nodes=$n --root=$root $F
    done
  done
done
for c in split:3:1 split:8:5 split:16:9 chain:5:2 chain:16:15; do
  IFS=: read -r kind n root <<<"$c"
  emit "gen-$kind-$n-$root" "$GEN_PLAN" --plan=$kind --nodes=$n --root=$root $F
done
G=("$GEN_PLAN" $F)
emit hand-allgather-rd-8 "${G[@]}" --plan=allgather-rd --nodes=8
emit hand-allgather-ring-5 "${G[@]}" --plan=allgather-ring --nodes=5
emit hand-multibcast-8 "${G[@]}" --plan=multibcast --nodes=8 --roots=0,5,3
emit hand-multibcast-rep-8 "${G[@]}" --plan=multibcast --nodes=8 --roots=2,2,6
emit hand-allreduce-rd-8 "${G[@]}" --plan=allreduce-rd --nodes=8
for n in 5 13; do
  emit hand-allreduce-rb-$n "${G[@]}" --plan=allreduce-rb --nodes=$n
done
emit hand-allreduce-postal3 "${G[@]}" --plan=allreduce-postal3 --nodes=3
C=("$BCASTC" compile --emit=mpi-cpp $F)
SLOTTED=--model="ports=all switching=store-and-forward duplex=full latency=1"
for d in 3 4; do
  emit hc-mnb-$d "${C[@]}" --algorithm=hc-mnb --topology=hypercube:$d "$SLOTTED" --sources=all
  emit hc-ksb-$d "${C[@]}" --algorithm=hc-ksb --topology=hypercube:$d "$SLOTTED" --sources=0,5,3
done
for n in 3 8 13; do
  emit postal-combine-$n "${C[@]}" --algorithm=postal-combine --topology=complete:$n --latency=2
  emit lambda-tree-$n "${C[@]}" --algorithm=lambda-tree --topology=complete:$n --latency=2 --root=$((n / 2))
done
for spec in 7:2 3:1 6:1 6:1.3 8:1.8; do
  n=${spec%:*} l=${spec#*:}
  emit postal-combine-$n-lambda-$l "${C[@]}" --algorithm=postal-combine --topology=complete:$n --latency=$l
done
emit lambda-tree-13-lambda-1.8 "${C[@]}" --algorithm=lambda-tree --topology=complete:13 --latency=1.8 --root=4
emit calibrate "$BCASTC" calibrate --emit=mpi-cpp
echo "emit_corpus: $(ls "$OUT"/*.cc | wc -l) files in $OUT, $failed failures"
[ $failed -eq 0 ]
