#!/bin/bash
#===- tests/install/install_test.sh - //:install into a temporary prefix --===#
#
# install_test.sh INSTALL_SH ARGS...: runs tools/install.sh with //:install's
# arguments into a prefix under TEST_TMPDIR, then uses what it installed
# without Bazel: the files are there, bin/bcastc runs from the prefix and
# compiles a plan, a C file including <bcastc/bcastc_broadcast.h> compiles
# with mpicc -Werror and links with that plan's code, lib/libbcastc_pmpi.so
# exports MPI_Bcast, and the man page renders (man -l, groff) without
# warnings and names every command.
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

WORK=${TEST_TMPDIR:-$(mktemp -d)}
PREFIX="$WORK/prefix with space"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

install_sh=$1
shift
bash "$install_sh" "$@" --prefix="$PREFIX" >"$WORK/install.out" 2>&1 ||
  { cat "$WORK/install.out"; fail "install.sh exited non-zero"; }

for f in bin/bcastc lib/libbcastc_pmpi.so include/bcastc/bcastc_broadcast.h \
         share/man/man1/bcastc.1; do
  [ -f "$PREFIX/$f" ] || fail "$f not installed"
done
[ -x "$PREFIX/bin/bcastc" ] || fail "bin/bcastc is not executable"

# Usage errors: no prefix, an unknown argument.
bash "$install_sh" "$@" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "no --prefix" "$WORK/err" || fail "install.sh without --prefix did not exit 2"

# The tool runs from the prefix, with no Bazel paths in the environment.
cd "$WORK"
env -i PATH=/usr/bin:/bin "$PREFIX/bin/bcastc" compile --topology=linear:6 \
  --root=2 --algorithm=bst --emit=mpi-cpp -o "$WORK/bcast.cc" >"$WORK/compile.out" 2>&1 ||
  { cat "$WORK/compile.out"; fail "the installed bcastc did not compile a plan"; }

# A C caller needs only the installed header.
cat >"$WORK/caller.c" <<'C'
#include <bcastc/bcastc_broadcast.h>
int call(void *buf, int n) { return bcastc_broadcast(buf, n, MPI_BYTE, 2, MPI_COMM_WORLD); }
C
mpicc -std=c99 -Wall -Wextra -Werror -pedantic -I"$PREFIX/include" -c "$WORK/caller.c" \
  -o "$WORK/caller.o" 2>"$WORK/cc.err" || { cat "$WORK/cc.err"; fail "caller.c did not compile against the header"; }
cat >"$WORK/main.c" <<'C'
#include <mpi.h>
int call(void *buf, int n);
int main(int argc, char **argv) { (void)argc; (void)argv; return 0; }
C
if [ -f "$WORK/caller.o" ]; then
  mpicc -c "$WORK/main.c" -o "$WORK/main.o" &&
    mpicxx "$WORK/main.o" "$WORK/caller.o" "$WORK/bcast.cc" -o "$WORK/app" 2>"$WORK/ld.err" ||
    { cat "$WORK/ld.err"; fail "the caller did not link with the emitted code"; }
fi

# Into a file: `nm | grep -q` under pipefail fails when grep stops reading
# early (nm's SIGPIPE), as with the sanitizers' longer symbol list.
nm -D --defined-only "$PREFIX/lib/libbcastc_pmpi.so" >"$WORK/nm.txt"
grep -qw MPI_Bcast "$WORK/nm.txt" || fail "libbcastc_pmpi.so does not export MPI_Bcast"

page="$PREFIX/share/man/man1/bcastc.1"
if command -v man >/dev/null; then
  MANWIDTH=80 man -l -P cat "$page" >"$WORK/man.txt" 2>"$WORK/man.err" || fail "man -l failed"
else
  groff -man -Tutf8 "$page" >"$WORK/man.txt" 2>"$WORK/man.err" || fail "groff failed"
fi
groff -man -Tutf8 -ww -z "$page" 2>"$WORK/groff.err"
[ -s "$WORK/groff.err" ] && { cat "$WORK/groff.err"; fail "groff warns about the page"; }
for want in NAME SYNOPSIS 'COMMAND: compile' 'COMMAND: verify' 'COMMAND: cost' \
            'COMMAND: algorithms' '--topology' '--emit'; do
  grep -q -- "$want" "$WORK/man.txt" || fail "the rendered man page lacks '$want'"
done

echo "$FAILED failures"
[ $FAILED -eq 0 ]
