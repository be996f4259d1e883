//===- tests/ir/ProtoConversionTest.cpp - Plan <-> ir/plan.proto ----------===//

#include "SamplePlans.h"

#include "ir/PlanIO.h"
#include "ir/ProtoConversion.h"
#include "ir/TextFormat.h"
#include "ir/plan.pb.h"

#include "google/protobuf/text_format.h"

#include "gtest/gtest.h"

using namespace bcastc;
using namespace bcastc::test;

namespace {

std::vector<Plan> samplePlans() {
  std::vector<Plan> Plans;
  for (const char *Text : SampleTexts)
    Plans.push_back(parseOrFail(Text));
  Plans.push_back(builtPlan());
  return Plans;
}

std::string write(const Plan &P, PlanFormat Format) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writePlan(P, Format, OS);
  return OS.str();
}

Plan parseOk(llvm::StringRef Contents, PlanFormat Format) {
  auto P = parsePlan(Contents, "mem", Format);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Plan();
  }
  return std::move(*P);
}

TEST(ProtoConversion, FieldsOfTheArchitectureExample) {
  proto::Plan M = toProto(parseOrFail(ArchitectureExample));
  EXPECT_EQ(M.name(), "bst-linear-4");
  EXPECT_EQ(M.topology(), "linear:4");
  EXPECT_EQ(M.num_nodes(), 4u);
  EXPECT_EQ(M.model().ports(), proto::MachineModel::PORTS_ONE);
  EXPECT_EQ(M.model().capacity(), 1u);
  EXPECT_EQ(M.model().a(), 0.08);
  EXPECT_EQ(M.model().b(), 75.0);
  EXPECT_EQ(M.model().rho(), 0.01);
  EXPECT_EQ(M.collective().kind(), proto::Collective::BROADCAST);
  ASSERT_EQ(M.collective().roots_size(), 1);
  EXPECT_EQ(M.collective().roots(0), 0u);
  EXPECT_EQ(M.collective().bytes(), 4096u);
  EXPECT_EQ(M.collective().chunks(), 2u);
  ASSERT_EQ(M.steps_size(), 3);
  EXPECT_EQ(M.steps(2).number(), 2u);
  ASSERT_EQ(M.steps(2).transfers_size(), 4);
  const proto::Transfer &T = M.steps(0).transfers(0);
  EXPECT_EQ(T.src(), 0u);
  EXPECT_EQ(T.dst(), 3u);
  ASSERT_EQ(T.chunks_size(), 1);
  EXPECT_EQ(T.chunks(0).begin(), 1u);
  EXPECT_EQ(T.chunks(0).end(), 2u);
  EXPECT_FALSE(T.reduce());
}

TEST(ProtoConversion, ReduceAndMultiRangeChunks) {
  proto::Plan M = toProto(parseOrFail(SampleTexts[2]));
  EXPECT_EQ(M.collective().kind(), proto::Collective::ALLREDUCE);
  EXPECT_EQ(M.collective().roots_size(), 0);
  EXPECT_EQ(M.model().ports(), proto::MachineModel::PORTS_K);
  EXPECT_EQ(M.model().port_count(), 2u);
  EXPECT_EQ(M.model().contention(), proto::MachineModel::CONTENTION_CHARGE);
  EXPECT_EQ(M.model().rho(), 0.0);
  EXPECT_TRUE(M.model().has_rho());
  const proto::Transfer &T = M.steps(0).transfers(0);
  EXPECT_TRUE(T.reduce());
  EXPECT_FALSE(T.received_only());
  EXPECT_TRUE(M.steps(2).transfers(2).received_only());
  ASSERT_EQ(T.chunks_size(), 3);
  EXPECT_EQ(T.chunks(2).begin(), 4u);
  EXPECT_EQ(T.chunks(2).end(), 8u);
  EXPECT_EQ(M.steps(2).number(), 7u);
}

