//===- tests/nccl/NcclCudaSetEmitterTest.cpp - nccl-cu for plan sets ------===//
//
// The plan-set file's text for tests/mpi/TestPlanSets.h's sets: one file,
// deterministic, ncclBroadcast's signature, each plan's tables once; its
// dispatch tables, read back from the text and walked as the file's
// selectPlan walks them, pick PlanSet::select's class and plan for every
// root rank and every band's ends; and what it refuses.
// nccl_set_mock_test compiles and runs the files.
//
//===----------------------------------------------------------------------===//

#include "backends/nccl/NcclCudaSetEmitter.h"
#include "tests/mpi/FileScopeNames.h"
#include "tests/mpi/TestPlanSets.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace bcastc;

namespace {

PlanSet testSet(llvm::StringRef Name) {
  auto S = buildTestPlanSet(Name);
  EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
  return std::move(*S);
}

std::string emit(const PlanSet &S, const std::string &Name = "set_bcast") {
  EmitOptions Opts;
  Opts.FunctionName = Name;
  auto Files = emitNcclCudaSet(S, Opts);
  if (!Files) {
    ADD_FAILURE() << llvm::toString(Files.takeError());
    return "";
  }
  EXPECT_EQ(Files->size(), 1u);
  EXPECT_EQ(Files->front().Name, "");
  return Files->front().Contents;
}

std::string emitError(const PlanSet &S, const std::string &Name) {
  EmitOptions Opts;
  Opts.FunctionName = Name;
  auto Files = emitNcclCudaSet(S, Opts);
  EXPECT_FALSE(bool(Files));
  return Files ? "" : llvm::toString(Files.takeError());
}

/// The values of table \p Name (`const T Name[] = {...};`).
std::vector<uint64_t> table(const std::string &Text, const std::string &Name) {
  std::vector<uint64_t> Values;
  const size_t At = Text.find(" " + Name + "[] = {");
  EXPECT_NE(At, std::string::npos) << Name;
  if (At == std::string::npos)
    return Values;
  const char *P = Text.c_str() + Text.find('{', At) + 1;
  while (*P != '}') {
    char *End = nullptr;
    Values.push_back(std::strtoull(P, &End, 10));
    P = End;
    while (*P == ',' || *P == ' ' || *P == '\n')
      ++P;
  }
  return Values;
}

/// The emitted selectPlan's walk over the emitted tables: (class, plan).
struct Tables {
  std::vector<uint64_t> NodeOfRank, ClassOfNode, BandStart, BandLo, BandPlan;
  explicit Tables(const std::string &Text)
      : NodeOfRank(table(Text, "kNodeOfRank")),
        ClassOfNode(table(Text, "kClassOfNode")),
        BandStart(table(Text, "kClassBandStart")),
        BandLo(table(Text, "kBandLo")), BandPlan(table(Text, "kBandPlan")) {}

