#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (fuzz/build_and_run.sh) and
# fuzzes each for a few seconds from its seed corpus. Installs nothing: with
# clang-14 or libclang-rt-14-dev missing it fails, naming them.
set -euo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
if ! command -v clang++-14 >/dev/null; then
  echo "fuzz_smoke_test: clang++-14 not found; run tools/setup.sh (clang-14, libclang-rt-14-dev)" >&2
  exit 1
fi
if ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "fuzz_smoke_test: libFuzzer runtime not found; run tools/setup.sh (libclang-rt-14-dev)" >&2
  exit 1
fi
out="${TEST_TMPDIR}/fuzz"
FUZZ_OPT=-O0 fuzz/build_and_run.sh -t "${FUZZ_SECONDS:-4}" -o "$out"
