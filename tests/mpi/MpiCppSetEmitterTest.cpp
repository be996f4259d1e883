//===- tests/mpi/MpiCppSetEmitterTest.cpp - mpi-cpp for plan sets ---------===//
//
// The plan-set file's text for tests/mpi/TestPlanSets.h's sets: one file,
// deterministic, MPI_Bcast's signature, each plan's tables once (so the
// file grows with plans, not roots), the symmetry and placement the
// runtime relabels by, the private communicator and the error handler; and
// what it refuses. mpi_plan_set_test compiles and runs the files.
//
//===----------------------------------------------------------------------===//

#include "backends/mpi/MpiCppSetEmitter.h"
#include "tests/mpi/FileScopeNames.h"
#include "tests/mpi/TestPlanSets.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace bcastc;

namespace {

PlanSet testSet(llvm::StringRef Name) {
  auto S = buildTestPlanSet(Name);
  EXPECT_TRUE(bool(S)) << llvm::toString(S.takeError());
  return std::move(*S);
}

std::string emit(EmitSetFunction *Emit, const PlanSet &S,
                 const std::string &Name = "set_bcast") {
  EmitOptions Opts;
  Opts.FunctionName = Name;
  auto Files = Emit(S, Opts);
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
  auto Files = emitMpiCppSet(S, Opts);
  EXPECT_FALSE(bool(Files));
  return Files ? "" : llvm::toString(Files.takeError());
}

/// The entries of table \p Name (`const T Name[] = {...};`).
size_t tableSize(const std::string &Text, const std::string &Name) {
  size_t At = Text.find(" " + Name + "[] = {");
  EXPECT_NE(At, std::string::npos) << Name;
  if (At == std::string::npos)
    return 0;
  size_t End = Text.find("};", At);
  size_t Commas = 0;
  for (size_t I = At; I < End; ++I)
    Commas += Text[I] == ',';
  return Commas + 1;
}

size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != std::string::npos;
       At = Text.find(What, At + 1))
    ++N;
  return N;
}

TEST(MpiCppSet, TorusIsOnePlanPerBandForEveryRoot) {
  const PlanSet S = testSet("torus");
  const std::string Text = emit(emitMpiCppSet, S);
  EXPECT_EQ(Text, emit(emitMpiCppSet, S)) << "not deterministic";
  EXPECT_NE(Text.find("extern \"C\" int set_bcast(void *buffer, int count, "
                      "MPI_Datatype datatype,\n"
                      "                         int root, MPI_Comm comm) {"),
            std::string::npos);
  EXPECT_NE(Text.find("const int kNumRanks = 16;"), std::string::npos);
  EXPECT_NE(Text.find("const int kSymmetry = 1;"), std::string::npos);
  EXPECT_NE(Text.find("const int kNumAxes = 2;"), std::string::npos);
  EXPECT_NE(Text.find("placement:  rank r runs node r\n"), std::string::npos);
  // Three plans for sixteen roots: each plan's tables once.
  EXPECT_EQ(S.Plans.size(), 3u);
  EXPECT_EQ(tableSize(Text, "kAllRankStart"), 3u * 17);
  EXPECT_EQ(tableSize(Text, "kPlanChunks"), 3u);
  EXPECT_EQ(tableSize(Text, "kBandLo"), 3u);
  EXPECT_NE(Text.find("    [4096, 262144) plan 1\n"), std::string::npos);
  uint64_t Entries = 0;
  for (const Plan &P : S.Plans)
    Entries += 2 * P.Transfers.size();
  EXPECT_LE(tableSize(Text, "kAllOpPeer"), Entries);
  // The good citizen: a private duplicate cached on comm, errors raised on
  // comm's handler, misuse printed by rank 0.
  EXPECT_EQ(count(Text, "MPI_Comm_dup("), 1u);
  EXPECT_NE(Text.find("MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, "
                      "freePrivateComm,"),
            std::string::npos);
  EXPECT_NE(Text.find("MPI_Comm_call_errhandler(comm == MPI_COMM_NULL"),
            std::string::npos);
  EXPECT_NE(Text.find("if (CommRank != 0 || gReported)"), std::string::npos);
  // The walker: the single-plan file's, once, relabelled.
  EXPECT_EQ(count(Text, "int runSteps("), 1u);
  EXPECT_NE(Text.find("const int Peer = rankOfPlanNode(kOpPeer[I]);"),
            std::string::npos);
  for (const char *Directive : {"\n#if ", "\n#elif", "\n#else", "\n#include \"runtime"})
    EXPECT_EQ(Text.find(Directive), std::string::npos) << "unselected runtime";
  // The delta model's transfers end in their step: synchronous sends.
  EXPECT_NE(Text.find("MPI_Issend("), std::string::npos);
}

