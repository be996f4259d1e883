#!/bin/bash
#===- tests/install/setup_split_test.sh - Each entry point's packages ----===#
#
# setup_split_test.sh SETUP_SH BCASTC_SCRIPT TEST_SH: takes the arguments
# ./bcastc and ./test.sh pass to tools/setup.sh, runs setup.sh with them and
# --dry-run (which prints the packages and installs nothing) and checks that
# ./bcastc asks for the build packages and none of the test-only ones
# (Chromium, fonts, SimGrid, clang, ...), and ./test.sh for both.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

setup=$1
BUILD_ONLY=(bazel-bootstrap g++ llvm-14-dev protobuf-compiler libprotobuf-dev libopenmpi-dev)
TEST_ONLY=(chromium fonts-liberation libsimgrid-dev clang-14 libclang-rt-14-dev
           librsvg2-bin libxml2-utils openmpi-bin libgtest-dev)

# packages_of SCRIPT: what SCRIPT's call of tools/setup.sh would install.
packages_of() {
  local line args
  line=$(grep -E '^[^#]*tools/setup\.sh"' "$1")
  [ "$(printf '%s\n' "$line" | grep -c .)" -eq 1 ] || { fail "$1 does not call tools/setup.sh exactly once"; return; }
  args=$(printf '%s\n' "$line" | sed -E 's/.*tools\/setup\.sh"//; s/\|\|.*//')
  # shellcheck disable=SC2086
  bash "$setup" $args --dry-run
}

bcastc_pkgs=$(packages_of "$2")
test_pkgs=$(packages_of "$3")
for p in "${BUILD_ONLY[@]}"; do
  grep -qx "$p" <<<"$bcastc_pkgs" || fail "./bcastc does not ask for $p"
  grep -qx "$p" <<<"$test_pkgs" || fail "./test.sh does not ask for $p"
done
for p in "${TEST_ONLY[@]}"; do
  grep -qx "$p" <<<"$bcastc_pkgs" && fail "./bcastc asks for the test-only $p"
  grep -qx "$p" <<<"$test_pkgs" || fail "./test.sh does not ask for $p"
done

# --dry-run installs nothing and exits 0 even when packages are missing; an
# unknown option is a usage error.
bash "$setup" --bogus >/dev/null 2>&1
[ $? -eq 2 ] || fail "setup.sh --bogus did not exit 2"

echo "./bcastc: $(echo $bcastc_pkgs)"
echo "$FAILED failures"
[ $FAILED -eq 0 ]
