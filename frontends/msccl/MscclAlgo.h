//===- frontends/msccl/MscclAlgo.h - An MSCCL algorithm file, as written -*- C++ -*-===//
//
// The importer's own model of an MSCCL algorithm XML file: `<algo>` with its
// `<gpu>`s, their `<tb>`s and `<step>`s, every attribute kept as written and
// every element with its line. Buffers, scratch and local copies and
// reductions live here rather than in the IR, so the IR's 2^20-node paths
// pay nothing for them.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_FRONTENDS_MSCCL_MSCCLALGO_H
#define BCASTC_FRONTENDS_MSCCL_MSCCLALGO_H

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {
namespace msccl {

/// The executors' step types (msccl-executor-nccl's msccl_parser.cc).
enum class OpType : uint8_t { S, R, Rcs, Rrs, Rrc, Rrcs, Cpy, Re, Nop };

/// Buffers a step names: input, output, scratch.
enum class BufKind : uint8_t { I, O, S };

inline bool receives(OpType T) {
  return T == OpType::R || T == OpType::Rcs || T == OpType::Rrs ||
         T == OpType::Rrc || T == OpType::Rrcs;
}
inline bool sends(OpType T) {
  return T == OpType::S || T == OpType::Rcs || T == OpType::Rrs ||
         T == OpType::Rrcs;
}
inline bool reduces(OpType T) {
  return T == OpType::Rrs || T == OpType::Rrc || T == OpType::Rrcs ||
         T == OpType::Re;
}
/// Whether the step reads its src buffer (a receive's data comes from the
/// connection instead, except for the reductions' local operand).
inline bool readsSrc(OpType T) {
  return T == OpType::S || T == OpType::Cpy || T == OpType::Re ||
         T == OpType::Rrs || T == OpType::Rrc || T == OpType::Rrcs;
}
/// Whether the step writes its dst buffer.
inline bool writesDst(OpType T) {
  return T == OpType::R || T == OpType::Rcs || T == OpType::Rrc ||
         T == OpType::Rrcs || T == OpType::Cpy || T == OpType::Re;
}
const char *opName(OpType T);
char bufName(BufKind B);

struct Step {
  unsigned Line = 0;
  int64_t S = 0, SrcOff = 0, DstOff = 0, Cnt = 0, DepId = -1, Deps = -1;
  bool HasDep = false;
  OpType Type = OpType::Nop;
  BufKind SrcBuf = BufKind::I, DstBuf = BufKind::O;
};

struct Threadblock {
  unsigned Line = 0;
  int64_t Id = 0, Send = -1, Recv = -1, Chan = 0;
  std::vector<Step> Steps;
};

struct Gpu {
  unsigned Line = 0;
  int64_t Id = 0, IChunks = 0, OChunks = 0, SChunks = 0;
  std::vector<Threadblock> Tbs;
  int64_t chunks(BufKind B) const {
    return B == BufKind::I ? IChunks : B == BufKind::O ? OChunks : SChunks;
  }
};

struct Algo {
  unsigned Line = 0;
  std::string Name, Proto, Coll;
  int64_t NChannels = 0, NChunksPerLoop = 0, NGpus = 0;
  bool InPlace = false, OutOfPlace = false;
  /// Absent in msccl-tools' older files (microsoft/msccl needs neither).
  bool HasOutOfPlace = false, HasMinBytes = false, HasMaxBytes = false;
  int64_t MinBytes = 0, MaxBytes = 0;
  /// Elements in the file (msccl-executor-nccl's parser holds 4,096) and
  /// whether it starts with an `<?xml?>` declaration.
  uint64_t Elements = 0;
  bool XmlDeclaration = false;
  std::vector<Gpu> Gpus;
};

} // namespace msccl
} // namespace bcastc

#endif // BCASTC_FRONTENDS_MSCCL_MSCCLALGO_H
