//===- fuzz/SpecFuzzer.cpp - libFuzzer target: command-line specs ---------===//
//
// The first byte picks the parser, the rest is its text: Topology::parse
// (`mesh:4x8`), parseByteCount (`64KiB`), MachineModel::parseWords
// (`latency=2 a=0.08`) and parsePositiveRational (`9/5`). Whatever parses
// must print back to something that parses to the same value.
//
//===----------------------------------------------------------------------===//

#include "ir/MachineModel.h"
#include "ir/Topology.h"
#include "ir/Units.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace bcastc;

namespace {

[[noreturn]] void fail(const char *What, llvm::StringRef Text) {
  llvm::errs() << What << ": '" << Text << "'\n";
  std::abort();
}

void fuzzTopology(llvm::StringRef Text) {
  llvm::Expected<Topology> T = Topology::parse(Text);
  if (!T) {
    llvm::consumeError(T.takeError());
    return;
  }
  llvm::Expected<Topology> Again = Topology::parse(T->str());
  if (!Again) {
    llvm::consumeError(Again.takeError());
    fail("printed topology does not parse", T->str());
  }
  if (Again->str() != T->str() || Again->numNodes() != T->numNodes())
    fail("topology round trip changed", Text);
}

void fuzzByteCount(llvm::StringRef Text) {
  llvm::Expected<uint64_t> N = parseByteCount(Text);
  if (!N) {
    llvm::consumeError(N.takeError());
    return;
  }
  if (*N > MaxByteCount)
    fail("byte count above MaxByteCount", Text);
  llvm::Expected<uint64_t> Again = parseByteCount(formatByteCount(*N));
  if (!Again) {
    llvm::consumeError(Again.takeError());
    fail("formatted byte count does not parse", formatByteCount(*N));
  }
  if (*Again != *N)
    fail("byte count round trip changed", Text);
}

void fuzzModel(llvm::StringRef Text) {
  MachineModel M;
  if (llvm::Error E = M.parseWords(Text)) {
    llvm::consumeError(std::move(E));
    return;
  }
  MachineModel Again;
  if (llvm::Error E = Again.parseWords(M.str())) {
    llvm::consumeError(std::move(E));
    fail("printed model does not parse", M.str());
  }
  if (Again != M)
    fail("model round trip changed", Text);
}

void fuzzRational(llvm::StringRef Text) {
  llvm::Expected<Rational> R = parsePositiveRational(Text);
  if (!R) {
    llvm::consumeError(R.takeError());
    return;
  }
  llvm::Expected<Rational> Again = parsePositiveRational(formatRational(*R));
  if (!Again) {
    llvm::consumeError(Again.takeError());
    fail("formatted rational does not parse", formatRational(*R));
  }
  if (!(*Again == *R))
    fail("rational round trip changed", Text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  switch (Data[0] % 4) {
  case 0:
    fuzzTopology(Text);
    break;
  case 1:
    fuzzByteCount(Text);
    break;
  case 2:
    fuzzModel(Text);
    break;
  case 3:
    fuzzRational(Text);
    break;
  }
  return 0;
}
