//===- tests/mpi/RuntimeSourceTest.cpp - The runtime's variants -----------===//

#include "backends/RuntimeSource.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace bcastc;

namespace {

std::string select(llvm::StringRef Path, std::vector<llvm::StringRef> Defined) {
  auto Text = selectRuntimeSource(Path, Defined);
  if (!Text) {
    ADD_FAILURE() << llvm::toString(Text.takeError());
    return "";
  }
  return *Text;
}

const char *const Kinds[] = {"BCASTC_BROADCAST", "BCASTC_MULTIBROADCAST",
                             "BCASTC_ALLGATHER", "BCASTC_ALLREDUCE"};

// Every variant the emitter can ask for leaves no directive and no file
// header behind, and has the pieces its collective needs.
TEST(RuntimeSourceTest, EveryVariantIsPlainCode) {
  for (const char *Kind : Kinds)
    for (int Mask = 0; Mask < 4; ++Mask) {
      std::vector<llvm::StringRef> Flags = {Kind};
      if (Mask & 1)
        Flags.push_back("BCASTC_SYNCHRONOUS_SENDS");
      if (Mask & 2)
        Flags.push_back("BCASTC_RECEIVED_SENDS");
      const std::string Runtime = select("runtime/mpi/PlanCall.h", Flags);
      const std::string Entry = select("runtime/mpi/Entry.h", Flags);
      SCOPED_TRACE(std::string(Kind) + " mask " + std::to_string(Mask));
      for (const std::string *Text : {&Runtime, &Entry}) {
        EXPECT_EQ(Text->find("\n#"), std::string::npos);
        EXPECT_EQ(Text->find("//===-"), std::string::npos);
      }
      EXPECT_EQ(Runtime.rfind("bool gReported = false;\n", 0), 0u);
      EXPECT_NE(Runtime.find("int isPlainBytes("), std::string::npos);
      EXPECT_EQ(Entry.rfind("{\n  const int RC = collective(", 0), 0u);
      EXPECT_NE(Entry.find("MPI_Comm_call_errhandler("), std::string::npos);
      // The plan's messages go on the private duplicate only.
      EXPECT_NE(Runtime.find("int privateComm(MPI_Comm Comm"),
                std::string::npos);
      EXPECT_NE(Runtime.find("privateComm(comm, Private)"), std::string::npos);
      for (size_t At = Runtime.find("runSteps(Rank, "); At != std::string::npos;
           At = Runtime.find("runSteps(Rank, ", At + 1)) {
        const size_t End = Runtime.find(';', At);
        EXPECT_EQ(Runtime.substr(End - 8, 8), "Private)")
            << Runtime.substr(At, End - At);
      }
      EXPECT_EQ(Runtime.find("MPI_Issend(") != std::string::npos,
                bool(Mask & 1));
      const bool Reduce = llvm::StringRef(Kind) == "BCASTC_ALLREDUCE";
      EXPECT_EQ(Runtime.find("struct Received") != std::string::npos,
                Reduce && (Mask & 2));
      EXPECT_EQ(Runtime.find("struct Staged") != std::string::npos, Reduce);
      EXPECT_EQ(Runtime.find("if (root != kRoot)") != std::string::npos,
                llvm::StringRef(Kind) == "BCASTC_BROADCAST");
    }
}

TEST(RuntimeSourceTest, SendsFromTheAccumulatorOnlyWithReceivedSends) {
  const std::string With = select(
      "runtime/mpi/Runtime.h", {"BCASTC_ALLREDUCE", "BCASTC_RECEIVED_SENDS"});
  EXPECT_NE(With.find("RC = MPI_Isend(Acc.source(I, Data) + Lo * T.Extent,"),
            std::string::npos);
  EXPECT_NE(With.find("deliverAll(Pending.front(), Data, Acc,"),
            std::string::npos);
  const std::string Without =
      select("runtime/mpi/Runtime.h", {"BCASTC_ALLREDUCE"});
  EXPECT_EQ(Without.find("Acc"), std::string::npos);
  EXPECT_NE(Without.find("RC = MPI_Isend(Data + Lo * T.Extent,"),
            std::string::npos);
}

// The standalone signature is for compiling the file on its own.
TEST(RuntimeSourceTest, StandaloneSignatureOnlyOnRequest) {
  EXPECT_EQ(select("runtime/mpi/Entry.h", {"BCASTC_BROADCAST"})
                .find("bcastc_collective"),
            std::string::npos);
  EXPECT_EQ(
      select("runtime/mpi/Entry.h", {"BCASTC_BROADCAST", "BCASTC_STANDALONE"})
          .rfind("extern \"C\" int bcastc_collective(void *buffer", 0),
      0u);
}

TEST(RuntimeSourceTest, UnknownFileIsAnError) {
  auto Text = selectRuntimeSource("runtime/mpi/Nope.h", {});
  ASSERT_FALSE(bool(Text));
  EXPECT_EQ(llvm::toString(Text.takeError()),
            "no embedded runtime file runtime/mpi/Nope.h");
}

} // namespace
