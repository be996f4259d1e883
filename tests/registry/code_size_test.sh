#!/bin/bash
# No production file over 700 lines and no production function over 150
# (issue 27): tools/code_size.py over the source tree the script's runfile
# points to, with tools/code_size_allowed.txt's known offenders allowed. It
# fails on a new offender and on an allowed one that is fixed (the list
# must shrink with it). Tagged external: it reads the tree, so it is never
# cached.
set -u
# runfile(): tests/registry/runfiles.sh.
source "$(dirname "${BASH_SOURCE[0]}")/runfiles.sh"
SCRIPT=$(readlink -f "$(runfile tools/code_size.py)")
ROOT=${CODE_SIZE_ROOT:-$(dirname "$(dirname "$SCRIPT")")}
[[ -f "$ROOT/compiler/Algorithms.def" ]] || {
  echo "code_size_test: no source tree at '$ROOT'" >&2
  exit 2
}
/usr/bin/python3 "$SCRIPT" --root "$ROOT" \
  --allow "$ROOT/tools/code_size_allowed.txt"
