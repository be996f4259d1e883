//===- compiler/driver/RequestBuilder.cpp ---------------------------------===//

#include "compiler/driver/RequestBuilder.h"

#include "compiler/driver/Driver.h"
#include "compiler/driver/Suggest.h"
#include "ir/MachineModel.h"
#include "ir/MachineWords.h"
#include "ir/Units.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {

namespace {

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// --model's words (split as MachineModel::parseWords splits them) must not
/// contradict each other or --latency and --nu, which set the same
/// machine keys: the model would silently take the last one.
Error checkModelWords(const ToolOptions &Opts) {
  StringMap<std::string> Seen;
  if (Error E = forEachMachineWord(Opts.Model, [&](StringRef W) -> Error {
        if (!W.contains('='))
          return Error::success(); // parseWords reports it.
        StringRef Key = W.split('=').first;
        auto [It, New] = Seen.try_emplace(Key, W.str());
        if (!New)
          return failure("--model sets '" + Key + "' twice ('" + It->second +
                         "' and '" + W + "'); give it once");
        return Error::success();
      }))
    return E;
  auto Both = [&](StringRef Flag, StringRef Key, StringRef What) {
    return failure(Flag + " and --model=" + Seen[Key] + " both set " + What +
                   "; give one");
  };
  if (Opts.Latency && Seen.count("latency"))
    return Both("--latency=" + *Opts.Latency, "latency", "the postal latency");
  if (Opts.Nu && Seen.count("capacity"))
    return Both("--nu=" + std::to_string(*Opts.Nu), "capacity",
                "the link capacity");
  return Error::success();
}

/// Comma-separated ids below \p Limit (--sources' nodes, --dimension-order's
/// bits) appended to \p Out.
template <typename VectorT>
Error parseIdList(StringRef Opt, StringRef Text, uint64_t Limit,
                  VectorT &Out) {
  SmallVector<StringRef, 16> Items;
  Text.split(Items, ',');
  for (StringRef Item : Items) {
    uint64_t V;
    if (Item.trim().getAsInteger(10, V) || V >= Limit)
      return failure("--" + Opt + ": '" + Item + "' is not below " +
                     Twine(Limit));
    Out.push_back(uint32_t(V));
  }
  return Error::success();
}

Expected<SizeStrategy> sizeStrategy(StringRef Name) {
  if (Name == "auto")
    return SizeStrategy::Auto;
  if (Name == "virtual")
    return SizeStrategy::Virtual;
  if (Name == "companions")
    return SizeStrategy::Companions;
  return failure("--size-strategy: '" + Name +
                 "' is not auto, virtual or companions");
}

/// --alpha, --machine, --nu, --model and --latency, checked in the order the
/// tool has always checked them (the first wrong one is reported).
Error applyMachine(const ToolOptions &Opts, LoweringRequest &R) {
  if (Error E = checkModelWords(Opts))
    return E;
  MachineOptions MO;
  MO.Machine = Opts.Machine;
  MO.Nu = Opts.Nu.getValueOr(-1);
  MO.Overrides = Opts.Model;
  if (Opts.Latency)
    MO.Overrides += " latency=" + *Opts.Latency;
  if (Opts.Alpha) {
    auto A = parsePositiveRational(*Opts.Alpha);
    if (!A || !(*A < Rational(1))) {
      if (!A)
        consumeError(A.takeError());
      return failure("--alpha: '" + *Opts.Alpha +
                     "' is not a number in (0, 1)");
    }
    R.Alpha = *A;
  }
  if (Opts.Nu && *Opts.Nu < 0)
    return failure("--nu must not be negative");
  auto M = buildMachineModel(MO);
  if (!M)
    return M.takeError();
  R.Model = *M;
  return Error::success();
}

/// Splits \p Text at commas outside parentheses: `(0,1),(2,3)` is two
/// items.
SmallVector<StringRef, 16> splitNodeList(StringRef Text) {
  SmallVector<StringRef, 16> Items;
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '(')
      ++Depth;
    else if (Text[I] == ')' && Depth)
      --Depth;
    else if (Text[I] == ',' && !Depth) {
      Items.push_back(Text.slice(Start, I));
      Start = I + 1;
    }
  }
  Items.push_back(Text.substr(Start));
  return Items;
}

} // namespace

