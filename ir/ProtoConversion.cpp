//===- ir/ProtoConversion.cpp ---------------------------------------------===//

#include "ir/ProtoConversion.h"

#include "ir/PlanSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

using PM = proto::MachineModel;
using PC = proto::Collective;

static void modelToProto(const MachineModel &M, PM &OM) {
  switch (M.Ports) {
  case PortModel::One:
    OM.set_ports(PM::PORTS_ONE);
    break;
  case PortModel::K:
    OM.set_ports(PM::PORTS_K);
    break;
  case PortModel::All:
    OM.set_ports(PM::PORTS_ALL);
    break;
  }
  OM.set_port_count(M.PortCount);
  OM.set_switching(M.Switch == Switching::Wormhole
                        ? PM::SWITCHING_WORMHOLE
                        : PM::SWITCHING_STORE_AND_FORWARD);
  OM.set_duplex(M.Links == Duplex::Full ? PM::DUPLEX_FULL : PM::DUPLEX_HALF);
  OM.set_capacity(M.Capacity);
  if (M.Latency.isInteger()) {
    OM.set_latency(uint32_t(M.Latency.num()));
  } else {
    OM.set_latency_num(uint32_t(M.Latency.num()));
    OM.set_latency_den(uint32_t(M.Latency.den()));
  }
  OM.set_contention(M.Contention == ContentionPolicy::Forbid
                         ? PM::CONTENTION_FORBID
                     : M.Contention == ContentionPolicy::Charge
                         ? PM::CONTENTION_CHARGE
                         : PM::CONTENTION_SHARE);
  OM.set_a(M.A);
  OM.set_b(M.B);
  OM.set_rho(M.Rho);
  // Only when set, so plans of the papers' model write the bytes they did.
  if (M.Hop != 0)
    OM.set_hop(M.Hop);
  if (M.O != 0)
    OM.set_o(M.O);
  if (M.G != 0)
    OM.set_g(M.G);
  if (M.Nic != 0)
    OM.set_nic(M.Nic);
  if (M.Timing == TimingModel::Ranks)
    OM.set_timing(PM::TIMING_RANKS);
  else if (M.Timing == TimingModel::Dataflow)
    OM.set_timing(PM::TIMING_DATAFLOW);
  if (M.Window != MachineModel::DefaultWindow)
    OM.set_window(M.Window);
  if (M.ErrorMargin != 0)
    OM.set_error(M.ErrorMargin);
}

static PC::Kind kindToProto(CollectiveKind K) {
  switch (K) {
  case CollectiveKind::Broadcast:
    return PC::BROADCAST;
  case CollectiveKind::MultiBroadcast:
    return PC::MULTIBROADCAST;
  case CollectiveKind::AllGather:
    return PC::ALLGATHER;
  case CollectiveKind::AllReduce:
    return PC::ALLREDUCE;
  }
  return PC::KIND_UNSPECIFIED;
}

proto::Plan toProtoHeader(const Plan &P) {
  proto::Plan Out;
  Out.set_name(P.Name);
  Out.set_topology(P.Topo.str());
  Out.set_num_nodes(P.numNodes());

  modelToProto(P.Model, *Out.mutable_model());

  const Collective &C = P.Coll;
  PC *OC = Out.mutable_collective();
  OC->set_kind(kindToProto(C.Kind));
  // All-gather and all-reduce have no roots; the IR's Roots is unused there.
  if (C.Kind == CollectiveKind::Broadcast ||
      C.Kind == CollectiveKind::MultiBroadcast)
    for (NodeId R : C.Roots)
      OC->add_roots(R);
  OC->set_bytes(C.Bytes);
  OC->set_chunks(C.NumChunks);
  OC->set_control_chunks(C.ControlChunks);

  return Out;
}

void toProto(const Plan &P, const Transfer &T, proto::Transfer &Out) {
  Out.Clear();
  Out.set_src(T.Src);
  Out.set_dst(T.Dst);
  ChunkSet Set = P.chunks(T);
  for (const ChunkCube &Cube : Set.cubes()) {
    proto::ChunkCube *OC = Out.add_cubes();
    OC->set_base(Cube.Base);
    OC->set_mask(Cube.Mask);
  }
  if (!Set.isCubes()) {
    Set.forEachRange([&](ChunkRange R) {
      proto::ChunkRange *OR = Out.add_chunks();
      OR->set_begin(R.Begin);
      OR->set_end(R.End);
    });
  }
  Out.set_reduce(T.Reduce);
  Out.set_received_only(T.ReceivedOnly);
}

