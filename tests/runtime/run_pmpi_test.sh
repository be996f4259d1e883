#!/bin/bash
#===- tests/runtime/run_pmpi_test.sh - libbcastc_pmpi.so with plan sets ---===#
#
# run_pmpi_test.sh BCASTC PMPI_SO PROGRAM_CC MAKE_PLAN_SET
#
# Compiles the unmodified MPI program set_program.cc with mpicxx (it only
# calls MPI_Bcast, on MPI_COMM_WORLD, a Cartesian communicator and halves
# of the world), builds plan sets with the digest bcastc writes
# (make_plan_set: `bcastc compile --emit=proto` plans in hand-chosen bands,
# written by bcastc's set writer), and runs it
# under mpirun with LD_PRELOAD=libbcastc_pmpi.so, 16 ranks:
#
#   torus   torus:4x4, translation, one class: np-rd below 3001 bytes,
#           two-tree to 65539, sc in 8 packets above; every root, each
#           band edge +-1, MPI_BYTE and MPI_DOUBLE, every byte checked,
#           a pending MPI_ANY_TAG receive that must get none of it;
#           BCASTC_VERBOSE=1 prints exactly one summary line per job
#           with the calls per band (and the halves' 4 fallbacks);
#   placed  the same set under a random placement (fixed seed) in
#           BCASTC_PLACEMENT, and on a Cartesian 4x4 communicator (which
#           takes precedence; its pass leaves out the 1 MiB counts);
#   mesh    mesh:4x4, reflection, four root classes;
#   compiled  `bcastc compile --root=all --bytes=8B..16MiB` for torus:4x4:
#           three of its band edges +-1 from every root, all served;
#   dataflow  the same for 8B..64KiB with timing=dataflow window=3: the
#           library's dataflow walker;
#   tampered  the torus set with one byte changed: one message for the
#           job, every call falls back, every byte still right.
#
# And: ldd of the library shows no LLVM or protobuf. mpicxx and mpirun as
# in tests/mpi/mpi_env.sh.
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

# The library links only what it executes.
if ldd "$PMPI" | grep -Ei "llvm|protobuf|z3|xml2|icu"; then
  fail "libbcastc_pmpi.so links LLVM, protobuf or their dependencies"
else
  echo "ldd: $(ldd "$PMPI" | wc -l) libraries, no LLVM or protobuf"
fi

mpicxx "${MPI_CXXFLAGS[@]}" -DOMPI_SKIP_MPICXX=1 "$PROGRAM" -o set_program || exit 1

# plan NAME TOPOLOGY ALGORITHM ROOT [FLAGS...]
plan() {
  local name=$1 topo=$2 alg=$3 root=$4
  shift 4
  "$BCASTC" compile --topology="$topo" --root="$root" --algorithm="$alg" \
    "$@" --emit=proto -o "plans/$name.pb" >/dev/null 2>"plans/$name.err" ||
    { fail "bcastc $topo $alg root $root"; cat "plans/$name.err"; }
}
mkdir -p plans torus mesh tampered
plan t-small torus:4x4 np-rd 0
plan t-mid torus:4x4 two-tree 0
plan t-large torus:4x4 sc 0 --packets=8
"$MAKE_SET" torus/torus.pb torus-set translation - \
  0:all:plans/t-small.pb:3001:plans/t-mid.pb:65539:plans/t-large.pb ||
  fail "make_plan_set torus"
CLASSES=()
for rep in 0 1 4 5; do
  case $rep in
  0) roots=0,3,12,15 ;; 1) roots=1,2,13,14 ;; 4) roots=4,7,8,11 ;;
  5) roots=5,6,9,10 ;;
  esac
  plan m-small-$rep mesh:4x4 chain $rep
  plan m-large-$rep mesh:4x4 bst-mesh $rep
  CLASSES+=("$rep:$roots:plans/m-small-$rep.pb:5000:plans/m-large-$rep.pb")
done
"$MAKE_SET" mesh/mesh.pb mesh-set reflection - "${CLASSES[@]}" ||
  fail "make_plan_set mesh"
cp torus/torus.pb tampered/torus.pb
# One byte of the set's name (bytes 19-27: `torus-set`), changed.
printf 'X' | dd of=tampered/torus.pb bs=1 seek=20 conv=notrunc 2>/dev/null

# run NAME DIR EXPECTED_CALLS PROGRAM_ARGS...: every rank checks every byte.
run() {
  local name=$1 dir=$2 want=$3
  shift 3
  BCASTC_PLAN_DIR=$WORK/$dir "${MPIRUN[@]}" -np 16 \
    -x LD_PRELOAD="${ASAN_PRELOAD:+$ASAN_PRELOAD:}$PMPI" \
    -x BCASTC_PLAN_DIR -x BCASTC_VERBOSE -x BCASTC_PLACEMENT \
    ./set_program "$@" >"$name.out" 2>"$name.err"
  local rc=$? clean
  clean=$(grep -c "$want MPI_Bcast calls checked, 0 failures" "$name.out")
  echo "$name: $clean of 16 ranks checked $want broadcasts without a wrong byte"
  [ $rc -eq 0 ] || { fail "$name: mpirun exited with $rc"; head -20 "$name.err" "$name.out"; }
  [ "$clean" -eq 16 ] || fail "$name: $clean ranks clean, want 16"
}