Expected<NodeId> parseNodeSpec(const Topology &Topo, StringRef Opt,
                               StringRef Text) {
  StringRef T = Text.trim();
  bool Parens = T.startswith("(") && T.endswith(")");
  if (Parens)
    T = T.drop_front().drop_back();
  if (Parens || T.contains(',')) {
    // Coordinates, as reports print nodes: (r,c) or r,c, outermost first.
    SmallVector<StringRef, 3> Parts;
    T.split(Parts, ',');
    SmallVector<uint32_t, 3> Coords;
    for (StringRef P : Parts) {
      uint32_t V;
      if (P.trim().getAsInteger(10, V))
        return failure("--" + Opt + ": '" + Text +
                       "' is neither a node id nor coordinates such as (1,2)");
    Coords.push_back(V);
    }
    auto Id = Topo.nodeAt(Coords);
    if (!Id)
      return failure("--" + Opt + "=" + Text + ": " + toString(Id.takeError()));
    return *Id;
  }
  uint64_t Id;
  if (T.getAsInteger(10, Id))
    return failure("--" + Opt + ": '" + Text + "' is not a node id" +
                   (Topo.kind() == TopologyKind::Mesh ||
                            Topo.kind() == TopologyKind::Torus
                        ? " or coordinates such as (1,2)"
                        : ""));
  if (Id >= Topo.numNodes())
    return failure("--" + Opt + "=" + Text + " is out of range: " + Topo.str() +
                   " has nodes 0.." + Twine(Topo.numNodes() - 1));
  return NodeId(Id);
}

Expected<Optional<ByteSpec>> parseByteSpec(const ToolOptions &Opts) {
  if (!Opts.Bytes)
    return None;
  StringRef Text = *Opts.Bytes;
  auto Count = [&](StringRef Item) -> Expected<uint64_t> {
    auto B = parseByteCount(Item.trim());
    if (!B)
      return failure("--bytes=" + Text + ": " + toString(B.takeError()));
    return *B;
  };
  ByteSpec S;
  if (Text.contains("..")) {
    StringRef LoText, HiText;
    std::tie(LoText, HiText) = Text.split("..");
    auto Lo = Count(LoText);
    if (!Lo)
      return Lo.takeError();
    auto Hi = Count(HiText);
    if (!Hi)
      return Hi.takeError();
    if (*Lo > *Hi)
      return failure("--bytes=" + Text + ": the range is empty ('" + LoText +
                     "' is more than '" + HiText + "')");
    S.IsRange = true;
    S.Lo = *Lo;
    S.Hi = *Hi;
    return S;
  }
  if (!Text.contains(','))
    return None;
  SmallVector<StringRef, 8> Items;
  Text.split(Items, ',');
  for (StringRef Item : Items) {
    auto B = Count(Item);
    if (!B)
      return B.takeError();
    S.Sizes.push_back(*B);
  }
  llvm::sort(S.Sizes);
  S.Sizes.erase(std::unique(S.Sizes.begin(), S.Sizes.end()), S.Sizes.end());
  S.Lo = S.Sizes.front();
  S.Hi = S.Sizes.back();
  return S;
}

Expected<Optional<std::vector<NodeId>>> parseRootList(const Topology &Topo,
                                                      StringRef Text) {
  StringRef T = Text.trim();
  if (T == "all")
    return std::vector<NodeId>();
  SmallVector<StringRef, 16> Items = splitNodeList(T);
  if (Items.size() < 2)
    return None;
  // `--root=1,1` names the node (1,1), as it always has.
  if (!T.contains('(') && Items.size() == Topo.numCoordinates()) {
    SmallVector<uint32_t, 3> Coords;
    for (StringRef I : Items) {
      uint32_t V;
      if (I.trim().getAsInteger(10, V))
        break;
      Coords.push_back(V);
    }
    if (Coords.size() == Items.size()) {
      Expected<NodeId> Id = Topo.nodeAt(Coords);
      if (Id)
        return None;
      consumeError(Id.takeError());
    }
  }
  std::vector<NodeId> Roots;
  for (StringRef Item : Items) {
    auto Id = parseNodeSpec(Topo, "root", Item);
    if (!Id)
      return Id.takeError();
    Roots.push_back(*Id);
  }
  llvm::sort(Roots);
  Roots.erase(std::unique(Roots.begin(), Roots.end()), Roots.end());
  return Roots;
}

