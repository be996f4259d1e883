//===- tests/verifier/TestPlans.h - Small plans for verifier tests -*- C++ -*-===//
//
// Builds plans from nested lists, like the papers' step tables, and picks
// out the diagnostics of one pass.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_TESTS_VERIFIER_TESTPLANS_H
#define BCASTC_TESTS_VERIFIER_TESTPLANS_H

#include "ir/Plan.h"
#include "verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <initializer_list>
#include <string>
#include <vector>

namespace bcastc {
namespace test {

struct X {
  NodeId Src, Dst;
  std::vector<ChunkRange> Chunks;
  bool Reduce = false;
};

/// Chunks [B, E).
inline ChunkRange R(uint32_t B, uint32_t E) { return ChunkRange{B, E}; }
/// Chunk C alone.
inline ChunkRange Ch(uint32_t C) { return ChunkRange{C, C + 1}; }

inline Collective collective(CollectiveKind Kind, uint32_t Chunks,
                             std::vector<NodeId> Roots = {0},
                             uint64_t Bytes = 1024) {
  Collective C;
  C.Kind = Kind;
  C.Roots.assign(Roots.begin(), Roots.end());
  C.NumChunks = Chunks;
  C.Bytes = Bytes;
  return C;
}

inline Collective broadcast(NodeId Root, uint32_t Chunks, uint64_t Bytes = 1024) {
  return collective(CollectiveKind::Broadcast, Chunks, {Root}, Bytes);
}

inline Topology topo(llvm::StringRef Spec) {
  auto T = Topology::parse(Spec);
  assert(T && "test topologies are valid");
  return std::move(*T);
}

/// Steps numbered 0, 1, 2, ...
inline Plan buildPlan(llvm::StringRef TopoSpec, Collective Coll,
                      std::vector<std::vector<X>> Steps,
                      MachineModel Model = MachineModel()) {
  PlanBuilder B("test", topo(TopoSpec), Model, std::move(Coll));
  for (const std::vector<X> &Step : Steps) {
    B.beginStep();
    for (const X &T : Step)
      B.add(T.Src, T.Dst, T.Chunks,
            T.Reduce ? TransferOp::Reduce : TransferOp::Copy);
  }
  return B.take();
}

/// Spanning-tree broadcast from node 0 on linear:2^D (Seidel): in step j
/// every holder i sends the whole message n/2^(j+1) to the right.
inline Plan spanningTreeLinear(unsigned D, MachineModel Model = MachineModel(),
                               uint64_t Bytes = 1024) {
  uint32_t N = uint32_t(1) << D;
  PlanBuilder B("st", topo("linear:" + std::to_string(N)), Model,
                broadcast(0, 1, Bytes));
  ChunkSetId All = B.intern(ChunkRange{0, 1});
  for (unsigned J = 0; J < D; ++J) {
    B.beginStep();
    uint32_t Stride = N >> J, Half = Stride / 2;
    for (uint32_t I = 0; I < N; I += Stride)
      B.add(I, I + Half, All);
  }
  return B.take();
}

/// Messages of \p Pass's diagnostics of severity \p Sev.
inline std::vector<std::string> messages(const VerificationResult &V,
                                         llvm::StringRef Pass,
                                         Severity Sev = Severity::Error) {
  std::vector<std::string> Out;
  for (const Diagnostic &D : V.Diagnostics)
    if (Pass == D.Pass && D.Sev == Sev)
      Out.push_back(D.Message);
  return Out;
}

inline std::string printed(const VerificationResult &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  V.printDiagnostics(OS);
  return OS.str();
}

inline MachineModel model(llvm::StringRef Words) {
  MachineModel M;
  llvm::Error E = M.parseWords(Words);
  assert(!E && "test models are valid");
  llvm::consumeError(std::move(E));
  return M;
}

} // namespace test
} // namespace bcastc

#endif // BCASTC_TESTS_VERIFIER_TESTPLANS_H