proto::Plan toProto(const Plan &P) {
  proto::Plan Out = toProtoHeader(P);
  Out.mutable_steps()->Reserve(P.numSteps());
  for (size_t S = 0; S < P.numSteps(); ++S) {
    proto::Step *OS = Out.add_steps();
    OS->set_number(P.StepNumbers[S]);
    ArrayRef<Transfer> Ts = P.step(S);
    OS->mutable_transfers()->Reserve(Ts.size());
    for (const Transfer &T : Ts)
      toProto(P, T, *OS->add_transfers());
  }
  return Out;
}

static Error convertModel(const PM &In, MachineModel &M) {
  if (In.has_ports()) {
    switch (In.ports()) {
    case PM::PORTS_ONE:
      M.Ports = PortModel::One;
      break;
    case PM::PORTS_K:
      M.Ports = PortModel::K;
      break;
    case PM::PORTS_ALL:
      M.Ports = PortModel::All;
      break;
    default:
      return makeError("unknown model.ports value " + Twine(int(In.ports())));
    }
  }
  if (In.has_port_count()) {
    if (In.port_count() == 0)
      return makeError("model.port_count must be positive");
    if (In.port_count() > (uint32_t(1) << 30))
      return makeError("model.port_count " + Twine(In.port_count()) +
                       " is above 2^30");
    M.PortCount = In.port_count();
  }
  // As `ports=1` in text: one port is PortModel::One, whose count is 1.
  if (M.Ports == PortModel::K && M.PortCount == 1)
    M.Ports = PortModel::One;
  // Only PORTS_K has a count; the others are canonical with 1, as in text
  // (`ports=one` and `ports=all` carry none).
  if (M.Ports != PortModel::K)
    M.PortCount = 1;
  if (In.has_switching()) {
    switch (In.switching()) {
    case PM::SWITCHING_WORMHOLE:
      M.Switch = Switching::Wormhole;
      break;
    case PM::SWITCHING_STORE_AND_FORWARD:
      M.Switch = Switching::StoreAndForward;
      break;
    default:
      return makeError("unknown model.switching value " +
                       Twine(int(In.switching())));
    }
  }
  if (In.has_duplex()) {
    switch (In.duplex()) {
    case PM::DUPLEX_FULL:
      M.Links = Duplex::Full;
      break;
    case PM::DUPLEX_HALF:
      M.Links = Duplex::Half;
      break;
    default:
      return makeError("unknown model.duplex value " + Twine(int(In.duplex())));
    }
  }
  if (In.has_contention()) {
    switch (In.contention()) {
    case PM::CONTENTION_FORBID:
      M.Contention = ContentionPolicy::Forbid;
      break;
    case PM::CONTENTION_CHARGE:
      M.Contention = ContentionPolicy::Charge;
      break;
    case PM::CONTENTION_SHARE:
      M.Contention = ContentionPolicy::Share;
      break;
    default:
      return makeError("unknown model.contention value " +
                       Twine(int(In.contention())));
    }
  }
  if (In.has_capacity()) {
    if (In.capacity() == 0)
      return makeError("model.capacity must be positive");
    // The text form's limit (MachineModel::set), so the plan prints back.
    if (In.capacity() > (uint32_t(1) << 30))
      return makeError("model.capacity " + Twine(In.capacity()) +
                       " is above 2^30");
    M.Capacity = In.capacity();
  }
  // The text forms read latencies below 2^30 (parsePositiveRational);
  // anything larger would print a plan that does not read back.
  const uint32_t LatencyLimit = uint32_t(1) << 30;
  if (In.has_latency()) {
    if (In.latency() == 0)
      return makeError("model.latency must be positive");
    if (In.latency() >= LatencyLimit)
      return makeError("model.latency " + Twine(In.latency()) +
                       " is not below 2^30");
    M.Latency = In.latency();
  }
  if (In.has_latency_num() || In.has_latency_den()) {
    if (In.has_latency())
      return makeError("model.latency and model.latency_num/latency_den "
                       "are exclusive");
    if (In.latency_num() == 0 || In.latency_den() == 0)
      return makeError("model.latency_num and model.latency_den must both "
                       "be positive");
    if (In.latency_num() >= LatencyLimit || In.latency_den() >= LatencyLimit)
      return makeError("model.latency_num and model.latency_den must both "
                       "be below 2^30");
    M.Latency = Rational(In.latency_num(), In.latency_den());
  }
  struct {
    bool Has;
    double Value;
    const char *Name;
    double *Field;
  } Costs[] = {{In.has_a(), In.a(), "a", &M.A},
               {In.has_b(), In.b(), "b", &M.B},
               {In.has_rho(), In.rho(), "rho", &M.Rho},
               {In.has_hop(), In.hop(), "hop", &M.Hop},
               {In.has_o(), In.o(), "o", &M.O},
               {In.has_g(), In.g(), "g", &M.G},
               {In.has_nic(), In.nic(), "nic", &M.Nic},
               {In.has_error(), In.error(), "error", &M.ErrorMargin}};
  for (auto &C : Costs) {
    if (!C.Has)
      continue;
    if (!std::isfinite(C.Value) || C.Value < 0)
      return makeError("model." + Twine(C.Name) +
                       " must be a non-negative number");
    *C.Field = C.Value;
  }
  if (In.has_timing()) {
    switch (In.timing()) {
    case PM::TIMING_STEPS:
      M.Timing = TimingModel::Steps;
      break;
    case PM::TIMING_RANKS:
      M.Timing = TimingModel::Ranks;
      break;
    case PM::TIMING_DATAFLOW:
      M.Timing = TimingModel::Dataflow;
      break;
    default:
      return makeError("unknown model.timing value " + Twine(int(In.timing())));
    }
  }
  if (In.has_window()) {
    if (In.window() < 1 || In.window() > MachineModel::MaxWindow)
      return makeError("model.window must be from 1 to " +
                       Twine(MachineModel::MaxWindow));
    M.Window = In.window();
  }
  // The rules the text forms apply once a model is read (lambda >= 1,
  // costs below MaxCost, contention=charge only with latency=1).
  return M.check();
}

