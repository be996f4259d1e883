//===- runtime/PlanSetFileParse.cpp - Opening a plan-set file -----------===//
//
// PlanSetFile::parse runs once per file, at open: the digest is checked
// before any message is read, then the header, each plan's header (its
// steps are read when a rank needs them, PlanSetFile::movesOf) and the root
// classes with their bands, which must be what ir/PlanSet.cpp's
// checkStructure accepts.
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanSetFile.h"

#include "runtime/PlanSetWire.h"
#include "runtime/ProtoWire.h"
#include "runtime/Sha256.h"

#include <cstring>

namespace bcastc {
namespace rt {

using namespace wire;

bool PlanSetFile::parse(std::string &Err) {
  auto Fail = [&](const std::string &Msg) {
    Err = Origin + ": " + Msg;
    return false;
  };
  WireReader R(Data, Size);
  uint32_t Field, Type;
  std::string Format;
  uint32_t NumNodes = 0, Kind = 0;
  bool HaveDigest = false;
  size_t DigestAt = 0;
  std::vector<WireReader> PlanMsgs, ClassMsgs;
  // Messages are read after the digest check: a changed byte is reported
  // as a changed file, not as whatever it breaks.
  WireReader Model;
  for (size_t TagAt = R.offset(); R.next(Field, Type); TagAt = R.offset()) {
    if (HaveDigest)
      return Fail("field " + std::to_string(Field) +
                  " follows the digest (field 13 must come last)");
    const bool Len = Type == WireReader::kLengthDelimited;
    const bool Var = Type == WireReader::kVarint;
    switch (Field) {
    case kSetFormat:
      if (!Len)
        return Fail("the format field is not a string");
      Format = R.string();
      if (Format != kFormat)
        return Fail("not a plan set (field 1 is '" + Format.substr(0, 40) +
                    "', not '" + kFormat + "'); a single plan? "
                    "build a set with `bcastc compile --root=all "
                    "--bytes=LO..HI --emit=proto`");
      break;
    case kSetName:
      if (!Len)
        return Fail("the name field is not a string");
      Name = R.string();
      break;
    case kSetTopology:
      if (!Len)
        return Fail("the topology field is not a string");
      TopoSpec = R.string();
      break;
    case kSetNumNodes:
      if (!Var)
        return Fail("num_nodes is not a varint");
      NumNodes = R.varint32();
      break;
    case kSetModel:
      if (!Len)
        return Fail("the model is not a message");
      Model = R.message();
      break;
    case kSetKind:
      if (!Var)
        return Fail("kind is not a varint");
      Kind = R.varint32();
      break;
    case kSetSymmetry:
      if (!Var)
        return Fail("symmetry is not a varint");
      {
        const uint32_t S = R.varint32();
        if (S > 3)
          return Fail("unknown symmetry " + std::to_string(S));
        Sym = Symmetry(S);
      }
      break;
    case kSetNodeOfRank:
      R.repeatedVarint32(Type, [&](uint32_t N) { NodeOfRank.push_back(N); });
      break;
    case kSetPlans:
      if (!Len)
        return Fail("a plan is not a message");
      PlanMsgs.push_back(R.message());
      break;
    case kSetClasses:
      if (!Len)
        return Fail("a root class is not a message");
      ClassMsgs.push_back(R.message());
      break;
    case kSetDigest: {
      if (!Len)
        return Fail("the digest is not bytes");
      DigestAt = TagAt;
      const uint8_t *D;
      size_t N;
      if (!R.bytes(D, N))
        break;
      if (N != 32)
        return Fail("the digest has " + std::to_string(N) +
                    " bytes, not 32 (SHA-256)");
      std::memcpy(Digest.data(), D, 32);
      HaveDigest = true;
      break;
    }
    default:
      R.skip(Type);
    }
  }
  if (!R.ok())
    return Fail("malformed: " + R.error());
  if (Format != kFormat)
    return Fail("not a plan set (no format field 'bcastc-plan-set')");
  if (!HaveDigest)
    return Fail("has no digest (field 13); written by an older bcastc?");
  if (Sha256::of(Data, DigestAt) != Sha256::Digest(Digest))
    return Fail("digest mismatch: the file was changed after bcastc wrote "
                "it (SHA-256 of bytes 0.." +
                std::to_string(DigestAt) + " is " +
                Sha256::hex(Sha256::of(Data, DigestAt)) + ", the file says " +
                Sha256::hex(Digest) + ")");
  if (!parseModel(Model, Err))
    return false;
  if (Kind != kBroadcast)
    return Fail("a plan set of collective kind " + std::to_string(Kind) +
                "; the library serves broadcasts only");
  if (!SetTopology::parse(TopoSpec, Topo, Err))
    return Fail(Err);
  if (NumNodes != Topo.NumNodes)
    return Fail("num_nodes " + std::to_string(NumNodes) + " is not the " +
                std::to_string(Topo.NumNodes) + " nodes of " + TopoSpec);
  if (!isPlacement(NodeOfRank, NumNodes))
    return Fail("node_of_rank is not a permutation of the " +
                std::to_string(NumNodes) + " nodes");

  return parsePlans(PlanMsgs, NumNodes, Err) &&
         parseClasses(ClassMsgs, NumNodes, Err);
}

/// The model words the executor needs: whether sends are synchronous
/// (latency 1) and, for timing=dataflow, the window.
bool PlanSetFile::parseModel(WireReader Model, std::string &Err) {
  auto Fail = [&](const std::string &Msg) {
    Err = Origin + ": " + Msg;
    return false;
  };
  uint32_t MF, MT, Timing = 0, ModelWindow = kDefaultWindow;
  while (Model.next(MF, MT)) {
    if (MF == kModelLatency && MT == WireReader::kVarint)
      Synchronous = Model.varint32() == 1;
    else if (MF == kModelLatencyNum && MT == WireReader::kVarint) {
      Model.varint();
      Synchronous = false; // lambda is not an integer
    } else if (MF == kModelTiming && MT == WireReader::kVarint)
      Timing = Model.varint32();
    else if (MF == kModelWindow && MT == WireReader::kVarint)
      ModelWindow = Model.varint32();
    else
      Model.skip(MT);
  }
  if (!Model.ok())
    return Fail("the machine model is malformed: " + Model.error());
  if (Timing == kTimingDataflow) {
    // ir/MachineModel.cpp's check(): bcastc writes no other.
    if (ModelWindow < 1 || ModelWindow > 1024)
      return Fail("the model's window " + std::to_string(ModelWindow) +
                  " is not from 1 to 1024");
    if (!Synchronous)
      return Fail("the model has timing=dataflow with a latency other than "
                  "1");
    Window = ModelWindow;
  }
  return true;
}

bool PlanSetFile::parsePlans(const std::vector<WireReader> &PlanMsgs,
                             uint32_t NumNodes, std::string &Err) {
  auto Fail = [&](const std::string &Msg) {
    Err = Origin + ": " + Msg;
    return false;
  };
  for (WireReader P : PlanMsgs) {
    PlanInfo Info;
    // Offsets into the file, for movesOf's readers.
    Info.Offset = P.offset();
    uint32_t PF, PT, PlanNodes = 0, Chunks = 0, Control = 0, CollKind = 0;
    std::vector<uint32_t> Roots;
    const uint8_t *Start = P.position();
    while (P.next(PF, PT)) {
      if (PF == kPlanName && PT == WireReader::kLengthDelimited)
        Info.Name = P.string();
      else if (PF == kPlanNumNodes && PT == WireReader::kVarint)
        PlanNodes = P.varint32();
      else if (PF == kPlanCollective && PT == WireReader::kLengthDelimited) {
        WireReader C = P.message();
        uint32_t CF, CT;
        while (C.next(CF, CT)) {
          if (CF == kCollKind && CT == WireReader::kVarint)
            CollKind = C.varint32();
          else if (CF == kCollRoots)
            C.repeatedVarint32(CT, [&](uint32_t V) { Roots.push_back(V); });
          else if (CF == kCollChunks && CT == WireReader::kVarint)
            Chunks = C.varint32();
          else if (CF == kCollControl && CT == WireReader::kVarint)
            Control = C.varint32();
          else
            C.skip(CT);
        }
        P.adopt(C);
      } else
        P.skip(PT); // steps: read when a rank needs them
    }
    const std::string Which =
        "plan " + std::to_string(Plans.size()) + " ('" + Info.Name + "')";
    if (!P.ok())
      return Fail(Which + " is malformed: " + P.error());
    Info.Size = size_t(P.position() - Start);
    if (PlanNodes != NumNodes)
      return Fail(Which + " has " + std::to_string(PlanNodes) +
                  " nodes, the set " + std::to_string(NumNodes));
    if (CollKind != kBroadcast || Roots.size() != 1 || Roots[0] >= NumNodes)
      return Fail(Which + " is not a one-root broadcast on the set's nodes");
    if (Chunks == 0 || Control >= Chunks)
      return Fail(Which + " has no data chunks");
    Info.Root = Roots[0];
    Info.DataChunks = Chunks - Control;
    Plans.push_back(std::move(Info));
  }
  if (Plans.empty())
    return Fail("the set has no plans");

  return true;
}

bool PlanSetFile::parseClasses(const std::vector<WireReader> &ClassMsgs,
                               uint32_t NumNodes, std::string &Err) {
  auto Fail = [&](const std::string &Msg) {
    Err = Origin + ": " + Msg;
    return false;
  };
  ClassOfNode.assign(NumNodes, -1);
  for (WireReader C : ClassMsgs) {
    Class K;
    const std::string Which = "root class " + std::to_string(Classes.size());
    uint32_t CF, CT;
    while (C.next(CF, CT)) {
      if (CF == kClassRep && CT == WireReader::kVarint)
        K.Representative = C.varint32();
      else if (CF == kClassRoots)
        C.repeatedVarint32(CT, [&](uint32_t V) { K.Roots.push_back(V); });
      else if (CF == kClassBands && CT == WireReader::kLengthDelimited) {
        WireReader B = C.message();
        Band Bd;
        uint32_t BF, BT;
        while (B.next(BF, BT)) {
          if (BF == kBandLo && BT == WireReader::kVarint)
            Bd.Lo = B.varint();
          else if (BF == kBandHi && BT == WireReader::kVarint)
            Bd.Hi = B.varint();
          else if (BF == kBandPlan && BT == WireReader::kVarint)
            Bd.Plan = B.varint32();
          else
            B.skip(BT);
        }
        C.adopt(B);
        K.Bands.push_back(Bd);
      } else
        C.skip(CT);
    }
    if (!C.ok())
      return Fail(Which + " is malformed: " + C.error());
    if (K.Roots.empty() || K.Bands.empty())
      return Fail(Which + " has no roots or no bands");
    if (K.Representative >= NumNodes)
      return Fail(Which + ": representative " +
                  std::to_string(K.Representative) + " is not a node");
    for (size_t I = 0; I < K.Roots.size(); ++I) {
      const uint32_t Root = K.Roots[I];
      if (Root >= NumNodes || (I && Root <= K.Roots[I - 1]))
        return Fail(Which + ": roots are not sorted, distinct nodes");
      if (ClassOfNode[Root] >= 0)
        return Fail(Which + ": root " + std::to_string(Root) +
                    " is also in root class " +
                    std::to_string(ClassOfNode[Root]));
      ClassOfNode[Root] = int32_t(Classes.size());
      Relabelling M;
      std::string Why;
      if (!Relabelling::between(Topo, Sym, K.Representative, Root, M, Why))
        return Fail(Which + ": " + Why);
    }
    for (size_t I = 0; I < K.Bands.size(); ++I) {
      const Band &Bd = K.Bands[I];
      const std::string BWhich = Which + ", band " + std::to_string(I);
      if (Bd.Lo != (I ? K.Bands[I - 1].Hi : 0) || Bd.Hi <= Bd.Lo)
        return Fail(BWhich + " [" + std::to_string(Bd.Lo) + ", " +
                    std::to_string(Bd.Hi) +
                    ") does not continue the bands before it");
      if (Bd.Plan >= Plans.size())
        return Fail(BWhich + " names plan " + std::to_string(Bd.Plan) +
                    ", the set has " + std::to_string(Plans.size()));
      if (Plans[Bd.Plan].Root != K.Representative)
        return Fail(BWhich + " names a plan rooted at " +
                    std::to_string(Plans[Bd.Plan].Root) +
                    ", not the class's representative " +
                    std::to_string(K.Representative));
    }
    if (K.Bands.back().Hi != UINT64_MAX)
      return Fail(Which + ": the last band does not reach 2^64-1");
    Classes.push_back(std::move(K));
  }
  if (Classes.empty())
    return Fail("the set has no root classes");
  return true;
}

} // namespace rt
} // namespace bcastc
