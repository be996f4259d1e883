//===- tests/runtime/PlanSetFileTest.cpp - The runtime's plan-set reader --===//
//
// runtime/ProtoWire.h and runtime/PlanSetFile.h against the reference they
// re-implement without LLVM or protobuf: sets serialized here with the
// protobuf API, moves compared with ir/BroadcastSchedule.h, relabellings
// and placements with ir/PlanSet.h; hostile bytes (every truncation, every
// flipped byte, wrong and missing digests) are refused with a message and
// never crash.
//
//===----------------------------------------------------------------------===//

#include "runtime/PlanSetFile.h"
#include "runtime/ProtoWire.h"
#include "runtime/Sha256.h"

#include "ir/BroadcastSchedule.h"
#include "ir/PlanSet.h"
#include "ir/ProtoConversion.h"
#include "ir/ProtoWriter.h"
#include "ir/plan.pb.h"

#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace bcastc;

namespace {

std::string withDigest(const proto::PlanSet &Set) {
  std::string Bytes = Set.SerializeAsString();
  const Sha256::Digest D = Sha256::of(Bytes.data(), Bytes.size());
  proto::PlanSet Tail;
  Tail.set_digest(std::string(D.begin(), D.end()));
  return Bytes + Tail.SerializeAsString();
}

void addTransfer(proto::Step *S, uint32_t Src, uint32_t Dst, uint32_t Begin,
                 uint32_t End) {
  proto::Transfer *T = S->add_transfers();
  T->set_src(Src);
  T->set_dst(Dst);
  proto::ChunkRange *R = T->add_chunks();
  R->set_begin(Begin);
  R->set_end(End);
}

/// A verified broadcast on complete:4 from root 0 with everything trimming
/// handles: an overlap within a step, a chunk cube, a transfer into a node
/// that holds some of it, one into the root, a control chunk.
proto::Plan handPlan() {
  proto::Plan P;
  P.set_name("hand");
  P.set_topology("complete:4");
  P.set_num_nodes(4);
  P.mutable_model()->set_latency(1);
  proto::Collective *C = P.mutable_collective();
  C->set_kind(proto::Collective::BROADCAST);
  C->add_roots(0);
  C->set_chunks(5);
  C->set_control_chunks(1);
  proto::Step *S0 = P.add_steps();
  S0->set_number(0);
  addTransfer(S0, 0, 1, 0, 4);
  proto::Step *S1 = P.add_steps();
  S1->set_number(1);
  addTransfer(S1, 0, 2, 0, 2);
  addTransfer(S1, 1, 2, 1, 4);
  proto::Transfer *Cube = S1->add_transfers();
  Cube->set_src(1);
  Cube->set_dst(3);
  proto::ChunkCube *K = Cube->add_cubes();
  K->set_base(0);
  K->set_mask(1); // chunks 0, 1
  proto::Step *S2 = P.add_steps();
  S2->set_number(3); // a gap: tags follow step numbers
  addTransfer(S2, 2, 3, 0, 4);
  addTransfer(S2, 3, 0, 0, 1);
  addTransfer(S2, 0, 1, 4, 5); // control only
  return P;
}

proto::PlanSet handSet() {
  proto::PlanSet Set;
  Set.set_format("bcastc-plan-set");
  Set.set_name("hand-set");
  Set.set_topology("complete:4");
  Set.set_num_nodes(4);
  Set.mutable_model()->set_latency(1);
  Set.set_kind(proto::Collective::BROADCAST);
  Set.set_symmetry(proto::PlanSet::TRANSLATION);
  *Set.add_plans() = handPlan();
  proto::Plan Second = handPlan();
  Second.set_name("hand-2");
  *Set.add_plans() = Second;
  proto::RootClass *C = Set.add_classes();
  C->set_representative(0);
  for (uint32_t R = 0; R < 4; ++R)
    C->add_roots(R);
  proto::SizeBand *B0 = C->add_bands();
  B0->set_lo(0);
  B0->set_hi(4096);
  B0->set_plan(0);
  proto::SizeBand *B1 = C->add_bands();
  B1->set_lo(4096);
  B1->set_hi(UINT64_MAX);
  B1->set_plan(1);
  return Set;
}

std::unique_ptr<rt::PlanSetFile> openBytes(const std::string &Bytes,
                                           std::string &Err) {
  return rt::PlanSetFile::fromBytes(Bytes.data(), Bytes.size(), "set.pb",
                                    Err);
}

} // namespace