/// \p Value of the enum field \p What (unset is an error: a plan or set
/// without a kind means nothing).
static Error kindFromProto(int Value, StringRef What, CollectiveKind &K) {
  switch (Value) {
  case PC::KIND_UNSPECIFIED:
    return makeError(What + " is not set");
  case PC::BROADCAST:
    K = CollectiveKind::Broadcast;
    return Error::success();
  case PC::MULTIBROADCAST:
    K = CollectiveKind::MultiBroadcast;
    return Error::success();
  case PC::ALLGATHER:
    K = CollectiveKind::AllGather;
    return Error::success();
  case PC::ALLREDUCE:
    K = CollectiveKind::AllReduce;
    return Error::success();
  }
  return makeError("unknown " + What + " value " + Twine(Value));
}

static Error convertCollective(const PC &In, Collective &C) {
  if (Error E = kindFromProto(In.kind(), "collective.kind", C.Kind))
    return E;
  switch (C.Kind) {
  case CollectiveKind::Broadcast:
    if (In.roots_size() != 1)
      return makeError("a broadcast has one root, not " +
                       Twine(In.roots_size()));
    break;
  case CollectiveKind::MultiBroadcast:
    if (In.roots_size() == 0)
      return makeError("a multibroadcast needs at least one root");
    break;
  case CollectiveKind::AllGather:
  case CollectiveKind::AllReduce:
    if (In.roots_size() != 0)
      return makeError(collectiveKindName(C.Kind) + " takes no roots");
    break;
  }
  if (In.roots_size() != 0)
    C.Roots.assign(In.roots().begin(), In.roots().end());
  if (In.chunks() == 0)
    return makeError("collective.chunks must be at least 1");
  C.Bytes = In.bytes();
  C.NumChunks = In.chunks();
  C.ControlChunks = In.control_chunks();
  return Error::success();
}

Expected<Plan> fromProtoHeader(const proto::Plan &Msg, StringRef File) {
  Plan P;
  P.Source.File = File.str();
  P.Name = Msg.name();
  // The name must print as the one word `.sched` reads back: a space,
  // newline or `#` would change or cut the reprinted plan.
  if (any_of(P.Name, [](char Ch) { return isSpace(Ch) || Ch == '#'; })) {
    std::string Escaped;
    raw_string_ostream OS(Escaped);
    printEscapedString(P.Name, OS);
    return makeError("plan name '" + Twine(OS.str()) +
                     "' is not one word (no spaces or '#')");
  }
  if (Msg.topology().empty())
    return makeError("the plan has no topology");
  auto Topo = Topology::parse(Msg.topology());
  if (!Topo)
    return Topo.takeError();
  P.Topo = std::move(*Topo);
  if (Msg.num_nodes() != 0 && Msg.num_nodes() != P.Topo.numNodes())
    return makeError("num_nodes " + Twine(Msg.num_nodes()) +
                     " does not match topology " + P.Topo.str() + " (" +
                     Twine(P.Topo.numNodes()) + " nodes)");
  if (Error E = convertModel(Msg.model(), P.Model))
    return E;
  if (!Msg.has_collective())
    return makeError("the plan has no collective");
  if (Error E = convertCollective(Msg.collective(), P.Coll))
    return E;
  return P;
}

