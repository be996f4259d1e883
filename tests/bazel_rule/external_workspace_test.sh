#!/bin/bash
#===- tests/bazel_rule/external_workspace_test.sh - @bcastc from outside -===#
#
# external_workspace_test.sh BCASTC [--from-source]
#
# Builds the README's minimal external workspace in TEST_TMPDIR with its own
# Bazel (own output root, no ~/.bazelrc, offline): WORKSPACE is
# local_repository(@bcastc -> this repository) + bcastc_dependencies(),
# .bazelrc sets C++17, and
# app/BUILD loads @bcastc//tools:bcast_plan.bzl for a plan built with the
# workspace's own machine file (a label) and a C program that includes the
# rule's header output. Checks: the build succeeds in the sandbox (the
# machine file was staged), the report (a named output) shows the file's
# values, the header declares the function, the program runs under mpirun
# on every rank, and an edited machine file rebuilds the report.
#
# BCASTC (the suite's build of //compiler/driver:bcastc) is given to the
# rule's `bcastc` attribute, so the test does not compile the compiler a
# second time (minutes on a loaded machine); the runtime genrule, the one
# step whose output names paths, is built from @bcastc and checked.
# --from-source leaves the attribute at its default and builds the compiler
# from @bcastc for the exec configuration, as a user would (the manual
# target external_workspace_from_source_test: 13 minutes on 2 loaded cores).
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

WORK=${TEST_TMPDIR:-$(mktemp -d)}
source "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tests/mpi/mpi_env.sh"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

tool=$(readlink -f "$1")
from_source=0
[ "${2:-}" = --from-source ] && from_source=1
# The repository itself: the runfile of the rule points into its tree.
rule=$(readlink -f "${TEST_SRCDIR:-.}/${TEST_WORKSPACE:-bcastc}/tools/bcast_plan.bzl")
repo=$(dirname "$(dirname "$rule")")
[ -f "$repo/WORKSPACE" ] || { echo "FAIL: no repository at $repo"; exit 1; }

ws="$WORK/consumer"
mkdir -p "$ws/app" "$ws/tool"
cat >"$ws/WORKSPACE" <<EOT
workspace(name = "consumer")

local_repository(name = "bcastc", path = "$repo")

load("@bcastc//tools:deps.bzl", "bcastc_dependencies")

bcastc_dependencies()
EOT
# Bazel 4's default C++ toolchain compiles with -std=c++0x; bcastc is C++17.
echo 'build --cxxopt=-std=c++17 --host_cxxopt=-std=c++17' >"$ws/.bazelrc"
cp "$tool" "$ws/tool/bcastc.bin"
cat >"$ws/tool/BUILD" <<'EOT'
sh_binary(
    name = "bcastc",
    srcs = ["bcastc.bin"],
    visibility = ["//visibility:public"],
)
EOT
tool_attr='    bcastc = "//tool:bcastc",'
[ $from_source -eq 1 ] && tool_attr=
cat >"$ws/app/BUILD" <<EOT
load("@bcastc//tools:bcast_plan.bzl", "bcast_plan")

bcast_plan(
    name = "bcast7",
    topology = "linear:7",
    root = 6,
    algorithm = "st",
    function_name = "app_bcast",
    machine = "site.machine",
$tool_attr
)

cc_binary(
    name = "app",
    srcs = ["app.c", ":bcast7"],
    deps = ["@mpi"],
)
EOT
echo "a=0.02 b=31 rho=0" >"$ws/app/site.machine"
cat >"$ws/app/app.c" <<'EOT'
#include <stdio.h>
#include "app/bcast7.h"

int main(int argc, char **argv) {
  int rank, i, bad = 0, data[100];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (i = 0; i < 100; ++i)
    data[i] = rank == 6 ? i * i : -1;
  if (app_bcast(data, 100, MPI_INT, 6, MPI_COMM_WORLD) != MPI_SUCCESS)
    bad = 1;
  for (i = 0; i < 100; ++i)
    bad += data[i] != i * i;
  printf("rank %d: %s\n", rank, bad ? "wrong" : "ok");
  MPI_Finalize();
  return bad != 0;
}
EOT

cd "$ws"
# inner COMMAND ARGS...: this workspace's own Bazel, offline, nothing from
# the user's rc file (the system's says where Debian's Bazel is installed);
# the server stops when the test ends.
inner() {
  local cmd=$1
  shift
  bazel --output_user_root="$WORK/root" --nohome_rc \
    --max_idle_secs=30 --host_jvm_args=-Xmx1g "$cmd" \
    --spawn_strategy=processwrapper-sandbox --show_result=0 "$@"
}
trap 'inner shutdown >/dev/null 2>&1' EXIT
SECONDS=0
inner build //app:app //app:bcast7.report //app:bcast7.h \
  @bcastc//backends:runtime_files_inc >"$WORK/build.log" 2>&1 ||
  { tail -40 "$WORK/build.log"; fail "the external workspace did not build"; }
echo "first build ${SECONDS}s"
bin=bazel-bin/app
# st on linear:7: 3 steps of the whole 64 KiB, 3 m a + 3 b.
grep -q '^time: 4025\.160 us' "$bin/bcast7.report" ||
  fail "the report is not costed with site.machine's a=0.02 b=31: $(cat "$bin/bcast7.report" 2>&1)"
grep -q '^int app_bcast(void \*buffer, int count, MPI_Datatype datatype,$' "$bin/bcast7.h" ||
  fail "bcast7.h does not declare app_bcast"
# The runtime's rows are named from the repository root, not external/bcastc/.
inc=bazel-bin/external/bcastc/backends/RuntimeFiles.inc
grep -q '^{"runtime/mpi/Runtime.h", R"bcastc_runtime(' "$inc" && ! grep -q '{"external/' "$inc" ||
  fail "RuntimeFiles.inc names its files by their external/ paths: $(grep -o '^{"[^"]*"' "$inc" | head -3)"

mpi_env "$WORK"
"${MPIRUN[@]}" -np 7 "$bin/app" >"$WORK/app.out" 2>"$WORK/app.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ': ok$' "$WORK/app.out")" -eq 7 ] ||
  { cat "$WORK/app.out"; head -20 "$WORK/app.err"; fail "app on 7 ranks exited with $rc"; }

# The machine file is a tracked input: editing it rebuilds the report.
echo "a=0.02 b=57 rho=0" >"$ws/app/site.machine"
inner build //app:bcast7.report >"$WORK/rebuild.log" 2>&1 ||
  { tail -20 "$WORK/rebuild.log"; fail "the rebuild failed"; }
grep -q '^time: 4103\.160 us' "$bin/bcast7.report" ||
  fail "the report did not follow the edited machine file (b=57): $(cat "$bin/bcast7.report")"
echo "total ${SECONDS}s"

echo "$FAILED failures"
[ $FAILED -eq 0 ]
