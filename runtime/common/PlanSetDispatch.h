//===- runtime/common/PlanSetDispatch.h - A plan set's dispatch -*- C++ -*-===//
//
// What every emitted plan-set function runs before its plan, whatever
// library it calls (mpi-cpp's runtime/mpi/SetCall.h, nccl-cu's file): the
// choice of a plan for (root node, bytes), as ir/PlanSet.cpp's select(),
// and the relabelling taking the plan's root onto the call's, as
// ir/PlanSet.h's NodeRelabelling. Not a self-contained header: it reads the
// tables backends/PlanSetTables.h writes (kSymmetry, kNumAxes, kAxisExtent,
// kAxisStride, kNumClasses, kClassOfNode, kClassRep, kClassBandStart,
// kBandLo, kBandPlan) and <cstdint>'s types. The emitters embed it at build
// time (backends/RuntimeSource.h).
//
//===----------------------------------------------------------------------===//

// kSymmetry's values: ir/PlanSet.h's RootSymmetry.
enum { kNoSymmetry = 0, kTranslation = 1, kReflection = 2, kXor = 3 };

// ir/PlanSet.h's NodeRelabelling: per axis, the shift (translation) or 1
// for a mirrored axis (reflection); the XOR mask. Kept per call: ranks may
// call from several threads.
struct Relabelling {
  uint64_t Shift[kNumAxes > 0 ? kNumAxes : 1] = {};
  uint64_t Mask = 0;

  static uint64_t coordinate(uint64_t Node, int Axis) {
    return Node / static_cast<uint64_t>(kAxisStride[Axis]) %
           static_cast<uint64_t>(kAxisExtent[Axis]);
  }

  // The element taking node From onto node To (NodeRelabelling::between;
  // the emitter checked that one exists for every class root).
  void between(uint64_t From, uint64_t To) {
    Mask = From ^ To;
    for (int A = 0; A < kNumAxes; ++A) {
      const uint64_t E = kAxisExtent[A];
      const uint64_t F = coordinate(From, A), T = coordinate(To, A);
      Shift[A] = kSymmetry == kTranslation ? (T + E - F) % E : T != F;
    }
  }

  // NodeRelabelling::map: the plan's node Node as the call's.
  uint64_t map(uint64_t Node) const {
    if (kSymmetry == kNoSymmetry)
      return Node;
    if (kSymmetry == kXor)
      return Node ^ Mask;
    uint64_t Out = 0;
    for (int A = 0; A < kNumAxes; ++A) {
      const uint64_t E = kAxisExtent[A], C = coordinate(Node, A);
      const uint64_t M = kSymmetry == kTranslation ? (C + Shift[A]) % E
                         : Shift[A]                ? E - 1 - C
                                                   : C;
      Out += M * static_cast<uint64_t>(kAxisStride[A]);
    }
    return Out;
  }

  // NodeRelabelling::inverse: XOR and mirrors are involutions.
  uint64_t inverse(uint64_t Node) const {
    if (kSymmetry != kTranslation)
      return map(Node);
    uint64_t Out = 0;
    for (int A = 0; A < kNumAxes; ++A) {
      const uint64_t E = kAxisExtent[A], C = coordinate(Node, A);
      Out += (C + E - Shift[A]) % E * static_cast<uint64_t>(kAxisStride[A]);
    }
    return Out;
  }
};

// PlanSet::select for Bytes bytes from node Node: the band's plan, and in
// Map the relabelling from its class's representative onto Node; false
// when no class serves Node. Every rank passes the same count and
// datatype, so every rank selects the same plan.
bool selectPlan(uint64_t Node, uint64_t Bytes, uint64_t &Plan,
                Relabelling &Map) {
  const uint64_t Class = kClassOfNode[Node];
  if (Class == static_cast<uint64_t>(kNumClasses))
    return false;
  // Bands are sorted by their lower ends and the first starts at 0.
  uint64_t Band = kClassBandStart[Class];
  while (Band + 1 < static_cast<uint64_t>(kClassBandStart[Class + 1]) &&
         static_cast<uint64_t>(kBandLo[Band + 1]) <= Bytes)
    ++Band;
  Plan = kBandPlan[Band];
  Map.between(kClassRep[Class], Node);
  return true;
}
