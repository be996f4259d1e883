#!/bin/sh
# Bazel's --workspace_status_command (.bazelrc): the git commit of the
# source tree for bcastc --version. A STABLE_ key, so a stamped build is
# redone when the commit changes; only builds with --define=bcastc_stamp=1
# (--config=release, the ./bcastc wrapper) read it (see BUILD). Never fails:
# outside a git checkout there is no commit.
commit=$(git rev-parse HEAD 2>/dev/null) || commit=
dirty=
if [ -n "$commit" ] && ! git diff --quiet HEAD 2>/dev/null; then
  dirty=-dirty
fi
echo "STABLE_BCASTC_GIT_COMMIT ${commit:-unknown}${commit:+$dirty}"
exit 0
