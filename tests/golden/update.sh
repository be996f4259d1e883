#!/bin/bash
# update.sh: regenerates tests/golden/expected/ from the current tree (like
# LLVM's update_test_checks.py): builds bcastc, runs every case of cases.txt
# and writes its output as the expected one. Review the result with
# `git diff tests/golden` before committing it.
set -eu
cd "$(dirname "$0")/../.."
bazel build //compiler/driver:bcastc
bash tests/golden/run_golden.sh --update bazel-bin/compiler/driver/bcastc tests/golden
