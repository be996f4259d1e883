#!/usr/bin/env bash
# Runs the whole test suite twice: installs what is missing, then
# `bazel test //...` (offline) and the same suite under AddressSanitizer and
# UndefinedBehaviorSanitizer (`--config=sanitize`, see .bazelrc: all but the
# plain_only end-to-end tests; the MPI tests that remain instrument the
# emitted code they compile too). Extra arguments go to
# both `bazel test` runs. BCASTC_SKIP_SANITIZE=1 skips the second pass.
# Ends with a `N passed, N failed` line over both passes.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/tools/setup.sh" --test || exit 1
cd "$here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

total_passed=0
total_failed=0
status=0
# run_pass NAME BAZEL_TEST_ARGS...
run_pass() {
  local name=$1
  shift
  echo "=== test.sh: $name pass: bazel test $* ==="
  bazel test "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]} passed failed
  passed=$(grep -cE "^//[^ ]+ +(\(cached\) )?PASSED" "$log")
  failed=$(grep -cE "^//[^ ]+ +(FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)" "$log")
  echo "$name: ${passed} passed, ${failed} failed"
  if [ "$rc" -eq 0 ] && [ "$passed" -eq 0 ]; then
    echo "test.sh: no test ran in the $name pass" >&2
    rc=1
  fi
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  [ "$rc" -eq 0 ] || status=$rc
}

SECONDS=0
run_pass plain //... "$@"
plain_seconds=$SECONDS
if [ "${BCASTC_SKIP_SANITIZE:-0}" != 1 ]; then
  run_pass sanitize --config=sanitize //... "$@"
fi
echo "plain pass ${plain_seconds}s, total ${SECONDS}s"
echo "${total_passed} passed, ${total_failed} failed"
exit "$status"
