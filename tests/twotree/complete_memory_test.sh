#!/bin/bash
# two-tree on complete:16384 within 1 GB of address space. The round packer
# (compiler/lowering/pipeline/RankSchedule.cpp) once kept a counter per link
# id, n^2 = 2.7e8 of them here (2.1 GB a step), and complete:65536 died of
# "LLVM ERROR: out of memory". The plan itself needs about 200 MB.
set -u
bcastc=$1
if [ -n "${BCASTC_ASAN:-}" ]; then
  # ASan reserves terabytes of address space: ulimit -v cannot apply.
  echo "skipped under AddressSanitizer"
  exit 0
fi
ulimit -v 1000000
out=$("$bcastc" compile --topology=complete:16384 --algorithm=two-tree \
  --bytes=64KiB -o /dev/null 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! grep -q "^verified: 0 errors" <<<"$out"; then
  echo "two-tree on complete:16384 failed within 1 GB (exit $rc):"
  echo "$out" | tail -5
  exit 1
fi
echo "ok: $(grep '^time:' <<<"$out")"
