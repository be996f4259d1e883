//===- runtime/PlanSetWire.h - ir/plan.proto's numbers, for the library -*- C++ -*-===//
//
// The field numbers and constants of ir/plan.proto's PlanSet and Plan that
// runtime/PlanSetFile reads with its own wire reader (no protobuf in the
// library). Internal to PlanSetFile*.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_PLANSETWIRE_H
#define BCASTC_RUNTIME_PLANSETWIRE_H

#include <cstdint>

namespace bcastc {
namespace rt {
namespace wire {

// ir/plan.proto field numbers.
enum : uint32_t {
  kSetFormat = 1, kSetName = 2, kSetTopology = 3, kSetNumNodes = 4,
  kSetModel = 5, kSetKind = 6, kSetSymmetry = 7, kSetNodeOfRank = 8,
  kSetPlans = 11, kSetClasses = 12, kSetDigest = 13,
};
enum : uint32_t {
  kModelLatency = 6, kModelLatencyNum = 11, kModelTiming = 17, kModelWindow = 19,
};
constexpr uint32_t kTimingDataflow = 3;
/// MachineModel::DefaultWindow, when the model has no window field.
constexpr uint32_t kDefaultWindow = 2;
enum : uint32_t { kClassRep = 1, kClassRoots = 2, kClassBands = 3 };
enum : uint32_t { kBandLo = 1, kBandHi = 2, kBandPlan = 3 };
enum : uint32_t {
  kPlanName = 1, kPlanNumNodes = 3, kPlanCollective = 5, kPlanSteps = 6,
};
enum : uint32_t {
  kCollKind = 1, kCollRoots = 2, kCollChunks = 4, kCollControl = 5,
};
enum : uint32_t { kStepNumber = 1, kStepTransfers = 2 };
enum : uint32_t {
  kXferSrc = 1, kXferDst = 2, kXferChunks = 3, kXferReduce = 4,
  kXferCubes = 6,
};
constexpr uint32_t kBroadcast = 1;
/// Chunk ranges one node's moves of one plan may hold (128 MiB): a bound
/// on what a file with a valid digest but absurd contents (a chunk cube of
/// 2^31 runs) can make a rank allocate.
constexpr uint64_t kMaxRanges = uint64_t(1) << 24;
constexpr char kFormat[] = "bcastc-plan-set";

} // namespace wire
} // namespace rt
} // namespace bcastc

#endif // BCASTC_RUNTIME_PLANSETWIRE_H
