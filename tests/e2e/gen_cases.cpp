//===- tests/e2e/gen_cases.cpp - Prints seeded random end-to-end cases ----===//
//
// gen_cases --seed=S --count=N     cases 0..N-1 of the run seeded with S
// gen_cases --case-seed=X          the one case of seed X (a replay)
//
// One case per line, fields separated by tabs (arguments may hold spaces):
//
//   SEED  RANKS  ALGORITHM  CALLS  ARG...
//
// SEED is the case's own seed (0x-hex), CALLS the emitted function's calls
// as space-separated COUNT:TYPE:VARIANT (see CaseGenerator.h), ARG... the
// `bcastc compile` arguments. tests/e2e/run_random.sh runs them.
//
//===----------------------------------------------------------------------===//

#include "tests/e2e/CaseGenerator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace bcastc::e2e;

static cl::opt<uint64_t> RunSeed("seed", cl::desc("seed of the run"),
                                 cl::init(1));
static cl::opt<uint64_t> Count("count", cl::desc("number of cases"),
                               cl::init(24));
static cl::opt<std::string>
    CaseSeedOpt("case-seed", cl::desc("print only the case of this seed "
                                      "(decimal or 0x-hex)"));

static void printCase(const E2eCase &C, raw_ostream &OS) {
  OS << format_hex(C.Seed, 18) << '\t' << C.Ranks << '\t' << C.Algorithm
     << '\t';
  for (size_t I = 0; I < C.Calls.size(); ++I)
    OS << (I ? " " : "") << C.Calls[I].Count << ':' << C.Calls[I].Type << ':'
       << C.Calls[I].Variant;
  for (const std::string &Arg : C.CompileArgs)
    OS << '\t' << Arg;
  OS << '\n';
}

static int fail(const Twine &Message) {
  WithColor::error(errs(), "gen_cases") << Message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "seeded random bcastc end-to-end cases\n");
  if (CaseSeedOpt.getNumOccurrences()) {
    uint64_t Seed;
    if (StringRef(CaseSeedOpt).getAsInteger(0, Seed))
      return fail("--case-seed: '" + CaseSeedOpt + "' is not a number");
    auto C = drawCase(Seed);
    if (!C)
      return fail(toString(C.takeError()));
    printCase(*C, outs());
    return 0;
  }
  for (uint64_t I = 0; I < Count; ++I) {
    auto C = drawCase(caseSeed(RunSeed, I));
    if (!C)
      return fail(toString(C.takeError()));
    printCase(*C, outs());
  }
  return 0;
}
