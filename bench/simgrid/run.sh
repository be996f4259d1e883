#!/bin/bash
#===- bench/simgrid/run.sh - bcastc's plans next to SMPI's MPI_Bcast ------===#
#
#   bench/simgrid/run.sh [--out=TABLE.md] [--work=DIR] [--jobs=2]
#       [--topologies="torus:8x8 mesh:8x8 torus:16x16 mesh:16x16"]
#       [--sizes="8 1024 65536 1048576 16777216"] [--models="one all"]
#       [--top=3] [--root=0] [--builtins="binomial_tree ..."]
#       [--budget=1140] [--timeout=20] [--timeout-per-mib=5]
#       [--bcastc=PATH --make-platform=PATH]   (else built with Bazel)
#   bench/simgrid/run.sh --mode=modern --machine=calibrate|FILE|PLATFORM=FILE...
#       [--link-bw=1e10] [--link-lat=1] [--nic-bw=LINK] [--nic-lat=1] [...]
#   bench/simgrid/run.sh --summarize --work=DIR [--out=...] [--topologies=...]
#       only prints the table again from DIR/out/*.txt (of one or several
#       runs copied together).
#
# --mode=delta (default): the platforms are bcastc's (a, b) of the Delta
# preset (SimgridPlatform.h), plans are ranked in that model.
#
# --mode=modern (issue 22): platforms of physical constants, by default
# 10 GB/s and 1 us per link, interfaces of the links' bandwidth and 1 us a
# message (half each end): torus:16x16, mesh:16x16 and hypercube:8, one-
# and all-port, at 8 B, 64 KiB, 1 MiB and 16 MiB, the --top 5 plans. Plans
# are ranked and shaped with a machine file per platform (what
# `bcastc calibrate` measured there): --machine=PLATFORM=FILE, PLATFORM as
# torus:16x16-one, or --machine=FILE for every platform without one, or
# --machine=calibrate: emit `bcastc calibrate --topology=TOPO`'s program and
# run it under smpirun on each platform first (PLATFORM/calibrate.log); words
# the file lacks are added: ports=all on all-port platforms,
# contention=share (concurrent messages share links and interfaces as
# flows, across steps too) and timing=ranks (each rank runs its steps as
# soon as its own transfers allow, as the emitted code does). Prints per
# plan its predicted time (the model's, from
# `bcastc algorithms`) next to the simulated one, and per platform and size
# the worst simulated/predicted ratio of the top plans, `auto`'s pick (the
# plan `bcastc cost --algorithm=auto` chooses) against the best simulated
# bcastc plan and against the best built-in.
#
# For every topology and port model (one-port / all-port, see
# SimgridPlatform.h for how a and b become links): writes the SimGrid
# platform (make_platform); compiles bcastc's --top best plans of every
# size (`bcastc algorithms`, ranked in the model of that port count; with
# ports=all for all-port) with `--emit=mpi-cpp` and links them with
# bcast_timer.cc; compiles MPI_Bcast with the same harness; runs each under
# smpirun, the built-in once per `--cfg=smpi/bcast:NAME`. bcast_timer checks
# every byte after every call: a warm-up and a timed call for built-ins, the
# timed call alone for our plans (they keep no state between calls; with a
# warm-up they time the same to 1 ns). Prints (and writes to --out) a
# Markdown table: per topology, size and model, our best plan, the best
# built-in and their ratio; every simulated time is in WORK/results.tsv.
# Exits 1 if one of our plans delivered a wrong byte or failed to run.
#
# Time: every binary is compiled before the runs, then one job per
# (platform, plan set or built-in) runs all sizes in ascending order in one
# smpirun (run_job.sh), so SMPI's start-up and the SMP-aware selectors'
# set-up (~8 s on 256 ranks) are paid once. Each size gets --timeout
# seconds plus --timeout-per-mib per MiB of message on 256 ranks, in
# proportion to the rank count (a tree built-in takes about 0.7 s per MiB
# on 256 ranks, most of it faulting in and checking 256 buffers); a size
# that passes it is stopped (`timed-out`). A built-in that fails or times
# out is not run at larger sizes on that platform (`not-run`): some
# deadlock or crash in SMPI on every size; our plan sets go on at the next
# size in a new smpirun. Neither is a built-in whose wall time, predicted
# from the same built-in on the platforms run before, would pass its
# timeout (`predicted-Ns`). The whole run stops at --budget seconds
# (default 19 minutes; 0: none): a run cut short is `timed-out`, one never
# started `skipped`. `--budget=0 --timeout=100000` runs everything to the
# end.
#
# SMPI settings: CM02 (bandwidth and latency only, no TCP factors),
# no simulated computation, no cross traffic, MPI_Wtime costs nothing;
# deterministic, so each time is measured once.
#
#===----------------------------------------------------------------------===#

