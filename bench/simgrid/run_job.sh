#!/bin/bash
#===- bench/simgrid/run_job.sh - One (platform, program) job of run.sh -----===#
#
#   run_job.sh WORK TAG PREFIX STOP LIMITS DEADLINE "REF:RATIO..." SIZES \
#       -- COMMAND...
#
# Runs COMMAND LIST (a bcast_timer under smpirun) once for the comma-separated
# LIST of every size in SIZES (ascending), so SMPI's start-up and the
# SMP-aware selectors' set-up on their first call (~8 s on 256 ranks) are
# paid once, not once per size. bcast_timer prints `BEGIN BYTES` before each
# size; a size that runs longer than its entry of LIMITS (seconds, one per
# size) or past DEADLINE (epoch seconds; 0: none) is stopped (`rc 124`).
# A crash or a stop ends that size; with STOP=1 (a built-in) the larger
# sizes are `not-run`, with STOP=0 (our plan sets) COMMAND starts again at
# the next size. With STOP=1, a size predicted to pass its limit from the
# same program on the platforms run before (REF: a TAG whose walls are
# WORK/wall/REF-SIZE in ms or `unfinished`; wall x RATIO^2) is not started,
# or stopped as it begins (the references may finish while this job runs):
# `predicted`, and every larger size `not-run`.
#
# Writes, per size, WORK/out/TAG-SIZE.log (bcast_timer's RESULT lines of
# that size, then `rc CODE SIZE [MS]`), the same lines prefixed by PREFIX to
# WORK/out/TAG-SIZE.txt, and WORK/wall/TAG-SIZE (ms from this size's BEGIN
# to the next, or `unfinished`).
#
#===----------------------------------------------------------------------===#

set -uo pipefail

WORK=$1 TAG=$2 PREFIX=$3 STOP=$4 LIMITS=($5) DEADLINE=$6 REFS=$7
SIZES=($8)
shift 8
[ "$1" = -- ] && shift

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# finish SIZE CODE [MS]: writes the size's log, its prefixed copy and wall.
finish() {
  local s=$1 code=$2 ms=${3:-} out="$WORK/out/$TAG-$1"
  {
    [ -f "$LOG" ] && awk -v s="$s" '$1 == "RESULT" && $3 == s' "$LOG"
    echo "rc $code $s${ms:+ $ms}"
  } >"$out.log"
  sed "s/^/$PREFIX /" "$out.log" >"$out.txt"
  case $code in
  0 | 1) echo "$ms" >"$WORK/wall/$TAG-$s" ;;
  124 | predicted) echo unfinished >"$WORK/wall/$TAG-$s" ;;
  esac
}

