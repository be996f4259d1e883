//===- tests/hypercube/SlottedModelTest.cpp - The verifier on the slotted d-cube ===//
//
// The model of Stamoulis and Tsitsiklis is the verifier's ports=all,
// switching=store-and-forward, capacity=1 on hypercube:d. Hand-written
// plans show the existing passes enforce it: one packet per arc per slot
// (links), neighbours only (store-and-forward), all ports at once (ports).
// And the additions: repeated roots (a node holding several packets),
// control chunks (count and termination packets), the slot lower bound.
//
//===----------------------------------------------------------------------===//

#include "HypercubeTestUtil.h"

#include "ir/TextFormat.h"

namespace bcastc {
namespace test {
namespace {

Plan parse(llvm::StringRef Text) {
  auto P = parsePlanText(Text, "t.sched");
  EXPECT_TRUE(bool(P)) << (P ? "" : llvm::toString(P.takeError()));
  return P ? std::move(*P) : Plan();
}

std::vector<std::string> errors(const VerificationResult &R) {
  std::vector<std::string> Out;
  for (const Diagnostic &D : R.Diagnostics)
    if (D.Sev != Severity::Note)
      Out.push_back(std::string(D.Sev == Severity::Error ? "error: "
                                                         : "warning: ") +
                    D.Message);
  return Out;
}

const char *Header =
    "topology hypercube 2\n"
    "model ports=all switching=store-and-forward duplex=full capacity=1 "
    "latency=1\n";

TEST(SlottedModel, AllPortsAtOnceAndOnePacketPerArc) {
  // Node 0 uses both its ports in slot 0: fine under ports=all.
  Plan Ok = parse(std::string(Header) +
                  "collective multibroadcast roots=0,3 bytes=2 chunks=2\n"
                  "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n  3 -> 1 : 1\n"
                  "  3 -> 2 : 1\nstep 1\n  1 -> 3 : 0\n  2 -> 0 : 1\n");
  VerificationResult R = verifyPlan(Ok);
  EXPECT_TRUE(R.verified()) << errors(R).size();
  EXPECT_EQ(R.Cost.Rounds, 2u);
  // Two packets on arc 0 -> 1 in one slot.
  Plan Two = parse(std::string(Header) +
                   "collective multibroadcast roots=0,0 bytes=2 chunks=2\n"
                   "step 0\n  0 -> 1 : 0\n  0 -> 1 : 1\n  0 -> 2 : 0\n"
                   "  0 -> 2 : 1\nstep 1\n  1 -> 3 : 0,1\n");
  EXPECT_EQ(errors(verifyPlan(Two)),
            (std::vector<std::string>{
                "error: step 0: link 0->1 carries 2 circuits, capacity 1 (0 "
                "-> 1 : 0 at line 5, also 0 -> 1 : 1 at line 6)",
                "error: step 0: link 0->2 carries 2 circuits, capacity 1 (0 "
                "-> 2 : 0 at line 7, also 0 -> 2 : 1 at line 8)"}));
  // Store-and-forward: 0 -> 3 is two hops.
  Plan Far = parse(std::string(Header) +
                   "collective broadcast root=0 bytes=1 chunks=1\n"
                   "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n  0 -> 3 : 0\n");
  EXPECT_EQ(errors(verifyPlan(Far)),
            (std::vector<std::string>{
                "error: step 0: 0 -> 3 : * is not between neighbours "
                "(store-and-forward)"}));
}

TEST(SlottedModel, RepeatedRootsHoldSeveralPackets) {
  // Node 0 holds packets 0 and 1, node 3 packet 2.
  Collective C;
  C.Kind = CollectiveKind::MultiBroadcast;
  C.Roots = {0, 0, 3};
  C.NumChunks = 3;
  EXPECT_EQ(C.initialChunks(0, 4), (ChunkRange{0, 2}));
  EXPECT_EQ(C.initialChunks(3, 4), (ChunkRange{2, 3}));
  EXPECT_EQ(C.initialChunks(1, 4), (ChunkRange{0, 0}));
  // Apart, the repeat is an error.
  Plan Apart = parse(std::string(Header) +
                     "collective multibroadcast roots=0,3,0 bytes=3 "
                     "chunks=3\n");
  EXPECT_EQ(errors(verifyPlan(Apart)),
            (std::vector<std::string>{
                "error: root 0 is listed twice; a repeated root's "
                "occurrences must be adjacent"}));
}

TEST(SlottedModel, ControlChunks) {
  // Chunk 1 is a control packet: node 1 sends a count to 0 before it holds
  // any data, 0 gets counts twice without a warning, and nobody must end
  // with chunk 1.
  std::string Text = std::string(Header) +
                     "collective broadcast root=0 bytes=1 chunks=2 "
                     "control=1\n"
                     "step 0\n  1 -> 0 : 1\n  2 -> 0 : 1\n"
                     "step 1\n  0 -> 1 : 0\n  0 -> 2 : 0\n"
                     "step 2\n  1 -> 3 : 0\n";
  Plan P = parse(Text);
  EXPECT_EQ(P.Coll.ControlChunks, 1u);
  EXPECT_EQ(P.Coll.dataChunks(), 1u);
  VerificationResult R = verifyPlan(P);
  EXPECT_EQ(errors(R), std::vector<std::string>());
  // The printer writes control= and reads back the same plan.
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  printPlanText(P, OS);
  OS.flush();
  EXPECT_NE(Printed.find("chunks=2 control=1"), std::string::npos);
  EXPECT_TRUE(parse(Printed).sameAs(P));
  // Without control=1, chunk 1 is data nobody holds.
  std::string NoControl = Text;
  NoControl.replace(NoControl.find(" control=1"), 10, "");
  EXPECT_EQ(errors(verifyPlan(parse(NoControl))),
            (std::vector<std::string>{
                "error: step 0: node 1 sends chunk 1 it does not hold yet (1 "
                "-> 0 : 1 at line 5)",
                "error: step 0: node 2 sends chunk 1 it does not hold yet (2 "
                "-> 0 : 1 at line 6)",
                "warning: step 0: node 0 already holds chunk 1 (1 -> 0 : 1 at "
                "line 5)",
                "warning: step 0: node 0 already holds chunk 1 (2 -> 0 : 1 at "
                "line 6)",
                "error: node 1 never receives chunk 1",
                "error: node 2 never receives chunk 1",
                "error: node 3 never receives chunk 1"}));
  // All chunks control: no message.
  Plan AllControl = parse(std::string(Header) +
                          "collective broadcast root=0 bytes=1 chunks=1 "
                          "control=1\n");
  EXPECT_EQ(errors(verifyPlan(AllControl)),
            (std::vector<std::string>{
                "error: 1 of 1 chunks are control chunks; the message needs "
                "a data chunk"}));
}

TEST(SlottedModel, SlotLowerBound) {
  // max{d, (2^d - 1)K/(d 2^d)}: d = 2, K = 2 gives max{2, 3/4} = 2.
  Plan Ok = parse(std::string(Header) +
                  "collective multibroadcast roots=0,3 bytes=2 chunks=2\n"
                  "step 0\n  0 -> 1 : 0\n  0 -> 2 : 0\n  3 -> 1 : 1\n"
                  "  3 -> 2 : 1\nstep 1\n  1 -> 3 : 0\n  2 -> 0 : 1\n");
  VerificationResult R = verifyPlan(Ok);
  EXPECT_EQ(R.Cost.SlotLowerBound, Rational(2));
  EXPECT_DOUBLE_EQ(R.Cost.SlotRatio, 1.0);
  EXPECT_DOUBLE_EQ(R.Cost.Ratio, 1.0); // both steps move one 1-byte chunk
  // K = 2^d = 4 on d = 2: (3 * 4)/(2 * 4) = 3/2 < 2; K = 16: 6.
  for (auto KB : {std::pair<int, Rational>{4, Rational(2)},
                  {16, Rational(6)}}) {
    Plan P = Ok;
    P.Coll.Kind = CollectiveKind::AllGather;
    P.Coll.NumChunks = KB.first;
    P.StepNumbers.clear();
    P.StepStarts = {0};
    P.Transfers.clear();
    EXPECT_EQ(verifyPlan(P).Cost.SlotLowerBound, KB.second) << KB.first;
  }
  // Outside the model (one-port, wormhole, a mesh): no slot bound.
  Plan One = Ok;
  One.Model.Ports = PortModel::One;
  EXPECT_EQ(verifyPlan(One).Cost.SlotLowerBound, Rational(0));
  Plan Worm = Ok;
  Worm.Model.Switch = Switching::Wormhole;
  EXPECT_EQ(verifyPlan(Worm).Cost.SlotLowerBound, Rational(0));
}

} // namespace
} // namespace test
} // namespace bcastc
