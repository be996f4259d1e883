//===- tests/msccl/MscclXmlSetTest.cpp - msccl-xml for plan sets ----------===//
//
// A torus:4x4 plan set (np-rd, sc and two-tree lowered for root 0, each
// verified for every root, bands cutting 8 KiB..16 MiB in three) emitted in
// both dialects. Every (root, band) file goes through the independent
// checker at the counts the index claims and at the neighbours it does not:
// the band's first and last claimed counts and one count either side, the
// counts just outside the band, and a prime inside it, in 1- and 8-byte
// elements. The checker must accept exactly the claimed counts. The index
// must list every (root, band) once, and a second emission must be
// byte-identical.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclChecker.h"
#include "backends/msccl/MscclXmlSetEmitter.h"
#include "compiler/Lowering.h"
#include "ir/PlanSet.h"
#include "tests/verifier/SamplePlanSets.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace bcastc;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

Plan lowerFor(const Topology &Topo, llvm::StringRef Algo, uint64_t Bytes) {
  auto P = test::lowerFor(Algo, Topo, 0, Bytes);
  EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
  return P ? std::move(*P) : Plan();
}

/// torus:4x4, every root by translation; bands [0, 64 KiB) np-rd,
/// [64 KiB, 1 MiB) sc, [1 MiB, max) two-tree; built for 8 KiB..16 MiB.
PlanSet torusSet() {
  PlanSet S;
  S.Name = "torus-4x4-bcast";
  auto T = Topology::parse("torus:4x4");
  EXPECT_TRUE(bool(T));
  S.Topo = *T;
  S.Kind = CollectiveKind::Broadcast;
  S.Symmetry = naturalSymmetry(S.Topo);
  EXPECT_EQ(S.Symmetry, RootSymmetry::Translation);
  S.MinBytes = 8 * KiB;
  S.MaxBytes = 16 * MiB;
  S.Plans.push_back(lowerFor(S.Topo, "np-rd", 8 * KiB));
  S.Plans.push_back(lowerFor(S.Topo, "sc", 256 * KiB));
  S.Plans.push_back(lowerFor(S.Topo, "two-tree", 4 * MiB));
  S.Model = S.Plans[0].Model;
  RootClass C;
  C.Representative = 0;
  for (NodeId R = 0; R < 16; ++R)
    C.Roots.push_back(R);
  C.Bands = {SizeBand{0, 64 * KiB, 0}, SizeBand{64 * KiB, MiB, 1},
             SizeBand{MiB, UINT64_MAX, 2}};
  S.Classes.push_back(C);
  return S;
}

std::vector<EmittedFile> emitSet(const PlanSet &S, llvm::StringRef Dialect) {
  EmitOptions O;
  O.MscclDialect = Dialect.str();
  auto Files = emitMscclXmlSet(S, O);
  EXPECT_TRUE(bool(Files)) << llvm::toString(Files.takeError());
  return Files ? std::move(*Files) : std::vector<EmittedFile>();
}

/// An index line's key=value fields.
std::map<std::string, std::string> fields(llvm::StringRef Line) {
  std::map<std::string, std::string> F;
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Line.split(Parts, ' ', -1, false);
  for (llvm::StringRef P : Parts) {
    auto [K, V] = P.split('=');
    F[K.str()] = V.str();
  }
  return F;
}

uint64_t num(const std::string &S) {
  uint64_t V = 0;
  EXPECT_FALSE(llvm::StringRef(S).getAsInteger(10, V)) << S;
  return V;
}

bool isPrime(uint64_t N) {
  if (N < 2)
    return false;
  for (uint64_t D = 2; D * D <= N; ++D)
    if (N % D == 0)
      return false;
  return true;
}

TEST(MscclXmlSet, EveryPlanVerifiesForEveryRoot) {
  PlanSet S = torusSet();
  ASSERT_FALSE(bool(S.checkStructure()));
  for (uint32_t I = 0; I < S.Plans.size(); ++I) {
    EXPECT_TRUE(verifyPlan(S.Plans[I]).verified()) << S.Plans[I].Name;
    for (NodeId Root : S.Classes[0].Roots) {
      auto Map = NodeRelabelling::between(S.Topo, S.Symmetry, 0, Root);
      ASSERT_TRUE(bool(Map));
      EXPECT_TRUE(verifyPlan(S.relabelledPlan(I, *Map)).verified())
          << S.Plans[I].Name << " root " << Root;
    }
  }
  // Two-tree's chunk count (164 at 4 MiB) is not a power of two: its band
  // is the one that needs merging.
  const uint32_t D = S.Plans[2].Coll.dataChunks();
  EXPECT_NE(D & (D - 1), 0u) << D;
}

