//===- runtime/SetTopology.h - What the runtime knows of a topology -*- C++ -*-===//
//
// The runtime library's LLVM-free view of a plan set's topology: the spec
// (`torus:4x4`), node coordinates, the relabelling that maps a class's
// representative root onto another root (ir/PlanSet.h NodeRelabelling, the
// same arithmetic), and placement files (ir/PlanSet.h parsePlacement, the
// same format: one node per rank as an id or coordinates, `#` comments).
// tests/runtime:plan_set_file_test checks both against ir/PlanSet.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef BCASTC_RUNTIME_SETTOPOLOGY_H
#define BCASTC_RUNTIME_SETTOPOLOGY_H

#include <cstdint>
#include <string>
#include <vector>

namespace bcastc {
namespace rt {

enum class TopoKind { Linear, Ring, Mesh, Torus, Hypercube, Complete };

/// PlanSet.symmetry (ir/plan.proto).
enum class Symmetry : uint32_t { None = 0, Translation = 1, Reflection = 2,
                                 Xor = 3 };

struct SetTopology {
  TopoKind Kind = TopoKind::Linear;
  std::vector<uint32_t> Extents;
  uint32_t NumNodes = 0;

  /// Parses `KIND:AxBxC` as ir/Topology.cpp does; false with \p Err set
  /// otherwise.
  static bool parse(const std::string &Spec, SetTopology &Out,
                    std::string &Err);

  /// The dimensions an MPI Cartesian communicator must have to be this
  /// topology row-major (empty for the complete graph): the extents, or
  /// d twos for the d-cube.
  std::vector<int> cartesianDims() const;
  /// The node at Cartesian \p Coords (of cartesianDims()), row-major.
  uint32_t nodeAtCartesian(const std::vector<int> &Coords) const;
};

/// The automorphism taking a class's representative \p From onto \p To
/// under \p S (ir/PlanSet.h NodeRelabelling::between).
class Relabelling {
public:
  Relabelling() = default;
  static bool between(const SetTopology &Topo, Symmetry S, uint32_t From,
                      uint32_t To, Relabelling &Out, std::string &Err);
  uint32_t map(uint32_t Node) const;
  uint32_t inverse(uint32_t Node) const;

private:
  Symmetry Kind = Symmetry::None;
  std::vector<uint32_t> Shift, Extents;
  std::vector<uint64_t> Strides;
  uint32_t Mask = 0;
};

/// Reads a placement file's \p Contents (named \p File in errors, with the
/// line): the node of each of Topo.NumNodes ranks.
bool parsePlacement(const std::string &Contents, const std::string &File,
                    const SetTopology &Topo, std::vector<uint32_t> &NodeOfRank,
                    std::string &Err);

/// Whether \p NodeOfRank is empty or a permutation of 0..NumNodes-1.
bool isPlacement(const std::vector<uint32_t> &NodeOfRank, uint32_t NumNodes);

} // namespace rt
} // namespace bcastc

#endif // BCASTC_RUNTIME_SETTOPOLOGY_H