TEST(MpiCppSet, MeshHasReflectionClasses) {
  const PlanSet S = testSet("mesh");
  const std::string Text = emit(emitMpiCppSet, S);
  EXPECT_NE(Text.find("const int kSymmetry = 2;"), std::string::npos);
  EXPECT_EQ(S.Classes.size(), 4u);
  EXPECT_EQ(tableSize(Text, "kClassRep"), 4u);
  EXPECT_EQ(tableSize(Text, "kAllRankStart"), 12u * 17);
  EXPECT_EQ(tableSize(Text, "kClassOfNode"), 16u);
  // Corner (3,3) mirrors representative (0,0): class 0.
  EXPECT_NE(Text.find("class 3: representative (1,1), 4 root node(s)"),
            std::string::npos);
}

TEST(MpiCppSet, PlacementChangesOnlyTheRankTables) {
  const PlanSet Torus = testSet("torus"), Placed = testSet("torus-placed");
  ASSERT_EQ(Placed.Place.NodeOfRank.size(), 16u);
  std::string A = emit(emitMpiCppSet, Torus), B = emit(emitMpiCppSet, Placed);
  auto Strip = [](std::string T) {
    for (const char *Name : {"kNodeOfRank", "kRankOfNode"}) {
      size_t At = T.find(std::string(" ") + Name + "[] = {");
      T.erase(At, T.find("};", At) - At);
    }
    return T.substr(T.find("#ifndef OMPI_SKIP_MPICXX"));
  };
  EXPECT_NE(A, B);
  std::string SA = Strip(A), SB = Strip(B);
  size_t At = SB.find("test-torus-placed");
  ASSERT_NE(At, std::string::npos);
  SB.replace(At, 17, "test-torus");
  EXPECT_EQ(SA, SB);
  EXPECT_NE(B.find("placement:  rank r runs node kNodeOfRank[r]"),
            std::string::npos);
}

TEST(MpiCppSet, HeaderDeclaresTheSameFunction) {
  const PlanSet S = testSet("torus");
  const std::string H = emit(emitMpiHeaderSet, S, "my_set");
  EXPECT_NE(H.find("int my_set(void *buffer, int count, MPI_Datatype "
                   "datatype,\n           int root, MPI_Comm comm);"),
            std::string::npos)
      << H;
  EXPECT_NE(H.find("extern \"C\" {"), std::string::npos);
}

// The emitter's lists of names against what its files define: a
// --function-name equal to any of them would not compile.
TEST(MpiCppSet, RefusesEveryNameTheFileDefines) {
  for (const char *Set : {"torus", "mesh"}) {
    const std::set<std::string> Names =
        fileScopeNames(emit(&emitMpiCppSet, testSet(Set)));
    for (const char *Expected :
         {"kBandLo", "kAllOpPeer", "Call", "Relabelling", "selectPlan",
          "kXor", "gReported", "privateComm"})
      EXPECT_EQ(Names.count(Expected), 1u) << Set << " " << Expected;
    for (const std::string &Name : Names)
      EXPECT_NE(emitError(testSet(Set), Name).find("already defined"),
                std::string::npos)
          << Set << " " << Name;
  }
}

TEST(MpiCppSet, Refusals) {
  PlanSet S = testSet("torus");
  EXPECT_NE(emitError(S, "kBandLo").find("kBandLo"), std::string::npos);
  EXPECT_NE(emitError(S, "MPI_Bcast").find("MPI_Bcast"), std::string::npos);
  EXPECT_NE(emitError(S, "Call").find("Call"), std::string::npos);

  PlanSet Gap = S;
  Gap.Classes[0].Bands[1].Lo = 5000;
  EXPECT_NE(emitError(Gap, "f").find("mpi-cpp: plan set 'test-torus': "),
            std::string::npos);

  PlanSet Gather = S;
  Gather.Kind = CollectiveKind::AllGather;
  for (Plan &P : Gather.Plans)
    P.Coll.Kind = CollectiveKind::AllGather;
  EXPECT_NE(emitError(Gather, "f").find("broadcasts only"), std::string::npos);
  EmitOptions Opts;
  auto Header = emitMpiHeaderSet(Gather, Opts);
  ASSERT_FALSE(bool(Header));
  llvm::consumeError(Header.takeError());
}

} // namespace