TEST(ProtoConversion, BinaryRoundTripBothWays) {
  for (const Plan &P : samplePlans()) {
    std::string Bytes = write(P, PlanFormat::BinaryProto);
    // The binary form is exactly the message's serialization.
    std::string Direct;
    ASSERT_TRUE(toProto(P).SerializeToString(&Direct));
    EXPECT_EQ(Bytes, Direct);
    Plan Back = parseOk(Bytes, PlanFormat::BinaryProto);
    EXPECT_TRUE(Back.sameAs(P)) << planToText(P);
    EXPECT_EQ(Back.Source.File, "mem");
    // Binary plans have no lines.
    EXPECT_TRUE(Back.Source.TransferLines.empty());
    // Plan -> bytes -> Plan -> bytes is byte-identical.
    EXPECT_EQ(write(Back, PlanFormat::BinaryProto), Bytes);
    EXPECT_EQ(planToText(Back), planToText(P));
  }
}

TEST(ProtoConversion, TextProtoRoundTripBothWays) {
  for (const Plan &P : samplePlans()) {
    std::string Text = write(P, PlanFormat::TextProto);
    Plan Back = parseOk(Text, PlanFormat::TextProto);
    EXPECT_TRUE(Back.sameAs(P)) << Text;
    EXPECT_EQ(write(Back, PlanFormat::TextProto), Text);
    EXPECT_EQ(Back.Source.TransferLines.size(), Back.Transfers.size());
  }
}

TEST(ProtoConversion, MessageToPlanToMessage) {
  // A message written by someone else, fully specified and normalized,
  // survives proto -> Plan -> proto unchanged.
  const char *Text = R"pb(
    name: "hand"
    topology: "torus:2x3"
    num_nodes: 6
    model {
      ports: PORTS_ALL port_count: 1 switching: SWITCHING_WORMHOLE
      duplex: DUPLEX_HALF capacity: 2 latency: 1
      contention: CONTENTION_FORBID a: 0.5 b: 2 rho: 0.25
    }
    collective { kind: MULTIBROADCAST roots: 1 roots: 4 bytes: 99 chunks: 6 }
    steps {
      number: 3
      transfers { src: 1 dst: 2 chunks { begin: 0 end: 2 } chunks { begin: 4 end: 6 } }
      transfers { src: 4 dst: 3 chunks { begin: 2 end: 3 } reduce: true }
    }
    steps { number: 5 }
  )pb";
  proto::Plan In;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(Text, &In));
  auto P = fromProto(In, "hand.textproto");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Topo.str(), "torus:2x3");
  EXPECT_EQ(P->Model.Ports, PortModel::All);
  EXPECT_EQ(P->Model.Links, Duplex::Half);
  EXPECT_EQ(P->Model.Rho, 0.25);
  EXPECT_EQ(P->Coll.Roots, (llvm::SmallVector<NodeId, 1>{1, 4}));
  EXPECT_EQ(P->StepNumbers, (std::vector<uint32_t>{3, 5}));
  EXPECT_EQ(P->describe(P->Transfers[0]), "1 -> 2 : 0,1,4,5");
  EXPECT_EQ(P->describe(P->Transfers[1]), "4 +> 3 : 2");
  std::string Want, Got;
  ASSERT_TRUE(In.SerializeToString(&Want));
  ASSERT_TRUE(toProto(*P).SerializeToString(&Got));
  EXPECT_EQ(Got, Want);
}

TEST(ProtoConversion, AbsentModelFieldsKeepDefaults) {
  proto::Plan In;
  In.set_topology("hypercube:3");
  In.mutable_model()->set_latency(4);
  In.mutable_collective()->set_kind(proto::Collective::ALLGATHER);
  In.mutable_collective()->set_chunks(8);
  auto P = fromProto(In, "");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  MachineModel Want;
  Want.Latency = 4;
  EXPECT_TRUE(P->Model == Want);
  EXPECT_EQ(P->numSteps(), 0u);
  // num_nodes 0 means "not written".
  EXPECT_EQ(P->numNodes(), 8u);
}

