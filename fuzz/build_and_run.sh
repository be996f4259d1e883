#!/usr/bin/env bash
# Builds bcastc's libFuzzer targets with clang-14 and runs each for a while.
#
#   fuzz/build_and_run.sh [-t SECONDS] [-n RUNS] [-o OUTDIR] [TARGET...]
#
# Bazel's toolchain is gcc, which has no libFuzzer, so this compiles the
# targets and the library sources they need (ir/, verifier/) directly with
# clang++-14 -fsanitize=fuzzer,address,undefined. Targets default to all of
# them (PlanTextFuzzer PlanTextProtoFuzzer PlanBinaryProtoFuzzer
# SpecFuzzer); -t 0 only builds. Each target starts from a copy of its seed
# corpus (fuzz/corpus/<target>) in OUTDIR/corpus/<target>; crashes land in
# OUTDIR/artifacts/<target>/ and make the script fail. The last line per
# target is `TARGET: N execs in S s`. -n stops each target after RUNS
# executions instead (-t then only caps the time, default 6 h). FUZZ_OPT overrides -O1 (the smoke test
# builds with -O0, which compiles faster).
#
# Needs clang-14 and libclang-rt-14-dev (tools/setup.sh installs them); this
# script installs nothing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60
runs=0
out="${TMPDIR:-/tmp}/bcastc-fuzz"
seconds_given=0
while getopts "t:n:o:" opt; do
  case "$opt" in
    t) seconds="$OPTARG"; seconds_given=1 ;;
    n) runs="$OPTARG" ;;
    o) out="$OPTARG" ;;
    *) echo "usage: $0 [-t SECONDS] [-n RUNS] [-o OUTDIR] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ "$runs" != 0 ] && [ "$seconds_given" = 0 ]; then seconds=21600; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(PlanTextFuzzer PlanTextProtoFuzzer PlanBinaryProtoFuzzer SpecFuzzer)
fi

CXX="${CXX_FUZZ:-clang++-14}"
if ! command -v "$CXX" >/dev/null; then
  echo "build_and_run.sh: $CXX not found; install clang-14 and libclang-rt-14-dev (tools/setup.sh)" >&2
  exit 1
fi
if ! command -v protoc >/dev/null; then
  echo "build_and_run.sh: protoc not found (tools/setup.sh installs protobuf-compiler)" >&2
  exit 1
fi

mkdir -p "$out/gen/ir" "$out/obj" "$out/bin"
protoc --proto_path="$here" --cpp_out="$out/gen" "$here/ir/plan.proto"

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cxxflags=(-std=c++17 -g "${FUZZ_OPT:--O1}" $san -I"$here" -I"$out/gen" -I/usr/lib/llvm-14/include
          -Wno-unused-function)
libsrcs=("$here"/ir/*.cpp "$out/gen/ir/plan.pb.cc" "$here"/verifier/*.cpp)

# Library objects: instrumented for coverage, no libFuzzer main.
objs=()
pids=()
for src in "${libsrcs[@]}"; do
  obj="$out/obj/$(basename "${src%.*}").o"
  objs+=("$obj")
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find "$here/ir" "$here/verifier" -name '*.h' -newer "$obj" -print -quit)" ]; then
    "$CXX" "${cxxflags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
    pids+=($!)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done

ldflags=(-L/usr/lib/llvm-14/lib -lLLVM-14 -Wl,-rpath,/usr/lib/llvm-14/lib -lprotobuf -lpthread)
for t in "${targets[@]}"; do
  "$CXX" "${cxxflags[@]}" -fsanitize=fuzzer "$here/fuzz/$t.cpp" "${objs[@]}" \
    "${ldflags[@]}" -o "$out/bin/$t"
done

[ "$seconds" = 0 ] && exit 0

status=0
for t in "${targets[@]}"; do
  corpus="$out/corpus/$t"
  artifacts="$out/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  cp -n "$here/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null || true
  log="$out/$t.log"
  # -rss_limit_mb and -timeout make OOMs and hangs findings too.
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
     "$out/bin/$t" -max_total_time="$seconds" -runs="$([ "$runs" = 0 ] && echo -1 || echo "$runs")" -timeout=10 -rss_limit_mb=2048 \
       -max_len=4096 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1; then
    :
  else
    status=1
    echo "$t: FAILED (see $log and $artifacts)" >&2
    tail -40 "$log" >&2
  fi
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  took=$(awk '/Done [0-9]+ runs in/ {print $(NF-1)}' "$log")
  echo "$t: $execs execs in ${took:-$seconds} s"
done
exit $status