# summary NAME: the one summary line of the job.
summary() {
  local lines
  lines=$(grep -c "^bcastc: .*calls fell back to PMPI_Bcast$" "$1.err")
  [ "$lines" -eq 1 ] || fail "$1: $lines summary lines, want 1"
  grep "^bcastc: .*calls fell back to PMPI_Bcast$" "$1.err"
}

EDGES=(3001 65539)
# Per root: 4 + 6 byte counts, 4 + 6 double counts.
WORLD=$((16 * 20))
SECONDS=0
export BCASTC_VERBOSE=1 BCASTC_PLACEMENT=
run torus torus $((WORLD + 2)) "${EDGES[@]}" split
summary torus
# The library counts per band; the test checks the total and the bands.
grep -q "^bcastc: torus:4x4 set 'torus-set' ([^)]*): $WORLD calls: band \[0,3001) [0-9]*, \[3001,65539) [0-9]*, \[65539,inf) [0-9]*; 4 calls fell back to PMPI_Bcast$" torus.err ||
  fail "torus: the summary does not say $WORLD calls in three bands and 4 fallbacks"

# A random placement (fixed seed), and a Cartesian communicator.
seq 0 15 | shuf --random-source=<(yes 21) | tr '\n' ' ' >placement.txt
echo "placement: $(cat placement.txt)"
# The Cartesian pass leaves out the 1 MiB counts: 16 * 2 fewer.
PLACED=$((2 * WORLD - 32))
BCASTC_PLACEMENT=$WORK/placement.txt run placed torus $PLACED "${EDGES[@]}" cart
summary placed
grep -q ": $PLACED calls: band" placed.err ||
  fail "placed: not every call was served by the set"

# One edge: 4 + 3 byte counts, 4 + 3 double counts per root.
MESH=$((16 * 14))
run mesh mesh $((MESH + 2)) 5000 split
summary mesh
grep -q "^bcastc: mesh:4x4 set 'mesh-set' ([^)]*): $MESH calls: band root class 0 \[0,5000) 32, root class 0 \[5000,inf) 24, .*root class 3 \[5000,inf) 24; 4 calls" mesh.err ||
  fail "mesh: the summary does not list the root classes' bands"

# A set as users make it: `bcastc compile --root=all --bytes=8B..16MiB`
# (every root, bands at the model's crossovers); three of its band edges
# +-1 from every root, every call served.
mkdir -p compiled
"$BCASTC" compile --topology=torus:4x4 --bytes=8B..16MiB --root=all \
  --emit=proto -o compiled/torus.pb >compiled.table 2>compiled.errors ||
  { fail "bcastc compile --root=all"; cat compiled.errors; }
COMPILED_EDGES=($(grep -oE '^ +\[[0-9]+,' compiled.table | tr -dc '0-9\n' |
  awk 'NR == 2 || NR == 4 || NR == 12'))
echo "compiled: $(grep -c '^ *\[' compiled.table) bands; edges ${COMPILED_EDGES[*]}"
[ ${#COMPILED_EDGES[@]} -eq 3 ] || fail "compiled: fewer than 12 bands"
COMPILED=$((16 * (8 + 6 * ${#COMPILED_EDGES[@]})))
run compiled compiled $COMPILED "${COMPILED_EDGES[@]}"
summary compiled
grep -q "^bcastc: torus:4x4 set '[^']*' ([^)]*): $COMPILED calls: band .*; 0 calls fell back" compiled.err ||
  fail "compiled: not every call was served by the compiled set"

# timing=dataflow: the library runs the set's plans on the emitted code's
# dataflow walker (runtime/PlanExecutor.cpp), here with window 3.
mkdir -p dataflow
"$BCASTC" compile --topology=torus:4x4 --bytes=8B..64KiB --root=all \
  --model=ports=all,timing=dataflow,window=3 --emit=proto \
  -o dataflow/torus.pb >dataflow.table 2>dataflow.errors ||
  { fail "bcastc compile timing=dataflow"; cat dataflow.errors; }
DATAFLOW_EDGES=($(grep -oE '^ +\[[0-9]+,' dataflow.table | tr -dc '0-9\n' |
  awk 'NR == 2 || NR == 5 || NR == 9'))
echo "dataflow: $(grep -c '^ *\[' dataflow.table) bands; edges ${DATAFLOW_EDGES[*]}"
[ ${#DATAFLOW_EDGES[@]} -eq 3 ] || fail "dataflow: fewer than 9 bands"
DATAFLOW=$((16 * (8 + 6 * ${#DATAFLOW_EDGES[@]})))
run dataflow dataflow $DATAFLOW "${DATAFLOW_EDGES[@]}"
summary dataflow
grep -q "^bcastc: torus:4x4 set '[^']*' ([^)]*): $DATAFLOW calls: band .*; 0 calls fell back" dataflow.err ||
  fail "dataflow: not every call was served by the dataflow set"

unset BCASTC_VERBOSE
run tampered tampered $WORLD "${EDGES[@]}"
reports=$(grep -c "digest mismatch" tampered.err)
echo "tampered: $reports report(s): $(grep "digest mismatch" tampered.err | cut -c1-160)"
[ "$reports" -eq 1 ] || fail "tampered: $reports digest reports, want 1"
[ "$(grep -c '^bcastc:' tampered.err)" -eq 1 ] ||
  fail "tampered: other bcastc lines than the one report (no summary without BCASTC_VERBOSE)"

echo "5 mpirun runs in ${SECONDS}s, $FAILED failures"
[ $FAILED -eq 0 ]