TEST(ProtoConversion, NormalizesChunkRanges) {
  proto::Plan In = toProto(parseOrFail(ArchitectureExample));
  proto::Transfer *T = In.mutable_steps(0)->mutable_transfers(0);
  T->clear_chunks();
  for (auto R : {std::make_pair(1, 2), std::make_pair(0, 1)}) {
    proto::ChunkRange *C = T->add_chunks();
    C->set_begin(R.first);
    C->set_end(R.second);
  }
  auto P = fromProto(In, "");
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->describe(P->Transfers[0]), "0 -> 3 : *");
}

// fromProto() in pieces, as the streaming reader calls them.
TEST(ProtoConversion, HeaderThenTransfersIsFromProto) {
  const proto::Plan M = toProto(parseOrFail(SampleTexts[2]));
  auto P = fromProtoHeader(M, "x.pb");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->numSteps(), 0u);
  EXPECT_TRUE(P->Transfers.empty());
  for (const proto::Step &S : M.steps()) {
    P->StepNumbers.push_back(S.number());
    for (const proto::Transfer &T : S.transfers())
      ASSERT_FALSE(bool(appendTransfer(T, *P)));
    P->StepStarts.push_back(P->Transfers.size());
  }
  auto Whole = fromProto(M, "x.pb");
  ASSERT_TRUE(bool(Whole));
  EXPECT_TRUE(P->sameAs(*Whole));
  EXPECT_EQ(P->StepStarts, Whole->StepStarts);

  proto::Transfer Bad = M.steps(0).transfers(0);
  Bad.mutable_chunks(0)->set_end(Bad.chunks(0).begin());
  llvm::Error E = appendTransfer(Bad, *P);
  EXPECT_EQ(transferContext(7, 3) + llvm::toString(std::move(E)),
            "step 7, transfer 3: chunk range [0, 0) is empty");
}

std::string errorOf(const proto::Plan &In) {
  auto P = fromProto(In, "x.pb");
  if (P)
    return "<no error>";
  return llvm::toString(P.takeError());
}