set -euo pipefail

MODE=delta
TOPOLOGIES=""
SIZES=""
MODELS="one all"
TOP=""
MACHINES=() # PLATFORM=FILE, or =FILE for every platform
LINK_BW=1e10
LINK_LAT=1
NIC_BW=""
NIC_LAT=1
ROOT=0
JOBS=2
OUT=""
WORK=""
BCASTC=""
MAKE_PLATFORM=""
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Every algorithm SMPI 3.32 offers but `automatic`, which deadlocks.
BUILTINS="default arrival_pattern_aware arrival_pattern_aware_wait
  arrival_scatter binomial_tree flattree flattree_pipeline NTSB NTSL
  NTSL_Isend scatter_LR_allgather scatter_rdb_allgather SMP_binary
  SMP_binomial SMP_linear ompi ompi_split_bintree ompi_pipeline mpich
  mvapich2 mvapich2_inter_node mvapich2_intra_node
  mvapich2_knomial_intra_node impi"
TIMEOUT=20
TIMEOUT_PER_MIB=5
BUDGET=1140
SUMMARIZE=0

for arg in "$@"; do
  case "$arg" in
  --out=*) OUT=${arg#*=} ;;
  --mode=delta | --mode=modern) MODE=${arg#*=} ;;
  --machine=*=*) MACHINES+=("${arg#*=}") ;;
  --machine=*) MACHINES+=("=${arg#*=}") ;;
  --link-bw=*) LINK_BW=${arg#*=} ;;
  --link-lat=*) LINK_LAT=${arg#*=} ;;
  --nic-bw=*) NIC_BW=${arg#*=} ;;
  --nic-lat=*) NIC_LAT=${arg#*=} ;;
  --work=*) WORK=${arg#*=} ;;
  --jobs=*) JOBS=${arg#*=} ;;
  --topologies=*) TOPOLOGIES=${arg#*=} ;;
  --sizes=*) SIZES=${arg#*=} ;;
  --models=*) MODELS=${arg#*=} ;;
  --top=*) TOP=${arg#*=} ;;
  --budget=*) BUDGET=${arg#*=} ;;
  --timeout=*) TIMEOUT=${arg#*=} ;;
  --timeout-per-mib=*) TIMEOUT_PER_MIB=${arg#*=} ;;
  --root=*) ROOT=${arg#*=} ;;
  --builtins=*) BUILTINS=${arg#*=} ;;
  --bcastc=*) BCASTC=${arg#*=} ;;
  --make-platform=*) MAKE_PLATFORM=${arg#*=} ;;
  --src=*) SRC=${arg#*=} ;;
  --summarize) SUMMARIZE=1 ;;
  *)
    sed -n '3,11p' "$0" >&2
    echo "run.sh: unknown argument '$arg'" >&2
    exit 2
    ;;
  esac
done

if [ $MODE = modern ]; then
  TOPOLOGIES=${TOPOLOGIES:-torus:16x16 mesh:16x16 hypercube:8}
  SIZES=${SIZES:-8 65536 1048576 16777216}
  TOP=${TOP:-5}
else
  TOPOLOGIES=${TOPOLOGIES:-torus:8x8 mesh:8x8 torus:16x16 mesh:16x16}
  SIZES=${SIZES:-8 1024 65536 1048576 16777216}
  TOP=${TOP:-3}
