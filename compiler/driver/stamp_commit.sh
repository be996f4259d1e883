#!/bin/sh
# Writes the C++ line that defines bcastc's build commit.
#   usage: stamp_commit.sh STATUS_FILE|- OUT.inc
# STATUS_FILE is Bazel's stable-status.txt (a stamped build); - writes
# "unknown" (an unstamped one). Only the commit is copied, so the output
# (and everything built from it) does not change with BUILD_USER/BUILD_HOST,
# which are in the same file.
status="$1"
out="$2"
commit=unknown
if [ "$status" != - ]; then
  c=$(sed -n 's/^STABLE_BCASTC_GIT_COMMIT \([0-9a-f]*\(-dirty\)\{0,1\}\)$/\1/p' "$status")
  [ -n "$c" ] && commit="$c"
fi
printf 'const char *const BuildCommit = "%s";\n' "$commit" >"$out"