TEST(ProtoConversion, RejectsWhatThePlanCannotHold) {
  const proto::Plan Good = toProto(parseOrFail(ArchitectureExample));
  ASSERT_EQ(errorOf(Good), "<no error>");

  proto::Plan M = Good;
  M.set_topology("mesh:0x4");
  EXPECT_EQ(errorOf(M), "topology 'mesh:0x4': extent 0 in mesh: every extent "
                        "must be at least 1");
  M.set_topology("");
  EXPECT_EQ(errorOf(M), "the plan has no topology");
  M = Good;
  M.set_num_nodes(5);
  EXPECT_EQ(errorOf(M),
            "num_nodes 5 does not match topology linear:4 (4 nodes)");

  M = Good;
  M.mutable_collective()->set_kind(static_cast<proto::Collective::Kind>(9));
  EXPECT_EQ(errorOf(M), "unknown collective.kind value 9");
  M.mutable_collective()->set_kind(proto::Collective::KIND_UNSPECIFIED);
  EXPECT_EQ(errorOf(M), "collective.kind is not set");
  M.clear_collective();
  EXPECT_EQ(errorOf(M), "the plan has no collective");
  M = Good;
  M.mutable_collective()->add_roots(2);
  EXPECT_EQ(errorOf(M), "a broadcast has one root, not 2");
  M = Good;
  M.mutable_collective()->set_kind(proto::Collective::ALLGATHER);
  EXPECT_EQ(errorOf(M), "allgather takes no roots");
  M.mutable_collective()->set_kind(proto::Collective::MULTIBROADCAST);
  M.mutable_collective()->clear_roots();
  EXPECT_EQ(errorOf(M), "a multibroadcast needs at least one root");
  M = Good;
  M.mutable_collective()->set_chunks(0);
  EXPECT_EQ(errorOf(M), "collective.chunks must be at least 1");
  M = Good;
  proto::ChunkCube *Cube = M.mutable_steps(1)->mutable_transfers(1)->add_cubes();
  EXPECT_EQ(errorOf(M),
            "step 1, transfer 1: both chunk ranges and chunk cubes");
  M.mutable_steps(1)->mutable_transfers(1)->clear_chunks();
  Cube->set_base(1);
  Cube->set_mask(3);
  EXPECT_EQ(errorOf(M), "step 1, transfer 1: chunk cube {base 1, mask 3} has "
                        "a base with bits of its mask");
  Cube->set_base(0);
  Cube->set_mask(2);
  proto::ChunkCube *Second = M.mutable_steps(1)->mutable_transfers(1)->add_cubes();
  Second->set_base(2);
  Second->set_mask(1);
  EXPECT_EQ(errorOf(M), "step 1, transfer 1: chunk cubes {base 0, mask 2} and "
                        "{base 2, mask 1} overlap");
  M = Good;
  M.mutable_steps(1)->mutable_transfers(1)->set_received_only(true);
  EXPECT_EQ(errorOf(M),
            "step 1, transfer 1: received_only applies to reduces only");

  M = Good;
  M.mutable_model()->set_switching(
      static_cast<proto::MachineModel::Switching>(7));
  EXPECT_EQ(errorOf(M), "unknown model.switching value 7");
  M = Good;
  M.mutable_model()->set_ports(proto::MachineModel::PORTS_UNSPECIFIED);
  EXPECT_EQ(errorOf(M), "unknown model.ports value 0");
  M = Good;
  M.mutable_model()->set_capacity(0);
  EXPECT_EQ(errorOf(M), "model.capacity must be positive");
  M = Good;
  M.mutable_model()->set_latency(0);
  EXPECT_EQ(errorOf(M), "model.latency must be positive");
  M = Good;
  M.mutable_model()->set_a(-1);
  EXPECT_EQ(errorOf(M), "model.a must be a non-negative number");

  M = Good;
  M.mutable_steps(1)->mutable_transfers(1)->clear_chunks();
  EXPECT_EQ(errorOf(M), "step 1, transfer 1: empty chunk set");
  M = Good;
  proto::ChunkRange *R =
      M.mutable_steps(2)->mutable_transfers(0)->mutable_chunks(0);
  R->set_begin(1);
  R->set_end(1);
  EXPECT_EQ(errorOf(M), "step 2, transfer 0: chunk range [1, 1) is empty");
  R->set_begin(3);
  EXPECT_EQ(errorOf(M), "step 2, transfer 0: chunk range [3, 1) is empty");

  // Semantic problems are left to the verifier.
  M = Good;
  M.mutable_steps(0)->mutable_transfers(0)->set_dst(0);
  M.mutable_steps(0)->mutable_transfers(0)->set_src(40);
  M.mutable_steps(1)->set_number(0);
  M.mutable_collective()->set_roots(0, 99);
  EXPECT_EQ(errorOf(M), "<no error>");
}

} // namespace

TEST(ProtoConversion, DataflowTimingAndWindowRoundTrip) {
  // timing=dataflow and its window survive both proto forms, and a
  // dataflow model with the default window reads back with it.
  for (const char *Words : {"timing=dataflow window=4", "timing=dataflow"}) {
    Plan P = parseOk(std::string("schedule df\ntopology linear 2\n"
                                 "model ports=all a=0.01 b=10 rho=0 ") +
                         Words +
                         "\ncollective broadcast root=0 bytes=8 chunks=1\n"
                         "step 0\n  0 -> 1 : 0\n",
                     PlanFormat::Text);
    EXPECT_EQ(P.Model.Timing, TimingModel::Dataflow);
    EXPECT_EQ(P.Model.Window, llvm::StringRef(Words).contains("window=4")
                                  ? 4u
                                  : MachineModel::DefaultWindow);
    for (PlanFormat F : {PlanFormat::BinaryProto, PlanFormat::TextProto}) {
      Plan Back = parseOk(write(P, F), F);
      EXPECT_TRUE(Back.Model == P.Model) << Back.Model.str();
      EXPECT_EQ(Back.Model.Window, P.Model.Window);
      EXPECT_EQ(Back.Model.str(), P.Model.str());
    }
  }
}
