//===- compiler/driver/AlgorithmsCommand.cpp - bcastc algorithms ----------===//

#include "compiler/driver/Commands.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/RequestBuilder.h"
#include "compiler/driver/ToolOutput.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace bcastc {

int runAlgorithms(const ToolOptions &Opts, raw_ostream &Out,
                  raw_ostream &Err) {
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return usageError(Err, toString(R.takeError()));
  Out << "algorithms for " << R->Topo.str() << ", root " << R->Root << ", "
      << R->Bytes << " bytes, machine " << R->Model.str() << "\n";
  Out << "rank algorithm                         time (us)  start-ups    "
         "ratio  m*a coefficient\n";
  unsigned Rank = 0;
  for (const Candidate &C : rankAlgorithms(*R)) {
    if (!C.Reason.empty()) {
      Out << "-    " << format("%-28s ", C.Algo->Name.str().c_str())
          << "not applicable: " << C.Reason << "\n";
      continue;
    }
    const CostReport &Cost = C.Result.Cost;
    Out << format("%-4u %-28s %14.3f %10llu %8.3f  ", ++Rank,
                  C.Algo->Name.str().c_str(), Cost.Time,
                  (unsigned long long)Cost.Startups, Cost.Ratio)
        << Cost.Transmit << "\n";
  }
  return Verified;
}

} // namespace bcastc
