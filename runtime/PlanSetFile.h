//===- runtime/PlanSetFile.h - A plan-set file as the runtime reads it -*- C++ -*-===//
//
// Opens a plan set (`bcastc compile --emit=proto`, ir/plan.proto PlanSet)
// without LLVM or protobuf: maps the file, checks its digest (SHA-256 of
// the bytes of fields 1-12, which precede field 13) instead of verifying
// the plans again -- they were verified when compiled -- and reads the
// header (topology, symmetry, placement, root classes, size bands) and
// where each plan's bytes are. A plan's transfers are read only when a
// rank asks for them, and only those of one node:
//
//   open(file) --digest ok--> header + plan offsets
//   select(root node, bytes) --> class, band, plan
//   relabelling(class, root node) --> representative's nodes -> root's
//   movesOf(plan, node) --> that node's receives and sends, step by step
//
// Moves are trimmed as ir/BroadcastSchedule.h trims them (a receiver gets
// only data chunks it lacks; control chunks and transfers left empty are
// dropped), so the library sends exactly what the emitted code sends. A
// node's sends depend on what their receivers hold, so movesOf reads the
// plan twice: its own transfers, then its receivers' incoming ones.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_PLANSETFILE_H
#define BCASTC_RUNTIME_PLANSETFILE_H

#include "runtime/ProtoWire.h"
#include "runtime/SetTopology.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bcastc {
namespace rt {

struct Band {
  uint64_t Lo = 0, Hi = 0;
  uint32_t Plan = 0;
};

struct Class {
  uint32_t Representative = 0;
  std::vector<uint32_t> Roots; // sorted
  std::vector<Band> Bands;     // contiguous from 0 to 2^64-1
};

/// One receive or send of one node in one plan step: the chunk ranges
/// [First, Last) of the plan's data chunks.
struct Move {
  uint32_t Step = 0;
  uint32_t Peer = 0; // a node of the plan (representative's frame)
  bool Send = false;
  std::vector<std::pair<uint32_t, uint32_t>> Chunks;
};

struct Selection {
  uint32_t ClassIndex = 0, BandIndex = 0, Plan = 0;
};

class PlanSetFile {
public:
  ~PlanSetFile();
  PlanSetFile(const PlanSetFile &) = delete;
  PlanSetFile &operator=(const PlanSetFile &) = delete;

  /// Maps and checks \p Path; null with \p Err naming the file and what is
  /// wrong (not a plan set, digest mismatch, malformed at byte N, ...).
  static std::unique_ptr<PlanSetFile> open(const std::string &Path,
                                           std::string &Err);
  /// The node count a plan-set file's header names, from its first bytes
  /// only (fields 1-4 precede the model and the plans), or 0: which
  /// communicator size a file serves, without opening the others.
  static uint32_t headerNumNodes(const std::string &Path);
  /// The same for bytes in memory (copied).
  static std::unique_ptr<PlanSetFile> fromBytes(const void *Data, size_t Size,
                                                const std::string &Origin,
                                                std::string &Err);

  const std::string &path() const { return Origin; }
  const std::string &name() const { return Name; }
  const std::string &topologySpec() const { return TopoSpec; }
  const SetTopology &topology() const { return Topo; }
  uint32_t numNodes() const { return Topo.NumNodes; }
  Symmetry symmetry() const { return Sym; }
  const std::vector<uint32_t> &placement() const { return NodeOfRank; }
  const std::vector<Class> &classes() const { return Classes; }
  size_t numPlans() const { return Plans.size(); }
  const std::array<uint8_t, 32> &digest() const { return Digest; }
  /// MPI_Issend: the model's transfers end within their step (latency 1).
  bool synchronousSends() const { return Synchronous; }
  /// timing=dataflow's window (PlanExecutor's dataflow walker), or 0 for
  /// the other timings (the step walker).
  uint32_t dataflowWindow() const { return Window; }

  /// The plan for a broadcast from topology node \p Root of \p Bytes: a
  /// table lookup and a binary search over the class's bands, per call.
  bool select(uint32_t Root, uint64_t Bytes, Selection &Out,
              std::string &Err) const;
  /// The relabelling from class \p ClassIndex's representative (whose
  /// plans the file holds) onto \p Root, one of its roots.
  bool relabelling(uint32_t ClassIndex, uint32_t Root, Relabelling &Out,
                   std::string &Err) const;

  /// The trimmed receives and sends of node \p Node in plan \p Plan (in the
  /// plan's own frame), by step, receives before sends; the number of
  /// data chunks in \p DataChunks.
  bool movesOf(uint32_t Plan, uint32_t Node, std::vector<Move> &Out,
               uint32_t &DataChunks, std::string &Err) const;

private:
  PlanSetFile() = default;
  /// Digest, header, plans' headers and root classes
  /// (PlanSetFileParse.cpp).
  bool parse(std::string &Err);
  bool parseModel(WireReader Model, std::string &Err);
  bool parsePlans(const std::vector<WireReader> &PlanMsgs, uint32_t NumNodes,
                  std::string &Err);
  bool parseClasses(const std::vector<WireReader> &ClassMsgs,
                    uint32_t NumNodes, std::string &Err);

  struct PlanInfo {
    size_t Offset = 0, Size = 0; // the Plan message's bytes
    uint32_t Root = 0, DataChunks = 0;
    std::string Name;
  };

  std::string Origin, Name, TopoSpec;
  SetTopology Topo;
  Symmetry Sym = Symmetry::None;
  std::vector<uint32_t> NodeOfRank;
  std::vector<Class> Classes;
  /// Node -> its root class, or -1: select() in O(1) per call however
  /// many classes a set without symmetry has.
  std::vector<int32_t> ClassOfNode;
  std::vector<PlanInfo> Plans;
  std::array<uint8_t, 32> Digest{};
  bool Synchronous = true;
  uint32_t Window = 0;

  const uint8_t *Data = nullptr;
  size_t Size = 0;
  void *Mapping = nullptr; // munmap'ed on destruction (null: Owned)
  std::vector<uint8_t> Owned;
};

} // namespace rt
} // namespace bcastc

#endif // BCASTC_RUNTIME_PLANSETFILE_H