# predicted_ms SIZE LIMIT: the longest wall the references predict (ms).
predicted_ms() {
  local s=$1 limit=$2 best=0 ref there ratio
  for ref in $REFS; do
    [ -f "$WORK/wall/${ref%:*}-$s" ] || continue
    there=$(cat "$WORK/wall/${ref%:*}-$s")
    # Did not finish there: more than this limit here (with RATIO >= 1).
    [ "$there" = unfinished ] && there=$((limit * 1000 + 1))
    ratio=${ref#*:}
    there=$((there * ratio * ratio))
    [ $there -gt $best ] && best=$there
  done
  echo $best
}

# finish_rest FROM CODE: the sizes from index FROM up to `end`, never run.
finish_rest() {
  local m
  for ((m = $1; m < end; ++m)); do LOG="" finish ${SIZES[$m]} $2; done
}

# past_deadline [SLACK]: whether the budget ends within SLACK seconds.
past_deadline() {
  [ "$DEADLINE" -gt 0 ] && [ $(($(date +%s) + ${1:-0})) -ge "$DEADLINE" ]
}

# note_begins MS: records MS for the sizes whose BEGIN line is new in LOG.
note_begins() {
  local b
  for b in $(awk '$1 == "BEGIN" {print $2}' "$LOG"); do
    [ -n "${at[$b]:-}" ] && continue
    at[$b]=$1
    order+=($b)
  done
}

LOG=""
i=0
end=${#SIZES[@]} # sizes from here on were predicted out
run=0
while [ $i -lt $end ]; do
  # The sizes this process runs: from i up to the first predicted one.
  list=() j=$i
  while [ $j -lt $end ]; do
    p=$(predicted_ms ${SIZES[$j]} ${LIMITS[$j]})
    if [ "$STOP" = 1 ] && [ $p -gt $((LIMITS[j] * 1000)) ]; then
      LOG="" finish ${SIZES[$j]} predicted $((p / 1000))
      finish_rest $((j + 1)) not-run
      end=$j
      break
    fi
    list+=(${SIZES[$j]})
    j=$((j + 1))
  done
  [ ${#list[@]} = 0 ] && break
  if past_deadline 4; then
    for s in "${list[@]}"; do LOG="" finish $s skipped; done
    break
  fi

  run=$((run + 1))
  LOG="$WORK/out/$TAG.run$run"
  setsid "$@" "$(IFS=,; echo "${list[*]}")" >"$LOG" 2>&1 &
  pid=$!
  started=$(now_ms)
  unset at
  declare -A at # size -> ms at which its BEGIN was seen
  order=()      # the sizes begun, in order
  stopped=0 cut="" checked=""
  while kill -0 $pid 2>/dev/null; do
    sleep 0.2
    note_begins $(now_ms)
    cur=${list[0]}
    [ ${#order[@]} -gt 0 ] && cur=${order[$((${#order[@]} - 1))]}
    since=${at[$cur]:-$started}
    for ((k = 0; k < ${#SIZES[@]}; ++k)); do
      [ "${SIZES[$k]}" = "$cur" ] && limit=${LIMITS[$k]}
    done
    # The references may have finished this size since the job started
    # (jobs run side by side): predict again when a size begins.
    if [ "$STOP" = 1 ] && [ -n "${at[$cur]:-}" ] && [ "$cur" != "$checked" ]; then
      checked=$cur
      p=$(predicted_ms $cur $limit)
      [ $p -gt $((limit * 1000)) ] && cut=$p
    fi
    if [ -n "$cut" ] || [ $(($(now_ms) - since)) -gt $((limit * 1000)) ] ||
      past_deadline; then
      stopped=1
      kill -TERM -- -$pid 2>/dev/null
      for _ in 1 2 3 4 5; do kill -0 $pid 2>/dev/null && sleep 0.2; done
      kill -KILL -- -$pid 2>/dev/null
      break
    fi
  done
  wait $pid
  rc=$?
  ended=$(now_ms)
  note_begins $ended

  # The sizes of list before the last one begun completed (a size without
  # entries begins nothing); so did the rest when bcast_timer printed DONE
  # and exited by itself with 0 or 1 (1: a wrong byte somewhere). Otherwise
  # the last one begun (the first, if none) was stopped for time, died, or
  # failed under --stop-on-failure (rc 1).
  clean=$([ $stopped = 0 ] && { [ $rc = 0 ] || [ $rc = 1 ]; } &&
    grep -q '^DONE' "$LOG" && echo 1 || echo 0)
  last=-1
  for ((k = 0; k < ${#list[@]}; ++k)); do
    [ -n "${at[${list[$k]}]:-}" ] && last=$k
  done
  bad=$([ $clean = 1 ] && echo ${#list[@]} || echo $((last < 0 ? 0 : last)))
  for ((k = 0; k < bad; ++k)); do
    s=${list[$k]}
    ms=0
    if [ -n "${at[$s]:-}" ]; then
      t1=$ended
      for ((m = k + 1; m < ${#list[@]}; ++m)); do
        [ -n "${at[${list[$m]}]:-}" ] && { t1=${at[${list[$m]}]}; break; }
      done
      ms=$((t1 - ${at[$s]}))
    fi
    code=0
    awk -v s="$s" '$1 == "RESULT" && $3 == s && $5 != "ok"' "$LOG" | grep -q . && code=1
    finish $s $code $ms
  done
  i=$((i + bad))
  [ $clean = 1 ] && continue
  s=${list[$bad]}
  ms=$((ended - ${at[$s]:-$started}))
  if [ -n "$cut" ]; then
    finish $s predicted $((cut / 1000))
    finish_rest $((i + 1)) not-run
    exit 0
  fi
  if [ $stopped = 1 ] && past_deadline; then
    finish $s 124 $ms # cut by the budget: nothing more starts
    finish_rest $((i + 1)) skipped
    exit 0
  fi
  if [ $stopped = 1 ]; then finish $s 124 $ms; else finish $s $rc $ms; fi
  i=$((i + 1))
  if [ "$STOP" = 1 ]; then
    finish_rest $i not-run
    exit 0
  fi
done
exit 0