Expected<uint64_t> messageBytes(const ToolOptions &Opts) {
  if (!Opts.Bytes)
    return uint64_t(64) << 10;
  auto B = parseByteCount(*Opts.Bytes);
  if (!B)
    return failure("--bytes: " + toString(B.takeError()));
  return *B;
}

Expected<LoweringRequest> buildLoweringRequest(const ToolOptions &Opts) {
  if (!Opts.Topology || Opts.Topology->empty())
    return failure("--topology is required (e.g. --topology=linear:16)");
  auto Topo = Topology::parse(*Opts.Topology);
  if (!Topo) {
    std::string Msg = toString(Topo.takeError());
    StringRef Kind = StringRef(*Opts.Topology).split(':').first;
    static const StringRef Kinds[] = {"linear", "ring",      "mesh",
                                      "torus",  "hypercube", "complete"};
    std::string Near = nearestName(Kind, Kinds);
    if (!Near.empty())
      Msg += "; did you mean '" + Near + ":" +
             StringRef(*Opts.Topology).split(':').second.str() + "'?";
    return failure(Msg);
  }
  LoweringRequest R;
  R.Topo = *Topo;
  auto Root = parseNodeSpec(*Topo, "root", Opts.Root);
  if (!Root)
    return Root.takeError();
  R.Root = *Root;
  if (Opts.Sources == "all") { // every node once: all-gather-like requests
    // Refused before listing 2^30 sources (4 GiB) for a plan that could
    // not be built anyway: reaching every node takes n - 1 transfers.
    if (Topo->numNodes() - 1 > Opts.MaxTransfers)
      return failure("--sources=all on " + Topo->str() + " names " +
                     Twine(Topo->numNodes()) +
                     " sources; a plan that reaches every node needs at "
                     "least " +
                     Twine(Topo->numNodes() - 1) +
                     " transfers, over the limit of " +
                     Twine(Opts.MaxTransfers) + " (--max-transfers)");
    for (NodeId X = 0; X < Topo->numNodes(); ++X)
      R.Sources.push_back(X);
  } else if (!Opts.Sources.empty())
    for (StringRef Item : splitNodeList(Opts.Sources)) {
      if (!Item.contains('(')) { // an id: the message says what it must be
        if (Error E = parseIdList("sources", Item, Topo->numNodes(),
                                  R.Sources))
          return std::move(E);
        continue;
      }
      auto Id = parseNodeSpec(*Topo, "sources", Item);
      if (!Id)
        return Id.takeError();
      R.Sources.push_back(*Id);
    }
  if (!Opts.DimensionOrder.empty())
    if (Error E = parseIdList("dimension-order", Opts.DimensionOrder,
                              Topo->numCoordinates() ? 64 : 0,
                              R.DimensionOrder))
      return std::move(E);
  R.Seed = Opts.Seed;
  if (Opts.NpD && *Opts.NpD < 0)
    return failure("--np-d must not be negative");
  R.NpD = Opts.NpD.getValueOr(-1);
  R.Packets = Opts.Packets;
  R.MaxTransfers = Opts.MaxTransfers;
  auto Bytes = messageBytes(Opts);
  if (!Bytes)
    return Bytes.takeError();
  R.Bytes = *Bytes;
  auto Sizes = sizeStrategy(Opts.SizeStrategy);
  if (!Sizes)
    return Sizes.takeError();
  R.Sizes = *Sizes;
  if (Error E = applyMachine(Opts, R))
    return std::move(E);
  return R;
}

Expected<RequestedPlan> compileRequested(const ToolOptions &Opts,
                                         raw_ostream &Err) {
  auto R = buildLoweringRequest(Opts);
  if (!R)
    return R.takeError();
  auto C = compile(*R, Opts.Algorithm);
  if (!C)
    return C.takeError();
  C->Result.printDiagnostics(Err, "<generated>");
  return RequestedPlan{std::move(*R), std::move(*C)};
}

} // namespace bcastc
