//===- frontends/msccl/MscclVerify.cpp - bcastc verify FILE.xml -----------===//

#include "frontends/msccl/MscclVerify.h"

#include "frontends/msccl/MscclSimulator.h"
#include "frontends/msccl/MscclStaticChecks.h"
#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {
namespace msccl {

bool isMscclFile(llvm::StringRef File) { return File.endswith(".xml"); }

int verifyMscclText(llvm::StringRef Text, llvm::StringRef File,
                    const VerifyOptions &Opts, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err) {
  auto A = readMscclXml(Text, File);
  if (!A) {
    // Like a plan file's parse errors: FILE:LINE: error: ...
    Err << llvm::toString(A.takeError()) << "\n";
    return 2;
  }
  Diagnostics D;
  checkStructure(*A, D);
  checkLimits(*A, Opts.Executor, D);
  if (!D.errors())
    checkMatching(*A, D);
  if (!D.errors())
    checkDeps(*A, D);
  SimulationReport R;
  for (bool InPlace : {true, false}) {
    if (D.errors() || !(InPlace ? A->InPlace : A->OutOfPlace))
      continue;
    R = simulate(*A, InPlace, Opts.Root, D);
  }
  D.print(Err, File);
  if (D.errors()) {
    Err << File << ": " << D.errors() << " errors; MSCCL algorithm not "
        << "verified\n";
    return 1;
  }
  uint64_t Tbs = 0, Steps = 0;
  for (const Gpu &G : A->Gpus) {
    Tbs += G.Tbs.size();
    for (const Threadblock &B : G.Tbs)
      Steps += B.Steps.size();
  }
  Out << llvm::formatv("{0}: ok: MSCCL {1} '{2}' ({3}), {4} gpus, {5} "
                       "channels, {6} threadblocks, {7} steps, {8} transfers, "
                       "{9} rounds{10}\n",
                       File, A->Coll, A->Name, A->Proto, A->Gpus.size(),
                       A->NChannels, Tbs, Steps, R.Transfers, R.Rounds,
                       A->Coll == "broadcast"
                           ? ", root " + std::to_string(R.Root)
                           : std::string());
  return 0;
}

} // namespace msccl
} // namespace bcastc
