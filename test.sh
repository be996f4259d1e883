#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, then `bazel test //...`
# (offline). Ends with a `N passed, N failed` line.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/tools/setup.sh" || exit 1
cd "$here"
log="$(mktemp)"
bazel test //... "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
passed=$(grep -cE "^//[^ ]+ +(\(cached\) )?PASSED" "$log")
failed=$(grep -cE "^//[^ ]+ +(FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)" "$log")
rm -f "$log"
echo "${passed} passed, ${failed} failed"
if [ "$rc" -eq 0 ] && [ "$passed" -eq 0 ]; then
  echo "test.sh: no test ran" >&2
  exit 1
fi
exit "$rc"
