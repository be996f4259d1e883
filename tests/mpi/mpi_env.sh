#===- tests/mpi/mpi_env.sh - How every test runs Open MPI -----------------===#
#
# Sourced (bash) by every script that compiles MPI programs with mpicxx and
# runs them under mpirun: the tests' run_*.sh and tests/e2e/run_random.sh.
# One place for what Open MPI needs in Bazel's sandbox on a 2-core machine,
# and for what a sanitizer build changes.
#
# Call `mpi_env WORKDIR` after sourcing. It exports
#   TMPDIR=WORKDIR   Open MPI's session directory goes in the test's own
#                    writable directory, not a /tmp shared with other runs;
#   OMPI_MCA_btl=self,vader            shared memory only, no network probing;
#   OMPI_MCA_btl_base_warn_component_unused=0   no "no high-performance
#                    network" warning;
#   OMPI_MCA_mpi_yield_when_idle=1     oversubscribed ranks yield instead of
#                    busy-polling each other to a crawl;
#   OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1 CI runs as root (.bazelrc passes them
#                    too; set here for hand runs);
# and sets two arrays:
#   MPI_CXXFLAGS  -std=c++17 -O2 -Wall -Wextra -Werror, plus the sanitizers
#                 of the Bazel build (BCASTC_ASAN=1, BCASTC_UBSAN=1: set by
#                 .bazelrc's asan and ubsan configs, one or both), so the
#                 emitted code and the harnesses are checked too, not only
#                 bcastc;
#   MPIRUN        timeout SECONDS mpirun --oversubscribe --bind-to none
#                 (SECONDS from MPI_TIMEOUT, default 120, so a plan that
#                 deadlocks fails fast; oversubscribed: up to 17 ranks on 2
#                 cores; unbound: ranks do not share a pinned core). Under
#                 ASan the ranks run with leak checks off: Open MPI keeps
#                 allocations past MPI_Finalize that LeakSanitizer reports
#                 as leaks in every MPI program. bcastc itself, run outside
#                 mpirun, keeps the leak checks of the test environment;
# and, under ASan, exports
#   ASAN_PRELOAD  the compiler's libasan.so: a program that LD_PRELOADs an
#                 instrumented library (libbcastc_pmpi.so) must preload
#                 the ASan runtime ahead of it, which ASan insists on being
#                 first in the initial library list (empty otherwise).
#
# Sharding: a test whose BUILD rule sets shard_count runs only its share of
# the cases in each shard (each shard its own process and timeout), so a
# loaded machine stays within the timeout. `mpi_shard_init` declares shard
# support to Bazel; `mpi_shard_mine I` is true when case I (0-based, in the
# script's fixed order) belongs to this shard. Without sharding every case
# is this shard's.
#
#===----------------------------------------------------------------------===#

mpi_shard_init() {
  if [ -n "${TEST_SHARD_STATUS_FILE:-}" ]; then
    touch "$TEST_SHARD_STATUS_FILE"
  fi
  MPI_SHARD_INDEX=${TEST_SHARD_INDEX:-0}
  MPI_SHARD_TOTAL=${TEST_TOTAL_SHARDS:-1}
}

mpi_shard_mine() {
  [ $(($1 % MPI_SHARD_TOTAL)) -eq "$MPI_SHARD_INDEX" ]
}

mpi_env() {
  export TMPDIR=$1
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader
  export OMPI_MCA_btl_base_warn_component_unused=0
  export OMPI_MCA_mpi_yield_when_idle=1
  MPI_CXXFLAGS=(-std=c++17 -O2 -Wall -Wextra -Werror)
  MPIRUN=(timeout "${MPI_TIMEOUT:-120}")
  if [ -n "${BCASTC_ASAN:-}${BCASTC_UBSAN:-}" ]; then
    MPI_CXXFLAGS+=(-g -fno-omit-frame-pointer)
  fi
  ASAN_PRELOAD=
  if [ -n "${BCASTC_ASAN:-}" ]; then
    MPI_CXXFLAGS+=(-fsanitize=address)
    ASAN_PRELOAD=$(mpicxx -print-file-name=libasan.so)
    # Later flags win: the environment's options, leak checks off.
    MPIRUN+=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
  fi
  if [ -n "${BCASTC_UBSAN:-}" ]; then
    MPI_CXXFLAGS+=(-fsanitize=undefined -fno-sanitize-recover=all)
  fi
  MPIRUN+=(mpirun --oversubscribe --bind-to none)
  mpi_shard_init
}