TEST(WireReaderTest, ReadsAndRefusesHostileBytes) {
  const uint8_t Good[] = {0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i'};
  WireReader R(Good, sizeof Good);
  uint32_t F, T;
  ASSERT_TRUE(R.next(F, T));
  EXPECT_EQ(F, 1u);
  EXPECT_EQ(R.varint(), 150u);
  ASSERT_TRUE(R.next(F, T));
  EXPECT_EQ(R.string(), "hi");
  EXPECT_FALSE(R.next(F, T));
  EXPECT_TRUE(R.ok());

  const uint8_t Truncated[] = {0x08, 0x96};
  WireReader R2(Truncated, sizeof Truncated);
  ASSERT_TRUE(R2.next(F, T));
  R2.varint();
  EXPECT_FALSE(R2.ok());
  EXPECT_NE(R2.error().find("byte 1: truncated varint"), std::string::npos)
      << R2.error();

  const uint8_t Long[] = {0x12, 0x05, 'h', 'i'};
  WireReader R3(Long, sizeof Long);
  ASSERT_TRUE(R3.next(F, T));
  R3.string();
  EXPECT_NE(R3.error().find("runs past the end"), std::string::npos);

  const uint8_t Overlong[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
                              0xff, 0xff, 0xff, 0xff, 0x7f};
  WireReader R4(Overlong, sizeof Overlong);
  ASSERT_TRUE(R4.next(F, T));
  R4.varint();
  EXPECT_NE(R4.error().find("longer than 64 bits"), std::string::npos);

  const uint8_t Group[] = {0x0b}; // field 1, wire type 3
  WireReader R5(Group, sizeof Group);
  EXPECT_FALSE(R5.next(F, T));
  EXPECT_NE(R5.error().find("bad tag"), std::string::npos);

  const uint8_t Field0[] = {0x00, 0x01};
  WireReader R6(Field0, sizeof Field0);
  EXPECT_FALSE(R6.next(F, T));

  // 2^32 does not fit a uint32 field; a packed list past its end fails.
  const uint8_t Big[] = {0x80, 0x80, 0x80, 0x80, 0x10};
  WireReader R7(Big, sizeof Big);
  R7.varint32();
  EXPECT_NE(R7.error().find("does not fit 32 bits"), std::string::npos);
  const uint8_t Packed[] = {0x03, 0x01, 0x02};
  WireReader R8(Packed, sizeof Packed);
  R8.repeatedVarint32(WireReader::kLengthDelimited, [](uint32_t) {});
  EXPECT_FALSE(R8.ok());
}

TEST(PlanSetFileTest, OpensSelectsAndTrimsAsTheScheduler) {
  const std::string Bytes = withDigest(handSet());
  std::string Err;
  auto F = openBytes(Bytes, Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_EQ(F->name(), "hand-set");
  EXPECT_EQ(F->numNodes(), 4u);
  EXPECT_EQ(F->numPlans(), 2u);
  EXPECT_TRUE(F->synchronousSends());

  rt::Selection Sel;
  ASSERT_TRUE(F->select(2, 4095, Sel, Err)) << Err;
  EXPECT_EQ(Sel.Plan, 0u);
  EXPECT_EQ(Sel.BandIndex, 0u);
  ASSERT_TRUE(F->select(2, 4096, Sel, Err)) << Err;
  EXPECT_EQ(Sel.Plan, 1u);
  ASSERT_TRUE(F->select(3, UINT64_MAX, Sel, Err)) << Err;
  EXPECT_EQ(Sel.BandIndex, 1u);
  rt::Relabelling Map;
  ASSERT_TRUE(F->relabelling(Sel.ClassIndex, 3, Map, Err)) << Err;
  EXPECT_EQ(Map.map(0), 3u);
  EXPECT_FALSE(F->select(4, 1, Sel, Err));

  // Every node's moves are the scheduler's, seen from that node.
  auto Ref = fromProto(handPlan(), "hand");
  ASSERT_TRUE(bool(Ref)) << llvm::toString(Ref.takeError());
  auto Sched = scheduleBroadcast(*Ref, "test");
  ASSERT_TRUE(bool(Sched)) << llvm::toString(Sched.takeError());
  for (uint32_t Node = 0; Node < 4; ++Node) {
    std::vector<rt::Move> Moves;
    uint32_t D = 0;
    ASSERT_TRUE(F->movesOf(0, Node, Moves, D, Err)) << Err;
    EXPECT_EQ(D, 4u);
    std::vector<std::string> Want, Got;
    for (size_t S = 0; S < Sched->Steps.size(); ++S)
      for (int Send = 0; Send < 2; ++Send)
        for (const ScheduledMove &M : Sched->Steps[S]) {
          if ((Send ? M.Src : M.Dst) != Node)
            continue;
          std::string Line = std::to_string(Sched->PlanStep[S]) +
                             (Send ? " send " : " recv ") +
                             std::to_string(Send ? M.Dst : M.Src);
          for (const ChunkRange &C : M.Chunks)
            Line += " " + std::to_string(C.Begin) + "-" +
                    std::to_string(C.End);
          Want.push_back(Line);
        }
    for (const rt::Move &M : Moves) {
      // The IR numbers steps densely; the wire keeps the gaps.
      const uint32_t Step = M.Step == 3 ? 2 : M.Step;
      std::string Line = std::to_string(Step) +
                         (M.Send ? " send " : " recv ") +
                         std::to_string(M.Peer);
      for (const auto &C : M.Chunks)
        Line += " " + std::to_string(C.first) + "-" +
                std::to_string(C.second);
      Got.push_back(Line);
    }
    EXPECT_EQ(Got, Want) << "node " << Node;
  }
}

TEST(PlanSetFileTest, RefusesEveryTruncationAndTampering) {
  const std::string Bytes = withDigest(handSet());
  std::string Err;
  for (size_t N = 0; N < Bytes.size(); ++N) {
    Err.clear();
    EXPECT_FALSE(openBytes(Bytes.substr(0, N), Err)) << "truncated at " << N;
    EXPECT_FALSE(Err.empty());
  }
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::string Bad = Bytes;
    Bad[I] ^= 0x20;
    Err.clear();
    EXPECT_FALSE(openBytes(Bad, Err)) << "byte " << I << " flipped";
    EXPECT_NE(Err.find("set.pb: "), std::string::npos) << Err;
  }
  std::string Bad = Bytes;
  Bad[20] ^= 1;
  Err.clear();
  openBytes(Bad, Err);
  // Byte 20 is in the name: well-formed, but not what was hashed.
  EXPECT_NE(Err.find("digest mismatch"), std::string::npos) << Err;

  Err.clear();
  EXPECT_FALSE(openBytes(handSet().SerializeAsString(), Err));
  EXPECT_NE(Err.find("has no digest"), std::string::npos) << Err;

  Err.clear();
  EXPECT_FALSE(openBytes(Bytes + std::string("\x10\x01", 2), Err));
  EXPECT_NE(Err.find("follows the digest"), std::string::npos) << Err;

  // A single plan, as older bcastc wrote for the library.
  Err.clear();
  EXPECT_FALSE(openBytes(handPlan().SerializeAsString(), Err));
  EXPECT_NE(Err.find("not a plan set"), std::string::npos) << Err;

  // Well-formed and digested, but structurally wrong: refused by name.
  proto::PlanSet Gap = handSet();
  Gap.mutable_classes(0)->mutable_bands(1)->set_lo(5000);
  Err.clear();
  EXPECT_FALSE(openBytes(withDigest(Gap), Err));
  EXPECT_NE(Err.find("root class 0, band 1"), std::string::npos) << Err;
  // A digested cube of 2^31 runs: refused, not allocated.
  proto::PlanSet Huge = handSet();
  Huge.mutable_plans(0)->mutable_collective()->set_chunks(UINT32_MAX);
  Huge.mutable_plans(0)
      ->mutable_steps(1)
      ->mutable_transfers(2)
      ->mutable_cubes(0)
      ->set_mask(0xfffffffe);
  auto H = openBytes(withDigest(Huge), Err);
  ASSERT_TRUE(H) << Err;
  std::vector<rt::Move> HugeMoves;
  uint32_t HugeChunks;
  EXPECT_FALSE(H->movesOf(0, 3, HugeMoves, HugeChunks, Err));
  EXPECT_NE(Err.find("more than 16777216 runs"), std::string::npos) << Err;
  proto::PlanSet Beyond = handSet();
  Beyond.mutable_plans(0)->mutable_steps(0)->mutable_transfers(0)->set_dst(9);
  auto F = openBytes(withDigest(Beyond), Err);
  ASSERT_TRUE(F) << Err; // steps are read lazily
  std::vector<rt::Move> Moves;
  uint32_t D;
  EXPECT_FALSE(F->movesOf(0, 1, Moves, D, Err));
  EXPECT_NE(Err.find("names a node beyond 4"), std::string::npos) << Err;
}

TEST(SetTopologyTest, RelabellingsAreIrPlanSets) {
  struct Case {
    const char *Spec;
    RootSymmetry Ir;
    rt::Symmetry Rt;
  } Cases[] = {{"torus:4x4", RootSymmetry::Translation,
                rt::Symmetry::Translation},
               {"ring:6", RootSymmetry::Translation, rt::Symmetry::Translation},
               {"complete:5", RootSymmetry::Translation,
                rt::Symmetry::Translation},
               {"mesh:4x3", RootSymmetry::Reflection, rt::Symmetry::Reflection},
               {"hypercube:4", RootSymmetry::Xor, rt::Symmetry::Xor}};
  for (const Case &C : Cases) {
    auto Topo = Topology::parse(C.Spec);
    ASSERT_TRUE(bool(Topo));
    rt::SetTopology T;
    std::string Err;
    ASSERT_TRUE(rt::SetTopology::parse(C.Spec, T, Err)) << Err;
    ASSERT_EQ(T.NumNodes, Topo->numNodes());
    for (uint32_t To = 0; To < T.NumNodes; ++To) {
      const uint32_t From = classRepresentative(*Topo, C.Ir, To);
      auto Ir = NodeRelabelling::between(*Topo, C.Ir, From, To);
      ASSERT_TRUE(bool(Ir));
      rt::Relabelling R;
      ASSERT_TRUE(rt::Relabelling::between(T, C.Rt, From, To, R, Err)) << Err;
      for (uint32_t N = 0; N < T.NumNodes; ++N) {
        EXPECT_EQ(R.map(N), Ir->map(N)) << C.Spec << " " << From << "->" << To;
        EXPECT_EQ(R.inverse(N), Ir->inverse(N)) << C.Spec;
      }
    }
  }
  rt::SetTopology T;
  std::string Err;
  EXPECT_FALSE(rt::SetTopology::parse("torus:4", T, Err));
  EXPECT_FALSE(rt::SetTopology::parse("star:4", T, Err));
  EXPECT_FALSE(rt::SetTopology::parse("hypercube:31", T, Err));
  EXPECT_FALSE(rt::SetTopology::parse("mesh:0x4", T, Err));
  ASSERT_TRUE(rt::SetTopology::parse("mesh:2x3", T, Err));
  EXPECT_EQ(T.cartesianDims(), (std::vector<int>{2, 3}));
  EXPECT_EQ(T.nodeAtCartesian({1, 2}), 5u);
  ASSERT_TRUE(rt::SetTopology::parse("hypercube:3", T, Err));
  EXPECT_EQ(T.cartesianDims(), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(T.nodeAtCartesian({1, 0, 1}), 5u);
}

TEST(SetTopologyTest, PlacementFilesAreIrPlacements) {
  const char *Inputs[] = {
      "3 2 1 0\n",
      "# torus\n(0,1) (0,0)\n1,1 # end\n(1,0)\n",
      "0 1 2\n",         // too few
      "0 1 2 3 4\n",     // too many
      "0 0 1 2\n",       // twice
      "(0,1 (0,0) 3 2\n", // no ')'
      "(2,0) 1 2 3\n",   // out of range
      "x 1 2 3\n",
  };
  auto Topo = Topology::parse("mesh:2x2");
  ASSERT_TRUE(bool(Topo));
  rt::SetTopology T;
  std::string Err;
  ASSERT_TRUE(rt::SetTopology::parse("mesh:2x2", T, Err));
  for (const char *In : Inputs) {
    auto Ir = parsePlacement(In, "p.txt", *Topo);
    std::vector<uint32_t> Nodes;
    const bool Ok = rt::parsePlacement(In, "p.txt", T, Nodes, Err);
    ASSERT_EQ(Ok, bool(Ir)) << In << ": " << Err;
    if (Ok)
      EXPECT_EQ(Nodes, Ir->NodeOfRank) << In;
    else {
      // Both name the file and, for errors on a line, the line.
      const std::string IrErr = llvm::toString(Ir.takeError());
      EXPECT_EQ(Err.substr(0, Err.find(' ')), IrErr.substr(0, IrErr.find(' ')))
          << In;
    }
  }
}

TEST(PlanSetFileTest, DigestedGarbageIsRefusedOrReadSafely) {
  // The digest proves integrity, not sanity: a file bcastc did not write
  // may carry a valid digest of anything. Mutate the hashed bytes, digest
  // them again, and read every node of every plan: refused with a message
  // or read, never out of bounds (the sanitizer builds check the latter).
  const std::string Set = handSet().SerializeAsString();
  uint64_t Seed = 0x9E3779B97F4A7C15ull;
  auto Next = [&] {
    Seed ^= Seed << 13;
    Seed ^= Seed >> 7;
    Seed ^= Seed << 17;
    return Seed;
  };
  int Opened = 0, Read = 0;
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Bytes = Set;
    for (int K = 1 + int(Next() % 3); K > 0; --K)
      Bytes[Next() % Bytes.size()] = char(Next());
    const Sha256::Digest D = Sha256::of(Bytes.data(), Bytes.size());
    proto::PlanSet Tail;
    Tail.set_digest(std::string(D.begin(), D.end()));
    Bytes += Tail.SerializeAsString();
    std::string Err;
    auto F = openBytes(Bytes, Err);
    if (!F) {
      EXPECT_FALSE(Err.empty());
      continue;
    }
    ++Opened;
    for (uint32_t P = 0; P < F->numPlans(); ++P)
      for (uint32_t Node = 0; Node < F->numNodes(); ++Node) {
        std::vector<rt::Move> Moves;
        uint32_t Chunks = 0;
        if (F->movesOf(P, Node, Moves, Chunks, Err)) {
          ++Read;
          for (const rt::Move &M : Moves) {
            EXPECT_LT(M.Peer, F->numNodes());
            for (const auto &C : M.Chunks)
              EXPECT_TRUE(C.first < C.second && C.second <= Chunks);
          }
        }
      }
  }
  // Most single-byte changes inside plan steps still parse.
  EXPECT_GT(Opened, 100);
  EXPECT_GT(Read, 100);
}

TEST(PlanSetFileTest, ReadsWhatBcastcWrites) {
  // ir/ProtoWriter.h writes the digest bcastc ships; the library must
  // accept exactly that file and see the same set.
  auto P = fromProto(handPlan(), "hand");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  PlanSet S;
  S.Name = "written";
  S.Topo = P->Topo;
  S.Model = P->Model;
  S.Kind = CollectiveKind::Broadcast;
  S.Symmetry = RootSymmetry::Translation;
  S.Place.NodeOfRank = {3, 1, 0, 2};
  S.MinBytes = 8;
  S.MaxBytes = 1 << 24;
  S.Plans.push_back(*P);
  RootClass C;
  C.Representative = 0;
  C.Roots = {0, 1, 2, 3};
  C.Bands.push_back(SizeBand{0, UINT64_MAX, 0});
  S.Classes.push_back(C);
  ASSERT_FALSE(bool(S.checkStructure()));
  std::string Bytes;
  llvm::raw_string_ostream OS(Bytes);
  writeBinaryProtoPlanSet(S, OS);
  OS.flush();
  std::string Err;
  auto F = openBytes(Bytes, Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_EQ(F->name(), "written");
  EXPECT_EQ(F->topologySpec(), "complete:4");
  EXPECT_EQ(F->placement(), S.Place.NodeOfRank);
  EXPECT_EQ(F->symmetry(), rt::Symmetry::Translation);
  // Root 2: the representative's plan relabelled, as PlanSet does it.
  rt::Selection Sel;
  rt::Relabelling Map;
  ASSERT_TRUE(F->select(2, 100, Sel, Err)) << Err;
  ASSERT_TRUE(F->relabelling(Sel.ClassIndex, 2, Map, Err)) << Err;
  auto IrSel = S.select(2, 100);
  ASSERT_TRUE(bool(IrSel));
  for (uint32_t N = 0; N < 4; ++N)
    EXPECT_EQ(Map.map(N), IrSel->Map.map(N));
  // Changing any hashed byte is caught.
  Bytes[Bytes.size() / 2] ^= 1;
  EXPECT_FALSE(openBytes(Bytes, Err));
}

// The library runs timing=dataflow sets on the dataflow walker with the
// model's window (absent from the file when it is the default 2), every
// other set on the step walker.
TEST(PlanSetFileTest, ReadsTheDataflowWindow) {
  std::string Err;
  auto Steps = openBytes(withDigest(handSet()), Err);
  ASSERT_TRUE(Steps) << Err;
  EXPECT_EQ(Steps->dataflowWindow(), 0u);
  for (uint32_t W : {1u, 2u, 5u}) {
    proto::PlanSet Set = handSet();
    Set.mutable_model()->set_timing(proto::MachineModel::TIMING_DATAFLOW);
    if (W != 2)
      Set.mutable_model()->set_window(W);
    auto F = openBytes(withDigest(Set), Err);
    ASSERT_TRUE(F) << Err;
    EXPECT_EQ(F->dataflowWindow(), W);
    EXPECT_TRUE(F->synchronousSends());
  }
  proto::PlanSet Ranks = handSet();
  Ranks.mutable_model()->set_timing(proto::MachineModel::TIMING_RANKS);
  auto F = openBytes(withDigest(Ranks), Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_EQ(F->dataflowWindow(), 0u);
  proto::PlanSet Bad = handSet();
  Bad.mutable_model()->set_timing(proto::MachineModel::TIMING_DATAFLOW);
  Bad.mutable_model()->set_window(0);
  EXPECT_FALSE(openBytes(withDigest(Bad), Err));
  EXPECT_NE(Err.find("the model's window 0 is not from 1 to 1024"),
            std::string::npos)
      << Err;
}