  std::pair<uint64_t, uint64_t> select(uint32_t Rank, uint64_t Bytes) const {
    const uint64_t Class = ClassOfNode[NodeOfRank[Rank]];
    uint64_t Band = BandStart[Class];
    while (Band + 1 < BandStart[Class + 1] && BandLo[Band + 1] <= Bytes)
      ++Band;
    return {Class, BandPlan[Band]};
  }
};

void expectDispatchIsSelect(const PlanSet &S) {
  const Tables T(emit(S));
  const uint32_t N = S.Topo.numNodes();
  ASSERT_EQ(T.NodeOfRank.size(), N);
  for (uint32_t Rank = 0; Rank < N; ++Rank) {
    const NodeId Root = S.Place.nodeOfRank(Rank);
    const int Class = S.classOf(Root);
    ASSERT_GE(Class, 0);
    for (const SizeBand &B : S.Classes[Class].Bands)
      for (uint64_t Bytes : {B.Lo, B.Hi - 1}) {
        auto Want = S.select(Root, Bytes);
        ASSERT_TRUE(bool(Want)) << llvm::toString(Want.takeError());
        EXPECT_EQ(T.select(Rank, Bytes),
                  std::make_pair(uint64_t(Want->ClassIndex),
                                 uint64_t(Want->PlanIndex)))
            << S.Name << ": rank " << Rank << ", " << Bytes << " bytes";
      }
  }
}

TEST(NcclCudaSet, DispatchTablesAreSelect) {
  for (llvm::StringRef Name : {"torus", "mesh", "torus-placed"})
    expectDispatchIsSelect(testSet(Name));
}

TEST(NcclCudaSet, TorusIsOnePlanPerBand) {
  const PlanSet S = testSet("torus");
  const std::string Text = emit(S);
  EXPECT_EQ(Text, emit(S)) << "not deterministic";
  EXPECT_NE(Text.find("extern \"C\" ncclResult_t set_bcast(const void "
                      "*sendbuff, void *recvbuff, size_t count,\n"
                      "    ncclDataType_t datatype, int root, ncclComm_t "
                      "comm,\n    cudaStream_t stream) {"),
            std::string::npos);
  EXPECT_NE(Text.find("const int kNumRanks = 16;"), std::string::npos);
  EXPECT_NE(Text.find("const int kSymmetry = 1;"), std::string::npos);
  // Each plan's per-rank starts once, not once per root.
  EXPECT_EQ(S.Plans.size(), 3u);
  EXPECT_EQ(table(Text, "kAllRankStart").size(), 3u * 17);
  EXPECT_EQ(table(Text, "kPlanBase").size(), 3u);
  EXPECT_EQ(table(Text, "kClassRep"), std::vector<uint64_t>{0});
  // The walker: one group per step, peers through the relabelling and the
  // placement.
  EXPECT_NE(Text.find("kRankOfNode[Map.map(kOpPeer[I])]"),
            std::string::npos);
  EXPECT_NE(Text.find("chunkBegin(kOpFirst[I], Bytes, Chunks)"),
            std::string::npos);
}

TEST(NcclCudaSet, PlacementChangesOnlyTheRankTables) {
  const std::string Plain = emit(testSet("torus"));
  const std::string Placed = emit(testSet("torus-placed"));
  EXPECT_EQ(table(Plain, "kAllOpPeer"), table(Placed, "kAllOpPeer"));
  EXPECT_NE(table(Plain, "kNodeOfRank"), table(Placed, "kNodeOfRank"));
  std::vector<uint64_t> Identity(16);
  for (uint64_t I = 0; I < 16; ++I)
    Identity[I] = I;
  EXPECT_EQ(table(Plain, "kNodeOfRank"), Identity);
}

// The emitter's lists of names against what its files define: a
// --function-name equal to any of them would not compile.
TEST(NcclCudaSet, RefusesEveryNameTheFileDefines) {
  for (const char *Set : {"torus", "mesh"}) {
    const std::set<std::string> Names =
        fileScopeNames(emit(testSet(Set)));
    for (const char *Expected : {"kBandLo", "kAllOpLast", "typeSize",
                                 "chunkBegin", "Relabelling", "selectPlan"})
      EXPECT_EQ(Names.count(Expected), 1u) << Set << " " << Expected;
    for (const std::string &Name : Names)
      EXPECT_NE(emitError(testSet(Set), Name).find("already defined"),
                std::string::npos)
          << Set << " " << Name;
  }
}

TEST(NcclCudaSet, Refusals) {
  PlanSet S = testSet("torus");
  EXPECT_NE(emitError(S, "kBandLo").find("kBandLo"), std::string::npos);
  EXPECT_NE(emitError(S, "ncclBroadcast").find("ncclBroadcast"),
            std::string::npos);
  EXPECT_NE(emitError(S, "selectPlan").find("selectPlan"), std::string::npos);

  PlanSet Gap = S;
  Gap.Classes[0].Bands[1].Lo = 5000;
  EXPECT_NE(emitError(Gap, "f").find("nccl-cu: plan set 'test-torus': "),
            std::string::npos);

  PlanSet Gather = S;
  Gather.Kind = CollectiveKind::AllGather;
  for (Plan &P : Gather.Plans)
    P.Coll.Kind = CollectiveKind::AllGather;
  EXPECT_NE(emitError(Gather, "f").find("broadcasts only"), std::string::npos);

  // NCCL runs each step as a group: no dataflow executor.
  PlanSet Dataflow = S;
  Dataflow.Model.Timing = TimingModel::Dataflow;
  EXPECT_NE(emitError(Dataflow, "f")
                .find("nccl-cu: plan set 'test-torus': timing=dataflow, which "
                      "the grouped NCCL steps cannot run"),
            std::string::npos)
      << emitError(Dataflow, "f");
}

} // namespace