TEST(MscclXmlSet, MergingIntoAnyPowerOfTwoGivesAVerifiedPlan) {
  PlanSet S = torusSet();
  std::vector<uint32_t> Reversed;
  for (uint32_t R = 0; R < 16; ++R)
    Reversed.push_back(15 - R);
  for (const Plan &P : S.Plans) {
    const uint32_t D = P.Coll.dataChunks();
    for (uint32_t K = 1; K <= D; K *= 2) {
      auto M = mergeBroadcastChunks(P, K, {});
      ASSERT_TRUE(bool(M)) << P.Name << " into " << K << ": "
                           << llvm::toString(M.takeError());
      EXPECT_EQ(M->Coll.NumChunks, K);
      EXPECT_LE(M->numSteps(), P.numSteps());
      EXPECT_TRUE(verifyPlan(*M).verified()) << P.Name << " merged into " << K;
    }
    // Renamed to ranks: the root and every transfer move with the nodes.
    auto M = mergeBroadcastChunks(P, D, Reversed);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->Coll.Roots[0], 15u);
    ASSERT_EQ(M->Transfers.size(), P.Transfers.size());
    for (size_t I = 0; I < P.Transfers.size(); ++I)
      EXPECT_EQ(M->Transfers[I].Src, 15 - P.Transfers[I].Src);
  }
  auto Bad = mergeBroadcastChunks(S.Plans[0], 5, {});
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("has 4 chunks: cannot merge "
                                                 "them into 5"),
            std::string::npos);
}

class MscclXmlSetDialect : public ::testing::TestWithParam<const char *> {};

TEST_P(MscclXmlSetDialect, EveryFilePassesAtEveryCountItClaims) {
  const std::string Dialect = GetParam();
  const bool Azure = Dialect == "azure";
  PlanSet S = torusSet();
  std::vector<EmittedFile> Files = emitSet(S, Dialect);
  ASSERT_FALSE(Files.empty());
  ASSERT_EQ(Files[0].Name, "");

  std::map<std::string, const EmittedFile *> ByName;
  for (size_t I = 1; I < Files.size(); ++I) {
    EXPECT_TRUE(ByName.emplace(Files[I].Name, &Files[I]).second)
        << "duplicate " << Files[I].Name;
    EXPECT_EQ(Files[I].Name.find('/'), std::string::npos);
  }
  const uint64_t BandLo[] = {8 * KiB, 64 * KiB, MiB};
  const uint64_t BandHi[] = {64 * KiB - 1, MiB - 1, 16 * MiB};
  std::set<std::pair<uint64_t, uint64_t>> Seen;
  std::set<std::string> Listed;
  unsigned Checks = 0;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Files[0].Contents).split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    if (Line.startswith("#"))
      continue;
    auto F = fields(Line);
    const uint64_t Root = num(F["root"]), Band = num(F["band"]);
    ASSERT_LT(Root, 16u) << Line.str();
    ASSERT_LT(Band, 3u) << Line.str();
    EXPECT_TRUE(Seen.insert({Root, Band}).second) << Line.str();
    auto It = ByName.find(F["file"]);
    ASSERT_NE(It, ByName.end()) << "index names a file not emitted: "
                                << Line.str();
    Listed.insert(F["file"]);
    const std::string &Xml = It->second->Contents;

    auto [LoS, HiS] = llvm::StringRef(F["bytes"]).split("..");
    const uint64_t Lo = num(LoS.str()), Hi = num(HiS.str());
    EXPECT_EQ(Lo, BandLo[Band]) << Line.str();
    EXPECT_EQ(Hi, BandHi[Band]) << Line.str();
    EXPECT_EQ(num(F["minBytes"]), Lo);
    EXPECT_EQ(num(F["maxBytes"]), Azure ? Hi : Hi + 1);
    const uint64_t K = num(F["nchunksperloop"]);
    const uint64_t D = num(F["plan-chunks"]);
    EXPECT_EQ(K & (K - 1), 0u) << "not a power of two: " << Line.str();
    EXPECT_LE(K, D);
    EXPECT_EQ(F["uncovered"],
              K == 1 ? "none" : "counts-not-divisible-by-" + std::to_string(K));
    // The file says what the index says.
    EXPECT_NE(Xml.find("nchunksperloop=\"" + std::to_string(K) + "\""),
              std::string::npos);
    EXPECT_NE(Xml.find("minBytes=\"" + std::to_string(Lo) + "\" maxBytes=\"" +
                       F["maxBytes"] + "\""),
              std::string::npos);
    if (K > 1) {
      EXPECT_NE(Xml.find("count divisible by " + std::to_string(K) +
                         " (nchunksperloop): other counts of the band are "
                         "not covered"),
                std::string::npos);
    }

    for (uint64_t Size : {uint64_t(1), uint64_t(8)}) {
      const uint64_t FirstIn = (Lo + Size - 1) / Size, LastIn = Hi / Size;
      auto Claimed = [&](uint64_t C) {
        return C >= FirstIn && C <= LastIn && C % K == 0;
      };
      const uint64_t First = (FirstIn + K - 1) / K * K, Last = LastIn / K * K;
      ASSERT_LE(First, Last) << Line.str();
      std::set<uint64_t> Counts = {First,       First - 1,  First + 1,
                                   Last - 1,    Last,       Last + 1,
                                   FirstIn - 1, LastIn + 1};
      uint64_t Prime = (FirstIn + LastIn) / 2;
      while (!isPrime(Prime))
        ++Prime;
      ASSERT_LE(Prime, LastIn);
      Counts.insert(Prime);
      for (uint64_t C : Counts) {
        if (C == 0)
          continue;
        MscclCheckOptions O;
        O.Dialect = Dialect;
        O.Root = uint32_t(Root);
        O.Count = C;
        O.TypeSize = Size;
        auto R = checkMscclXml(Xml, F["file"], O);
        ++Checks;
        if (Claimed(C)) {
          EXPECT_TRUE(bool(R)) << F["file"] << " count " << C << " x " << Size
                               << ": " << llvm::toString(R.takeError());
          if (R) {
            EXPECT_EQ(R->Bytes, C * Size);
          }
        } else {
          EXPECT_FALSE(bool(R)) << F["file"] << " accepted count " << C
                                << " x " << Size << ", which it does not claim";
          if (!R) {
            EXPECT_NE(llvm::toString(R.takeError()).find("is not selected"),
                      std::string::npos);
          }
        }
      }
    }
  }
  EXPECT_EQ(Seen.size(), 16u * 3u) << "every (root, band) once";
  EXPECT_EQ(Listed.size(), ByName.size()) << "every file in the index";
  EXPECT_GE(Checks, 16u * 3u * 2u * 5u);
  // The index tells each root where its files go.
  for (unsigned Root = 0; Root < 16; ++Root)
    EXPECT_NE(Files[0].Contents.find("#   root " + std::to_string(Root) + ": "),
              std::string::npos)
        << Root;
  EXPECT_NE(Files[0].Contents.find(Azure ? "MSCCL_ALGO_DIR" : "MSCCL_XML_FILES"),
            std::string::npos);
  EXPECT_NE(Files[0].Contents.find("never looks at the broadcast's root"),
            std::string::npos);
}

