"""mpi_plan_cases_test: a family's broadcasts under mpirun.

CASES is a file of `bcastc compile` argument lines; tests/mpi/run_plan_cases.sh
compiles each plan to MPI C++ twice (byte-identical), builds it with
tests/mpi/harness.cc and runs it under mpirun, every byte checked.
"""

def mpi_plan_cases_test(name, cases, size = "large", shard_count = 3, tags = [], **kwargs):
    """SHARD_COUNT shards share the cases (every SHARD_COUNT-th line each),
    about four cases a shard: a case is two compiles, an mpicxx build and an
    mpirun, up to a minute on a 2-core machine loaded at 4 per core.
    plain_only: under the sanitizers a shard takes 3-4 times as long, and
    the emitted code's sanitized runs are tests/e2e and tests/runtime."""
    native.sh_test(
        name = name,
        size = size,
        tags = tags + ["plain_only"],
        shard_count = shard_count,
        srcs = ["//tests/mpi:run_plan_cases.sh"],
        deps = ["//tests/mpi:mpi_env"],
        args = [
            "$(location //tests/mpi:harness.cc)",
            "$(location //compiler/driver:bcastc)",
            "$(location %s)" % cases,
        ],
        data = [
            cases,
            "//compiler/driver:bcastc",
            "//tests/mpi:harness.cc",
        ],
        **kwargs
    )
