//===- verifier/PassContext.h - What the verifier's passes share -*- C++ -*-===//
//
// Private to the verifier. A PassContext carries the plan, the options, a
// diagnostic sink that caps what each pass shows, and the facts earlier
// passes hand to the cost pass (per-step link load, permuted chunks).
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_VERIFIER_PASSCONTEXT_H
#define BCASTC_VERIFIER_PASSCONTEXT_H

#include "verifier/Verifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace bcastc {
namespace verifier {

/// Collects diagnostics. Each pass shows at most Max errors and Max warnings
/// (separately, so warnings never hide an error); the rest are counted in
/// one note per severity at the end of the pass. Messages are built lazily,
/// so a pass reporting millions of problems stays fast.
class DiagnosticSink {
public:
  DiagnosticSink(std::vector<Diagnostic> &Out, unsigned Max)
      : Out(Out), Max(Max) {}

  void beginPass(const char *Name);
  /// Adds the `N more PASS errors not shown` notes.
  void endPass();
  void report(Severity Sev, uint32_t Line,
              llvm::function_ref<std::string()> Message);
  void error(uint32_t Line, llvm::function_ref<std::string()> Message) {
    report(Severity::Error, Line, Message);
  }
  void warning(uint32_t Line, llvm::function_ref<std::string()> Message) {
    report(Severity::Warning, Line, Message);
  }
  /// Errors of the current pass, shown or not.
  uint64_t errorsInPass() const { return Count[0]; }
  /// True while the current pass's next error would be shown.
  bool showsNextError() const { return Count[0] < Max; }
  /// Counts \p N errors that would not be shown (once showsNextError() is
  /// false) without building them: one per node of 2^30.
  void countHiddenErrors(uint64_t N) { Count[0] += N; }

private:
  std::vector<Diagnostic> &Out;
  unsigned Max;
  const char *Pass = "";
  uint64_t Count[2] = {0, 0}; ///< Errors, warnings of the current pass.
};

struct PassContext {
  PassContext(const Plan &P, const VerifierOptions &Opts,
              DiagnosticSink &Diags, uint64_t Bytes)
      : P(P), Opts(Opts), Diags(Diags), Bytes(Bytes),
        StepLinkLoad(P.numSteps(), 0), StepPortLoad(P.numSteps(), 1),
        StepPermutedChunks(P.numSteps(), 0) {}

  const Plan &P;
  const VerifierOptions &Opts;
  DiagnosticSink &Diags;
  /// Message length the cost pass times (the plan's own unless simulating).
  uint64_t Bytes;

  /// links -> cost: most circuits sharing one link, per step (0 when empty).
  std::vector<uint32_t> StepLinkLoad;
  /// ports -> cost (contention=charge): the most messages one port carries
  /// at once, in multiples of the port model's limit, rounded up (1 when
  /// within it).
  std::vector<uint32_t> StepPortLoad;
  /// order -> cost: chunks of the largest non-contiguous transfer, per step.
  std::vector<uint32_t> StepPermutedChunks;
  CostReport Cost;

  /// `step 3` with the number as written.
  std::string stepName(size_t Step) const {
    return "step " + std::to_string(P.StepNumbers[Step]);
  }
  /// `0 -> 3 : 1 at line 7`, or `0 -> 3 : 1 transfer #5` without lines.
  std::string at(uint64_t Index) const;
  /// Empty for parsed plans (the line says where), else ` (transfer #5)`.
  std::string located(uint64_t Index) const;
  uint32_t line(uint64_t Index) const { return P.transferLine(Index); }
  std::string node(NodeId N) const { return P.Topo.nodeName(N); }
};

/// Per-step counters indexed by node or link id. A flat array is fastest,
/// but must not dwarf the plan (complete:20000 has 4*10^8 link ids, a
/// hypercube:30 10^9 nodes), so large sparse id spaces use a hash map. Only
/// touched entries are reset between steps. \p SlotT is default-constructed
/// empty and says so through `bool used() const` once written.
template <typename SlotT> class StepTable {
public:
  StepTable(uint64_t NumIds, uint64_t PlanSize)
      : Flat(NumIds <= (uint64_t(1) << 27) &&
             NumIds <= 16 * PlanSize + (uint64_t(1) << 20)) {
    if (Flat)
      Table.resize(NumIds);
  }
  SlotT &operator[](uint64_t Id) {
    if (!Flat)
      return Map[Id];
    if (!Table[Id].used())
      Touched.push_back(Id);
    return Table[Id];
  }
  void reset() {
    if (!Flat) {
      Map.clear();
      return;
    }
    for (uint64_t Id : Touched)
      Table[Id] = SlotT();
    Touched.clear();
  }

private:
  bool Flat;
  std::vector<SlotT> Table;
  std::vector<uint64_t> Touched;
  llvm::DenseMap<uint64_t, SlotT> Map;
};

/// Appends chunk \p C (ascending) to \p Ranges, extending the last range.
void appendChunk(llvm::SmallVectorImpl<ChunkRange> &Ranges, uint32_t C);
/// `chunk 3` or `chunks 0-2,5` for non-empty sorted \p Ranges.
std::string formatChunks(llvm::ArrayRef<ChunkRange> Ranges);

#define VERIFIER_PASS(ID, NAME) void run##ID##Pass(PassContext &Ctx);
#include "verifier/Passes.def"

} // namespace verifier
} // namespace bcastc

#endif // BCASTC_VERIFIER_PASSCONTEXT_H
