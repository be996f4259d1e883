//===- tests/e2e/CaseTable.h - Plans linked into one harness ----*- C++ -*-===//
//
// run_random.sh links many emitted plans of one rank count into a single MPI
// program (one mpicxx and one mpirun per rank count, not per case); it
// writes the table below, and e2e_harness.cc calls every entry in order on
// every rank and checks every byte.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_E2E_CASETABLE_H
#define BCASTC_TESTS_E2E_CASETABLE_H

namespace e2e {

enum class Collective { Broadcast, Multibroadcast, Allgather, Allreduce };

/// One call of a plan's function (CaseGenerator.h: CallSpec, resolved).
struct Call {
  int Count;
  int Type;
  int Variant;
};

struct PlanCase {
  /// The function's name, which run_random.sh maps back to the case.
  const char *Name;
  Collective Kind;
  /// The emitted function, cast back to its signature according to Kind.
  void (*Function)();
  /// Broadcast: the root.
  int Root;
  /// Multibroadcast: the roots, `0,5,3`, segment j from the j-th.
  const char *Roots;
  int NumCalls;
  Call Calls[3];
};

extern const PlanCase PlanCases[];
extern const int NumPlanCases;

} // namespace e2e

#endif // BCASTC_TESTS_E2E_CASETABLE_H