std::string transferContext(uint32_t StepNumber, uint64_t Index) {
  return ("step " + Twine(StepNumber) + ", transfer " + Twine(Index) + ": ")
      .str();
}

Error appendTransfer(const proto::Transfer &In, Plan &P) {
  if (In.chunks_size() && In.cubes_size())
    return makeError("both chunk ranges and chunk cubes");
  if (In.chunks_size() == 0 && In.cubes_size() == 0)
    return makeError("empty chunk set");
  SmallVector<ChunkRange, 4> Ranges;
  for (const proto::ChunkRange &R : In.chunks()) {
    if (R.begin() >= R.end())
      return makeError("chunk range [" + Twine(R.begin()) + ", " +
                       Twine(R.end()) + ") is empty");
    Ranges.push_back(ChunkRange{R.begin(), R.end()});
  }
  normalizeChunkRanges(Ranges);
  SmallVector<ChunkCube, 4> Cubes;
  for (const proto::ChunkCube &C : In.cubes())
    Cubes.push_back(ChunkCube{C.base(), C.mask()});
  std::string Bad = checkChunkCubes(Cubes, [](ChunkCube C) {
    return "{base " + std::to_string(C.Base) + ", mask " +
           std::to_string(C.Mask) + "}";
  });
  if (!Bad.empty())
    return makeError(Bad);
  if (In.received_only() && !In.reduce())
    return makeError("received_only applies to reduces only");
  ChunkSetId Chunks = Cubes.empty() ? P.ChunkSets.intern(Ranges)
                                    : P.ChunkSets.internCubes(Cubes);
  if (Chunks >= MaxChunkSets)
    return makeError("too many distinct chunk sets (the limit is 2^30)");
  Transfer T;
  T.Src = In.src();
  T.Dst = In.dst();
  T.Chunks = Chunks;
  T.Reduce = In.reduce();
  T.ReceivedOnly = In.received_only();
  P.Transfers.push_back(T);
  return Error::success();
}

Expected<Plan> fromProto(const proto::Plan &Msg, StringRef File) {
  Expected<Plan> P = fromProtoHeader(Msg, File);
  if (!P)
    return P.takeError();
  P->StepNumbers.reserve(Msg.steps_size());
  P->StepStarts.reserve(Msg.steps_size() + 1);
  for (const proto::Step &InStep : Msg.steps()) {
    P->StepNumbers.push_back(InStep.number());
    for (int I = 0; I < InStep.transfers_size(); ++I)
      if (Error E = appendTransfer(InStep.transfers(I), *P))
        return makeError(transferContext(InStep.number(), uint64_t(I)) +
                         toString(std::move(E)));
    P->StepStarts.push_back(P->Transfers.size());
  }
  return P;
}

//===----------------------------------------------------------------------===//
// Plan sets
//===----------------------------------------------------------------------===//

using PS = proto::PlanSet;

static PS::Symmetry symmetryToProto(RootSymmetry S) {
  switch (S) {
  case RootSymmetry::None:
    return PS::SYMMETRY_NONE;
  case RootSymmetry::Translation:
    return PS::TRANSLATION;
  case RootSymmetry::Reflection:
    return PS::REFLECTION;
  case RootSymmetry::Xor:
    return PS::XOR;
  }
  return PS::SYMMETRY_NONE;
}

proto::PlanSet toProtoHeader(const PlanSet &S) {
  PS Out;
  Out.set_format(PlanSetFormat.str());
  Out.set_name(S.Name);
  Out.set_topology(S.Topo.str());
  Out.set_num_nodes(S.Topo.numNodes());
  modelToProto(S.Model, *Out.mutable_model());
  Out.set_kind(kindToProto(S.Kind));
  Out.set_symmetry(symmetryToProto(S.Symmetry));
  for (NodeId N : S.Place.NodeOfRank)
    Out.add_node_of_rank(N);
  Out.set_min_bytes(S.MinBytes);
  Out.set_max_bytes(S.MaxBytes);
  return Out;
}

