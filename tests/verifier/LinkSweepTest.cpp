//===- tests/verifier/LinkSweepTest.cpp - sweeps against per-hop counts ---===//
//
// The links pass counts loads with interval sweeps over route segments and
// walks hops only on overloaded links. This checks it against the plain
// definition, a counter per link bumped at every hop of every route, on
// random plans over every topology kind, both duplex modes, capacities 1-3,
// charged and forbidden contention and store-and-forward switching: the
// same largest load per step and the same diagnostics, in the same order.
//
//===----------------------------------------------------------------------===//

#include "TestPlans.h"

#include "llvm/ADT/DenseMap.h"

#include "gtest/gtest.h"

#include <random>

using namespace bcastc;
using namespace bcastc::test;

namespace {

struct Reference {
  std::vector<uint32_t> StepLinkLoad;
  std::vector<std::string> Messages;
};

std::string at(const Plan &P, uint64_t I) {
  return P.describe(P.Transfers[I]) + " transfer #" + std::to_string(I);
}

/// The links pass by definition: every hop of every route, in order.
Reference perHopLinkCount(const Plan &P) {
  const Topology &Topo = P.Topo;
  const bool Half = P.Model.Links == Duplex::Half;
  const bool StoreAndForward = P.Model.Switch == Switching::StoreAndForward;
  const bool Forbid = P.Model.Contention == ContentionPolicy::Forbid;
  const uint32_t Capacity = P.Model.Capacity;
  Reference Ref;
  for (size_t S = 0; S < P.numSteps(); ++S) {
    const std::string Step = "step " + std::to_string(P.StepNumbers[S]);
    const uint64_t Begin = P.StepStarts[S], End = P.StepStarts[S + 1];
    struct Slot {
      uint32_t Count = 0;
      uint64_t First = 0;
    };
    llvm::DenseMap<uint64_t, Slot> Links;
    std::vector<std::pair<uint64_t, Hop>> Over; // (transfer, hop)
    uint32_t Max = 0;
    for (uint64_t I = Begin; I < End; ++I) {
      const Transfer &T = P.Transfers[I];
      if (StoreAndForward && !Topo.areNeighbors(T.Src, T.Dst)) {
        Ref.Messages.push_back(Step + ": " + P.describe(T) +
                               " is not between neighbours "
                               "(store-and-forward) (transfer #" +
                               std::to_string(I) + ")");
        continue;
      }
      Topo.forEachHop(T.Src, T.Dst, [&](const Hop &H) {
        Slot &L = Links[Topo.linkId(H, Half)];
        if (L.Count++ == 0)
          L.First = I;
        Max = std::max(Max, L.Count);
        if (Forbid && L.Count == Capacity + 1)
          Over.push_back({I, H});
      });
    }
    Ref.StepLinkLoad.push_back(Begin == End ? 0 : std::max<uint32_t>(Max, 1));
    for (auto &O : Over) {
      Hop H = O.second;
      const Slot &L = Links[Topo.linkId(H, Half)];
      if (Half && H.To < H.From)
        std::swap(H.From, H.To);
      Ref.Messages.push_back(Step + ": link " + Topo.linkName(H, Half) +
                             " carries " + std::to_string(L.Count) +
                             " circuits, capacity " + std::to_string(Capacity) +
                             " (" + at(P, L.First) + ", also " +
                             at(P, O.first) + ")");
    }
  }
  return Ref;
}

std::string randomTopology(std::mt19937_64 &Rng) {
  auto Pick = [&](uint32_t Lo, uint32_t Hi) {
    return std::to_string(std::uniform_int_distribution<uint32_t>(Lo, Hi)(Rng));
  };
  switch (Rng() % 8) {
  case 0:
    return "linear:" + Pick(2, 40);
  case 1:
    return "ring:" + Pick(2, 40);
  case 2:
    return "mesh:" + Pick(1, 9) + "x" + Pick(2, 9);
  case 3:
    return "torus:" + Pick(1, 9) + "x" + Pick(2, 9);
  case 4:
    return "mesh:" + Pick(1, 4) + "x" + Pick(1, 4) + "x" + Pick(2, 4);
  case 5:
    return "torus:" + Pick(1, 5) + "x" + Pick(1, 5) + "x" + Pick(2, 5);
  case 6:
    return "hypercube:" + Pick(1, 6);
  default:
    return "complete:" + Pick(2, 12);
  }
}

std::string randomModel(std::mt19937_64 &Rng) {
  std::string M = "ports=all";
  M += Rng() % 2 ? " duplex=half" : " duplex=full";
  M += " capacity=" + std::to_string(1 + Rng() % 3);
  M += Rng() % 3 ? " contention=forbid" : " contention=charge";
  if (Rng() % 4 == 0)
    M += " switching=store-and-forward";
  return M;
}

Plan randomPlan(std::mt19937_64 &Rng, const std::string &Spec,
                const std::string &Words) {
  Topology Topo = topo(Spec);
  const uint32_t N = Topo.numNodes();
  MachineModel M = model(Words);
  PlanBuilder B("random", Topo, M, broadcast(0, 1));
  ChunkSetId All = B.intern(ChunkRange{0, 1});
  unsigned Steps = 1 + Rng() % 4;
  for (unsigned S = 0; S < Steps; ++S) {
    B.beginStep();
    uint32_t Count = Rng() % (3 * N + 1);
    for (uint32_t K = 0; K < Count; ++K) {
      NodeId Src = NodeId(Rng() % N), Dst = NodeId(Rng() % N);
      if (Src == Dst)
        continue;
      // Store-and-forward plans are mostly between neighbours: the first
      // hop towards a random node.
      if (M.Switch == Switching::StoreAndForward && Rng() % 5) {
        bool First = true;
        Topo.forEachHop(Src, Dst, [&](const Hop &H) {
          if (First)
            Dst = H.To;
          First = false;
        });
      }
      B.add(Src, Dst, All);
    }
  }
  return B.take();
}

TEST(LinkSweep, MatchesPerHopCountsOnRandomPlans) {
  std::mt19937_64 Rng(20261122);
  VerifierOptions Opts;
  Opts.MaxDiagnosticsPerPass = 1u << 20;
  unsigned Overloaded = 0;
  for (int Round = 0; Round < 3000; ++Round) {
    std::string Spec = randomTopology(Rng), Words = randomModel(Rng);
    Plan P = randomPlan(Rng, Spec, Words);
    SCOPED_TRACE(Spec + " " + Words + " round " + std::to_string(Round));
    VerificationResult V = verifyPlan(P, Opts);
    ASSERT_TRUE(messages(V, "structure").empty()) << printed(V);
    Reference Ref = perHopLinkCount(P);
    EXPECT_EQ(V.Cost.StepLinkLoad, Ref.StepLinkLoad);
    EXPECT_EQ(messages(V, "links"), Ref.Messages);
    Overloaded += !Ref.Messages.empty();
  }
  // The random plans exercise the overload reports, not only the loads.
  EXPECT_GT(Overloaded, 1000u);
}

/// Dense steps (a difference array) and sparse ones (sorted ends) on long
/// routes: every node of a ring sends half way round, then a few do.
TEST(LinkSweep, DenseAndSparseStepsOnLongRoutes) {
  for (const char *Words :
       {"ports=all contention=charge", "ports=all duplex=half capacity=2"}) {
    PlanBuilder B("long", topo("torus:16x64"), model(Words), broadcast(0, 1));
    ChunkSetId All = B.intern(ChunkRange{0, 1});
    const uint32_t N = 16 * 64;
    B.beginStep();
    for (NodeId X = 0; X < N; ++X)
      B.add(X, (X + 32 + 64 * 8) % N, All);
    B.beginStep();
    for (NodeId X = 0; X < N; X += 97)
      B.add(X, (N + X - 31 - 64 * 7) % N, All);
    Plan P = B.take();
    VerifierOptions Opts;
    Opts.MaxDiagnosticsPerPass = 1u << 20;
    VerificationResult V = verifyPlan(P, Opts);
    Reference Ref = perHopLinkCount(P);
    EXPECT_EQ(V.Cost.StepLinkLoad, Ref.StepLinkLoad) << Words;
    EXPECT_EQ(messages(V, "links"), Ref.Messages) << Words;
  }
}

} // namespace