fi
NIC_BW=${NIC_BW:-$LINK_BW}
# machine_file PLATFORM: the machine file given for PLATFORM (TOPO-PORTS).
machine_file() {
  local m found=""
  for m in ${MACHINES[@]+"${MACHINES[@]}"}; do
    [ "${m%%=*}" = "$1" ] && { echo "${m#*=}"; return; }
    [ -z "${m%%=*}" ] && found=${m#*=}
  done
  echo "$found"
}

nodes() { # SPEC -> node count
  local n=1 e
  [ "${1%%:*}" = hypercube ] && { echo $((1 << ${1#*:})); return; }
  for e in $(echo "${1#*:}" | tr x ' '); do n=$((n * e)); done
  echo $n
}

for tool in smpicxx smpirun; do
  if ! command -v $tool >/dev/null; then
    echo "run.sh: $tool not found: install libsimgrid-dev (tools/setup.sh)" >&2
    exit 2
  fi
done
START=$(date +%s)
DEADLINE=$([ "$BUDGET" -gt 0 ] && echo $((START + BUDGET)) || echo 0)
if [ $SUMMARIZE = 1 ]; then
  [ -d "$WORK/out" ] || { echo "run.sh: --summarize needs --work=DIR with out/" >&2; exit 2; }
elif [ -z "$BCASTC" ] || [ -z "$MAKE_PLATFORM" ]; then
  repo="$(cd "$SRC/../.." && pwd)"
  (cd "$repo" && bazel build --config=release //compiler/driver:bcastc \
    //bench/simgrid:make_platform >/dev/null 2>&1) || {
    echo "run.sh: bazel build failed" >&2
    exit 2
  }
  bin="$(cd "$repo" && bazel info --config=release bazel-bin 2>/dev/null)"
  BCASTC=${BCASTC:-$bin/compiler/driver/bcastc}
  MAKE_PLATFORM=${MAKE_PLATFORM:-$bin/bench/simgrid/make_platform}
fi
if [ $SUMMARIZE = 0 ]; then
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
rm -rf "$WORK/jobs" "$WORK/out" "$WORK/wall" "$WORK/predicted.tsv" "$WORK/notes.txt"
mkdir -p "$WORK/jobs" "$WORK/out" "$WORK/wall"
CXX=(smpicxx -std=c++17 -O1 -w -I"$SRC")
SMPIRUN_CFG="--cfg=network/model:CM02 --cfg=smpi/simulate-computation:no \
--cfg=network/crosstraffic:0 --cfg=smpi/wtime:0 --log=root.thres:critical"
# A rank per host: up to 256 ranks share this machine's cores, so privatized
# globals must fit; SMPI needs nothing else.
# Plans are ranked with contention charged, not forbidden: SimGrid's links
# and interfaces share concurrent messages fluidly (their start-ups overlap,
# their bytes queue), which is what contention=charge charges, so plans
# that share a port on purpose (knomial) compete with contention-free ones
# at their modelled cost. Contention-free plans cost the same either way.
model_flag() {
  [ "$1" = all ] && echo "--model=ports=all contention=charge" ||
    echo "--model=contention=charge"
}
# platform_flags: sets PLATFORM_FLAGS, make_platform's constants.
platform_flags() {
  PLATFORM_FLAGS=()
  [ $MODE = modern ] && PLATFORM_FLAGS=(--link-bw="$LINK_BW"
    --link-lat="$LINK_LAT" --nic-bw="$NIC_BW" --nic-lat="$NIC_LAT")
  return 0
}
# calibrate TOPO MODEL DIR: runs `bcastc calibrate`'s program for TOPO on
# the platform of DIR under smpirun; it writes DIR/calibrated.machine.
calibrate() {
  local log="$3/calibrate.log"
  { "$BCASTC" calibrate --topology="$1" --root="$ROOT" --emit=mpi-cpp \
    -o "$3/calibrate.cc" &&
    "${CXX[@]}" "$3/calibrate.cc" -o "$3/calibrate" &&
    smpirun -np $(nodes $1) -platform "$3/platform.xml" -hostfile "$3/hosts" \
      $SMPIRUN_CFG "$3/calibrate" "$3/calibrated.machine"; } >"$log" 2>&1 &&
    [ -s "$3/calibrated.machine" ] || {
    echo "run.sh: calibrating $1-$2 failed (needs bcastc calibrate --topology): $(tail -3 "$log")" >&2
    exit 2
  }
}
# rank_flags TOPO MODEL DIR: sets RANK, bcastc's machine flags for the
# platform written in DIR (in modern mode: its machine file, made by
# calibrate when that file is `calibrate`).
rank_flags() {
  if [ $MODE = delta ]; then
    RANK=("$(model_flag $2)")
    return
  fi
  local file words=""
  file=$(machine_file "$1-$2")
  if [ "$file" = calibrate ]; then
    calibrate $1 $2 $3
    file=$3/calibrated.machine
  fi
  if [ -z "$file" ] || [ ! -f "$file" ]; then
    echo "run.sh: no machine file for $1-$2: give --machine=$1-$2=FILE, --machine=FILE or --machine=calibrate" >&2
    exit 2
  fi
  file="$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
  [ $2 = all ] && ! grep -q 'ports=' "$file" && words="ports=all"
  # Machine files of modern platforms: concurrent messages share links
  # and interfaces as flows (contention=share), as SimGrid's CM02 does.
  grep -q 'contention=' "$file" || words="$words contention=share"
  grep -q 'timing=' "$file" || words="$words timing=ranks"
  RANK=("--machine=$file")
  [ -n "$words" ] && RANK+=("--model=${words# }")
  return 0
}
# SMPI puts 16 bytes of envelope on every message (1.28 us at the Delta's
# a), so plans are ranked and shaped for the length on the wire; the
# emitted code works for every count and runs at the benchmark's.
SMPI_ENVELOPE=16

# MPI_Bcast at every size, one binary for all built-ins and platforms.
{
  echo '#include "BenchEntry.h"'
  echo 'const BenchEntry BenchEntries[] = {'
  for s in $SIZES; do echo "  {\"MPI_Bcast\", ${s}LL, MPI_Bcast},"; done
  echo '};'
  echo "const int NumBenchEntries = $(echo $SIZES | wc -w);"
} >"$WORK/builtin_table.cc"
"${CXX[@]}" "$SRC/bcast_timer.cc" "$WORK/builtin_table.cc" \
  -o "$WORK/builtin" 2>"$WORK/builtin.log" || {
  cat "$WORK/builtin.log" >&2
  exit 2
}

# `job TAG PREFIX STOP RANKS "REF:RATIO..." COMMAND...` writes a job that
# runs COMMAND over every size in one smpirun (run_job.sh), each size
# within its own timeout (for RANKS ranks; four times that for our plan
# sets, which run --top plans) and the budget, and labels the output lines
# with PREFIX. With STOP=1 (built-ins), a size that fails or times out ends
# the job: larger sizes are `not-run` (a built-in that deadlocks at 8 B
# would otherwise burn a timeout per size); so does a run predicted to pass
# its timeout (`predicted-Ns`) by the jobs REF of the same built-in on
# platforms run before with at most as many ranks (wall time x RATIO^2,
# RATIO the rank ratio; a run that did not finish there is not started
# here). Pipelined built-ins with 8 KiB segments simulate ~10^5 concurrent
# messages at 16 MiB, far worse than linearly: NTSL takes 0.3 s at 1 MiB
# and 16 s at 16 MiB on 64 ranks.
job=0
job() {
  local tag=$1 prefix=$2 stop=$3 ranks=$4 refs=$5 limits="" s
  shift 5
  job=$((job + 1))
  for s in $SIZES; do
    limits="$limits $(( (TIMEOUT + s / 1024 * TIMEOUT_PER_MIB * ranks / (1024 * 256)) * (4 - 3 * stop) ))"
  done
  printf '%q ' bash "$SRC/run_job.sh" "$WORK" "$tag" "$prefix" "$stop" \
    "$limits" "$DEADLINE" "$refs" "$SIZES" -- "$@" \
    >"$WORK/jobs/$(printf %05d $job).sh"
  echo >>"$WORK/jobs/$(printf %05d $job).sh"
}

dirs=()
for topo in $TOPOLOGIES; do
  for model in $MODELS; do
    dir="$WORK/${topo//:/_}-$model"
    mkdir -p "$dir"
    dirs+=("$dir")
    platform_flags
    "$MAKE_PLATFORM" --topology="$topo" --ports="$model" \
      ${PLATFORM_FLAGS[@]+"${PLATFORM_FLAGS[@]}"} \
      -o "$dir/platform.xml" --hostfile="$dir/hosts"
    rank_flags $topo $model "$dir"
    # Our candidates: the --top best of `bcastc algorithms` per size (and,
    # in modern mode, auto's pick); predicted.tsv: topology model bytes
    # algorithm rank predicted_us (rank `auto` for auto's pick).
    table="$dir/ours_table.cc"
    echo '#include "BenchEntry.h"' >"$table"
    entries=""
    k=0
    for s in $SIZES; do
      wire=$((s + SMPI_ENVELOPE))
      ranked=$("$BCASTC" algorithms --topology="$topo" --root="$ROOT" \
        --bytes="$wire" "${RANK[@]}" |
        awk -v top="$TOP" '$1 ~ /^[0-9]+$/ && ++n <= top {print $1, $2, $3}')
      echo "$ranked" | awk -v t="$topo" -v m="$model" -v s="$s" \
        'NF == 3 {print t "\t" m "\t" s "\t" $2 "\t" $1 "\t" $3}' >>"$WORK/predicted.tsv"
      algs=$(echo "$ranked" | awk '{print $2}')
      if [ $MODE = modern ]; then
        auto=$("$BCASTC" cost --topology="$topo" --root="$ROOT" --bytes="$wire" \
          "${RANK[@]}" --algorithm=auto --format=json |
          awk -F'"' '$2 == "algorithm" {print $4; exit}')
        printf '%s\t%s\t%s\t%s\tauto\t-\n' "$topo" "$model" "$s" "$auto" \
          >>"$WORK/predicted.tsv"
        echo "$algs" | grep -qx "$auto" || algs="$algs $auto"
      fi
      for alg in $algs; do
        f="$dir/plan_$k.cc"
        if "$BCASTC" compile --topology="$topo" --root="$ROOT" --bytes="$wire" \
          "${RANK[@]}" --algorithm="$alg" --emit=mpi-cpp \
          --function-name="bcastc_plan_$k" -o "$f" >"$f.report" 2>&1; then
          echo "extern \"C\" int bcastc_plan_$k(void *, int, MPI_Datatype, int, MPI_Comm);" >>"$table"
          entries="$entries  {\"$alg\", ${s}LL, bcastc_plan_$k},\n"
          k=$((k + 1))
        else
          echo "note: $topo $model $s: $alg not emitted: $(tail -1 "$f.report")" \
            >>"$WORK/notes.txt"
          rm -f "$f"
        fi
      done
    done
    printf 'const BenchEntry BenchEntries[] = {\n%b};\n' "$entries" >>"$table"
    echo "const int NumBenchEntries = $k;" >>"$table"
  done
done
# Our binaries, --jobs compiles at a time.
printf '%s\n' "${dirs[@]}" | xargs -P "$JOBS" -I{} sh -c \
  'cd {} && '"${CXX[*]}"' '"$SRC"'/bcast_timer.cc ours_table.cc plan_*.cc -o ours 2>ours.log || echo "compile failed" >>ours.log'

platforms=() # "TAG:RANKS" of the platforms whose jobs come earlier
for topo in $TOPOLOGIES; do
  n=$(nodes $topo)
  for model in $MODELS; do
    dir="$WORK/${topo//:/_}-$model"
    tag="${topo//:/_}-$model"
    run="smpirun -platform $dir/platform.xml -hostfile $dir/hosts $SMPIRUN_CFG"
    # Warm like the built-ins: a plan's first call on a communicator
    # duplicates it (its private communicator, cached on it), as an
    # application pays once; the timed call is every later call.
    job "$tag-ours" "$topo $model ours" 0 $n "" $run $dir/ours $ROOT
    for b in $BUILTINS; do
      refs=""
      for p in ${platforms[@]+"${platforms[@]}"}; do
        [ ${p#*:} -le $n ] &&
          refs="$refs ${p%:*}-$b:$(( (n + ${p#*:} - 1) / ${p#*:} ))"
      done
      job "$tag-$b" "$topo $model builtin:$b" 1 $n "$refs" \
        $run --cfg=smpi/bcast:$b $WORK/builtin $ROOT --stop-on-failure
    done
    platforms+=("$tag:$n")
  done
done

# In --topologies order (list the cheapest first): what the budget cuts is
# the largest sizes of the last platforms.
ls "$WORK"/jobs/*.sh | sort | xargs -P "$JOBS" -n 1 bash
fi

# results.tsv: topology model who algorithm bytes time_us status
cat "$WORK"/out/*.txt | awk '
  $4 == "RESULT" {
    who = $3; alg = $5
    if (who ~ /^builtin:/) { alg = substr(who, 9); who = "builtin" }
    print $1 "\t" $2 "\t" who "\t" alg "\t" $6 "\t" $7 "\t" $8
  }
  $4 == "rc" && $5 != "0" {
    status = $5 == "skipped" || $5 == "not-run" ? $5 : $5 == "124" ? "timed-out" : $5 == "predicted" ? "predicted-" $7 "s" : "rc=" $5
    alg = $3; who = $3
    if (who ~ /^builtin:/) { alg = substr(who, 9); who = "builtin" }
    print $1 "\t" $2 "\t" who "\t" alg "\t" $6 "\t-\t" status
  }
' >"$WORK/results.tsv"

# modern_tables: from predicted.tsv and results.tsv, per plan its predicted
# and simulated time, then per platform and size the worst ratio of the
# top plans and auto's pick against the best bcastc plan and built-in.
modern_tables() {
  awk -F'\t' -v sizes="$SIZES" -v topos="$TOPOLOGIES" -v models="$MODELS" '
  function human(b) {
    if (b >= 1048576 && b % 1048576 == 0) return b / 1048576 " MiB"
    if (b >= 1024 && b % 1024 == 0) return b / 1024 " KiB"
    return b " B"
  }
  function off(r) { return r >= 1 ? r : 1 / r } # distance from 1, as a factor
  FNR == NR {
    k = $1 SUBSEP $2 SUBSEP $3
    if ($5 == "auto") { autopick[k] = $4; next }
    n = ++nplans[k]; plan[k, n] = $4; rnk[k, n] = $5; pred[k, $4] = $6
    next
  }
  $7 == "ok" {
    k = $1 SUBSEP $2 SUBSEP $5
    if ($3 == "ours") sim[k, $4] = $6
    if ($3 == "ours" && (!(k in best) || $6 + 0 < best[k] + 0)) { best[k] = $6; bestname[k] = $4 }
    if ($3 == "builtin" && (!(k in bi) || $6 + 0 < bi[k] + 0)) { bi[k] = $6; biname[k] = $4 }
  }
  END {
    nt = split(topos, T, " "); ns = split(sizes, S, " "); nm = split(models, M, " ")
    print "| platform | size | rank | plan | predicted (us) | simulated (us) | simulated / predicted |"
    print "|---|---|---:|---|---:|---:|---:|"
    for (t = 1; t <= nt; ++t) for (m = 1; m <= nm; ++m) for (s = 1; s <= ns; ++s) {
      k = T[t] SUBSEP M[m] SUBSEP S[s]
      for (i = 1; i <= nplans[k]; ++i) {
        a = plan[k, i]
        r = (k SUBSEP a) in sim ? sim[k, a] / pred[k, a] : ""
        printf "| %s %s-port | %s | %d | %s | %.3f | %s | %s |\n", T[t], M[m], human(S[s]), rnk[k, i], a, pred[k, a], \
          ((k SUBSEP a) in sim) ? sim[k, a] : "-", r == "" ? "-" : sprintf("%.3f", r)
        if (r == "") continue
        if (!(k in worst) || off(r) > off(worst[k])) { worst[k] = r; worstname[k] = a }
        ++nr; if (!wall || off(r) > off(wall)) { wall = r; wallname = a " on " T[t] " " M[m] "-port at " human(S[s]) }
        if (!lo || r < lo) lo = r; if (!hi || r > hi) hi = r
        within += off(r) <= 1.15
      }
    }
    print ""
    print "| platform | size | worst sim / pred (plan) | auto picks | time (us) | best bcastc plan | time (us) | auto / best | best MPI_Bcast | time (us) | auto / built-in |"
    print "|---|---|---|---|---:|---|---:|---:|---|---:|---:|"
    for (t = 1; t <= nt; ++t) for (m = 1; m <= nm; ++m) for (s = 1; s <= ns; ++s) {
      k = T[t] SUBSEP M[m] SUBSEP S[s]
      a = autopick[k]
      at = (k SUBSEP a) in sim ? sim[k, a] : ""
      line = "| " T[t] " " M[m] "-port | " human(S[s]) " | "
      line = line ((k in worst) ? sprintf("%.3f (%s)", worst[k], worstname[k]) : "-") " | "
      line = line (a == "" ? "-" : a) " | " (at == "" ? "-" : at) " | "
      line = line ((k in best) ? bestname[k] " | " best[k] : "- | -") " | "
      line = line ((at != "" && (k in best)) ? sprintf("%.3f", at / best[k]) : "-") " | "
      line = line ((k in bi) ? biname[k] " | " bi[k] : "- | -") " | "
      line = line ((at != "" && (k in bi)) ? sprintf("%.3f", at / bi[k]) : "-") " |"
      print line
      if (at != "" && (k in best)) { ++na; nbest += at <= 1.05 * best[k] }
      if (at != "" && (k in bi)) { ++nb; nbi += at <= bi[k] + 0 }
    }
    print ""
    if (nr) printf "simulated / predicted over %d top plans: %.3f to %.3f; worst %.3f (%s); %d within 15 %%\n", nr, lo, hi, wall, wallname, within
    printf "auto within 5 %% of the best simulated bcastc plan: %d of %d; auto <= the best built-in: %d of %d\n", nbest, na, nbi, nb
  }' "$WORK/predicted.tsv" "$WORK/results.tsv"
}

STATUS=0
awk -F'\t' -v sizes="$SIZES" -v topos="$TOPOLOGIES" -v models="$MODELS" '
  function human(b) {
    if (b >= 1048576 && b % 1048576 == 0) return b / 1048576 " MiB"
    if (b >= 1024 && b % 1024 == 0) return b / 1024 " KiB"
    return b " B"
  }
  {
    if ($7 == "timed-out" || $7 == "skipped" || $7 ~ /^predicted/) {
      cut[$1 " " $2 " " $5 " " $3 " " $4] = $7; next
    }
    if ($7 == "not-run") {
      after[$1 " " $2 " " $3 " " $4] = after[$1 " " $2 " " $3 " " $4] " " $5; next
    }
    if ($7 != "ok") { bad[$1 " " $2 " " $5 " " $3 " " $4] = $7; next }
    key = $1 SUBSEP $2 SUBSEP $5 SUBSEP $3
    if (!(key in best) || $6 + 0 < best[key] + 0) { best[key] = $6; name[key] = $4 }
  }
  END {
    print "| topology | size | model | our best plan | time (us) | best MPI_Bcast | time (us) | ours / built-in |"
    print "|---|---|---|---|---:|---|---:|---:|"
    nt = split(topos, T, " "); ns = split(sizes, S, " "); nm = split(models, M, " ")
    for (t = 1; t <= nt; ++t) for (s = 1; s <= ns; ++s) for (m = 1; m <= nm; ++m) {
      o = T[t] SUBSEP M[m] SUBSEP S[s] SUBSEP "ours"
      b = T[t] SUBSEP M[m] SUBSEP S[s] SUBSEP "builtin"
      line = "| " T[t] " | " human(S[s]) " | " M[m] "-port | "
      line = line ((o in best) ? name[o] " | " best[o] : "- | -") " | "
      line = line ((b in best) ? name[b] " | " best[b] : "- | -") " | "
      line = line (((o in best) && (b in best)) ? sprintf("%.3f", best[o] / best[b]) : "-") " |"
      print line
    }
    for (k in bad) print "failed: " k " " bad[k] | "sort"
    close("sort")
    for (k in cut) print "not run to the end: " k " " cut[k] | "sort"
    close("sort")
    for (k in after) print "not run after failing at a smaller size: " k ":" after[k] | "sort"
  }
' "$WORK/results.tsv" >"$WORK/table.md"
if [ $MODE = modern ]; then
  [ -f "$WORK/predicted.tsv" ] || { echo "run.sh: no $WORK/predicted.tsv" >&2; exit 2; }
  { modern_tables; grep -v '^|' "$WORK/table.md" || true; } >"$WORK/table_modern.md"
  mv "$WORK/table_modern.md" "$WORK/table.md"
fi
cat "$WORK/table.md"
[ -f "$WORK/notes.txt" ] && cat "$WORK/notes.txt"
if grep -q "^failed: [^ ]* [^ ]* [^ ]* ours" "$WORK/table.md"; then
  echo "run.sh: one of our plans failed (see $WORK/out)" >&2
  STATUS=1
fi
echo "wall time: $(($(date +%s) - START)) s; work directory $WORK"
if [ -n "$OUT" ]; then
  cp "$WORK/table.md" "$OUT"
fi
exit $STATUS