void toProtoClasses(const PlanSet &S, proto::PlanSet &Out) {
  for (const RootClass &C : S.Classes) {
    proto::RootClass *OC = Out.add_classes();
    OC->set_representative(C.Representative);
    for (NodeId R : C.Roots)
      OC->add_roots(R);
    for (const SizeBand &B : C.Bands) {
      proto::SizeBand *OB = OC->add_bands();
      OB->set_lo(B.Lo);
      OB->set_hi(B.Hi);
      OB->set_plan(B.PlanIndex);
    }
  }
}

proto::PlanSet toProto(const PlanSet &S) {
  PS Out = toProtoHeader(S);
  for (const Plan &P : S.Plans)
    *Out.add_plans() = toProto(P);
  toProtoClasses(S, Out);
  return Out;
}

Expected<PlanSet> fromProtoHeader(const proto::PlanSet &Msg, StringRef File) {
  if (Msg.format().empty())
    return makeError("not a plan set: it has no format field (\"" +
                     PlanSetFormat + "\")");
  if (Msg.format() != PlanSetFormat)
    return makeError("not a plan set: its format is '" + Msg.format() +
                     "', not '" + PlanSetFormat + "'");
  PlanSet S;
  S.Name = Msg.name();
  if (Msg.topology().empty())
    return makeError("the plan set has no topology");
  Expected<Topology> Topo = Topology::parse(Msg.topology());
  if (!Topo)
    return makeError("topology: " + toString(Topo.takeError()));
  S.Topo = std::move(*Topo);
  if (Msg.num_nodes() != 0 && Msg.num_nodes() != S.Topo.numNodes())
    return makeError("num_nodes " + Twine(Msg.num_nodes()) +
                     " does not match topology " + S.Topo.str() + " (" +
                     Twine(S.Topo.numNodes()) + " nodes)");
  if (Error E = convertModel(Msg.model(), S.Model))
    return E;
  if (Error E = kindFromProto(Msg.kind(), "kind", S.Kind))
    return E;
  switch (Msg.symmetry()) {
  case PS::SYMMETRY_NONE:
    S.Symmetry = RootSymmetry::None;
    break;
  case PS::TRANSLATION:
    S.Symmetry = RootSymmetry::Translation;
    break;
  case PS::REFLECTION:
    S.Symmetry = RootSymmetry::Reflection;
    break;
  case PS::XOR:
    S.Symmetry = RootSymmetry::Xor;
    break;
  default:
    return makeError("unknown symmetry value " + Twine(int(Msg.symmetry())));
  }
  S.Place.NodeOfRank.assign(Msg.node_of_rank().begin(),
                            Msg.node_of_rank().end());
  S.MinBytes = Msg.min_bytes();
  S.MaxBytes = Msg.max_bytes();
  if (S.MinBytes > S.MaxBytes)
    return makeError("min_bytes " + Twine(S.MinBytes) + " is above max_bytes " +
                     Twine(S.MaxBytes));
  S.Classes.reserve(Msg.classes_size());
  for (const proto::RootClass &In : Msg.classes()) {
    RootClass C;
    C.Representative = In.representative();
    C.Roots.assign(In.roots().begin(), In.roots().end());
    C.Bands.reserve(In.bands_size());
    for (const proto::SizeBand &B : In.bands())
      C.Bands.push_back(SizeBand{B.lo(), B.hi(), B.plan()});
    S.Classes.push_back(std::move(C));
  }
  return S;
}

std::string planContext(uint64_t Index, StringRef Name) {
  return ("plan " + Twine(Index) + " ('" + Name + "'): ").str();
}

Expected<PlanSet> fromProto(const proto::PlanSet &Msg, StringRef File) {
  Expected<PlanSet> S = fromProtoHeader(Msg, File);
  if (!S)
    return S.takeError();
  S->Plans.reserve(Msg.plans_size());
  for (int I = 0; I < Msg.plans_size(); ++I) {
    Expected<Plan> P = fromProto(Msg.plans(I), File);
    if (!P)
      return makeError(planContext(uint64_t(I), Msg.plans(I).name()) +
                       toString(P.takeError()));
    S->Plans.push_back(std::move(*P));
  }
  return S;
}

} // namespace bcastc
