//===- backends/msccl/msccl_check.cpp - Checks an MSCCL XML file -----------===//
//
//   msccl_check FILE.xml --root=R [--dialect=azure|microsoft]
//               [--count=N [--type-size=S]]
//
// Runs MscclChecker on a file (with --count, for a call of N elements of S
// bytes: the file must be selected for it and deliver every byte); exit code 0 when it passes, 1 when it does
// not (the message says why), 2 on usage errors.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclChecker.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<file.xml>"),
                                  cl::Required);
static cl::opt<unsigned> Root("root", cl::desc("The broadcast's root"),
                              cl::init(0));
static cl::opt<uint64_t>
    Count("count",
          cl::desc("Check the call of this many elements: the file must be "
                   "selected for it and deliver every byte (0: the file "
                   "alone)"),
          cl::init(0));
static cl::opt<uint64_t> TypeSize("type-size",
                                  cl::desc("Bytes per element (with --count)"),
                                  cl::init(1));
static cl::opt<std::string> Dialect("dialect",
                                    cl::desc("azure or microsoft"),
                                    cl::init("azure"));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "checks an MSCCL algorithm file\n");
  auto Buf = MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buf) {
    errs() << "msccl_check: error: " << Input << ": "
           << Buf.getError().message() << "\n";
    return 2;
  }
  bcastc::MscclCheckOptions Opts;
  Opts.Root = Root;
  Opts.Dialect = Dialect;
  Opts.Count = Count;
  Opts.TypeSize = TypeSize;
  if (TypeSize == 0) {
    errs() << "msccl_check: error: --type-size must be positive\n";
    return 2;
  }
  auto R = bcastc::checkMscclXml((*Buf)->getBuffer(), Input, Opts);
  if (!R) {
    errs() << toString(R.takeError()) << "\n";
    return 1;
  }
  outs() << Input << ": ok: " << R->Ranks << " ranks, " << R->Chunks
         << " chunks, " << R->Threadblocks << " threadblocks, " << R->Steps
         << " steps, " << R->Sends << " sends, " << R->Dependencies
         << " dependencies, " << R->Rounds << " rounds";
  if (Count)
    outs() << "; count " << Count << " x " << TypeSize << " B = " << R->Bytes
           << " bytes: selected, every rank ends with every byte";
  outs() << "\n";
  return 0;
}
