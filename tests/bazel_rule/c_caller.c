/*===- tests/bazel_rule/c_caller.c - The emitted function called from C ---===*
 *
 * c_caller ROOT, under mpirun on the plan's rank count: broadcasts 1000 ints
 * and 3 bytes from ROOT through the function a bcast_plan target emitted,
 * declared by the rule's header output (no hand-written prototype), and
 * checks every rank got them. Prints `rank R: ok` or what differed.
 *
 *===----------------------------------------------------------------------===*/

#include <stdio.h>
#include <stdlib.h>

#include "tests/bazel_rule/bcast_linear7_c.h"

int main(int argc, char **argv) {
  int rank, i, root, failures = 0;
  int values[1000];
  char bytes[3];
  MPI_Init(&argc, &argv);
  root = argc > 1 ? atoi(argv[1]) : 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (i = 0; i < 1000; ++i)
    values[i] = rank == root ? 7 * i + 1 : -1;
  for (i = 0; i < 3; ++i)
    bytes[i] = (char)(rank == root ? 'a' + i : 0);
  if (bcastc_from_c(values, 1000, MPI_INT, root, MPI_COMM_WORLD) != MPI_SUCCESS ||
      bcastc_from_c(bytes, 3, MPI_CHAR, root, MPI_COMM_WORLD) != MPI_SUCCESS)
    ++failures;
  for (i = 0; i < 1000; ++i)
    failures += values[i] != 7 * i + 1;
  for (i = 0; i < 3; ++i)
    failures += bytes[i] != 'a' + i;
  if (failures)
    printf("rank %d: %d wrong\n", rank, failures);
  else
    printf("rank %d: ok\n", rank);
  MPI_Finalize();
  return failures != 0;
}