TEST_P(MscclXmlSetDialect, OutputIsDeterministic) {
  PlanSet S = torusSet();
  std::vector<EmittedFile> A = emitSet(S, GetParam());
  std::vector<EmittedFile> B = emitSet(torusSet(), GetParam());
  ASSERT_EQ(A.size(), B.size());
  for (size_t I = 0; I < A.size(); ++I) {
    EXPECT_EQ(A[I].Name, B[I].Name);
    EXPECT_TRUE(A[I].Contents == B[I].Contents) << A[I].Name;
  }
}

INSTANTIATE_TEST_SUITE_P(Dialects, MscclXmlSetDialect,
                         ::testing::Values("azure", "microsoft"));

TEST(MscclXmlSet, PlacementNamesRanks) {
  // Rank r runs node 15 - r: the file for rank 0 broadcasts from node 15's
  // position, with gpu ids that are ranks.
  PlanSet S = torusSet();
  for (uint32_t R = 0; R < 16; ++R)
    S.Place.NodeOfRank.push_back(15 - R);
  std::vector<EmittedFile> Files = emitSet(S, "azure");
  ASSERT_EQ(Files.size(), 1u + 16u * 3u);
  for (size_t I = 1; I < Files.size(); ++I) {
    llvm::StringRef Name = Files[I].Name;
    size_t At = Name.find(".root") + 5;
    uint32_t Rank = 0;
    ASSERT_FALSE(Name.substr(At).take_until([](char C) { return C == '.'; })
                     .getAsInteger(10, Rank));
    MscclCheckOptions O;
    O.Root = Rank;
    auto R = checkMscclXml(Files[I].Contents, Name, O);
    EXPECT_TRUE(bool(R)) << llvm::toString(R.takeError());
  }
  EXPECT_NE(Files[0].Contents.find("Ranks are placed"), std::string::npos);
  EXPECT_NE(Files[0].Contents.find("\nroot=0 node=15 band=0 "
                                   "file=torus-4x4-bcast.root0.band0.xml "),
            std::string::npos);
}

TEST(MscclXmlSet, BandsOutsideTheSetGetNoFile) {
  PlanSet S = torusSet();
  S.MinBytes = 128 * KiB; // band 0 ends at 64 KiB
  std::vector<EmittedFile> Files = emitSet(S, "azure");
  ASSERT_EQ(Files.size(), 1u + 16u * 2u);
  EXPECT_NE(Files[0].Contents.find("# No file for class 0 band 0"),
            std::string::npos);
  EXPECT_EQ(Files[0].Contents.find("band=0 "), std::string::npos);
  EXPECT_NE(Files[0].Contents.find("bytes=131072..1048575"), std::string::npos);
}

TEST(MscclXmlSet, RefusesUnknownDialect) {
  EmitOptions O;
  O.MscclDialect = "nccl";
  auto Files = emitMscclXmlSet(torusSet(), O);
  ASSERT_FALSE(bool(Files));
  EXPECT_NE(llvm::toString(Files.takeError()).find("unknown dialect 'nccl'"),
            std::string::npos);
}

} // namespace
