//===- compiler/lowering/postal/GlobalCombine.cpp -------------------------===//

#include "compiler/lowering/postal/GlobalCombine.h"

#include "compiler/lowering/postal/PostalModel.h"

#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error checkPostalCombine(llvm::StringRef Name, const LoweringRequest &R) {
  if (R.Topo.kind() != TopologyKind::Complete)
    return fail("the postal global combine needs complete:N; got " +
                R.Topo.str());
  if (R.Model.Ports != PortModel::One)
    return fail("the postal global combine needs ports=one");
  if (R.Model.Latency < Rational(1))
    return fail("the postal global combine needs latency >= 1; got latency=" +
                R.Model.Latency.str());
  return llvm::Error::success();
}

CombineDelay chooseCombineDelay(Rational Lambda) {
  if (Lambda.isInteger())
    return CombineDelay::Receive; // Both are the integer algorithm.
  unsigned K = unsigned(Lambda.num() / Lambda.den());
  return Lambda.toDouble() < postal::breakEven(K) ? CombineDelay::Send
                                                  : CombineDelay::Receive;
}

namespace {
/// The integer-lambda algorithm the delay runs, and ticks per round.
struct DelayedClock {
  uint32_t IntLambda;
  uint64_t TicksPerRound;
};
} // namespace

static DelayedClock delayedClock(Rational Lambda, CombineDelay Delay) {
  uint64_t P = uint64_t(Lambda.num()), Q = uint64_t(Lambda.den());
  if (Delay == CombineDelay::Receive)
    return {uint32_t((P + Q - 1) / Q), Q};
  uint32_t Floor = uint32_t(P / Q);
  // A round lasts lambda/floor(lambda) send times = p/floor ticks, rounded
  // up so rounds start on ticks; floor(lambda) rounds still cover lambda.
  return {Floor, (P + Floor - 1) / Floor};
}

Rational predictedCombineTime(Rational Lambda, uint32_t N, CombineDelay Delay) {
  DelayedClock D = delayedClock(Lambda, Delay);
  uint64_t Rounds = postal::predictedCombineRounds(D.IntLambda, N);
  if (Rounds == 0)
    return Rational(0);
  // The last round's messages start at round Rounds - L and take lambda.
  return Rational(int64_t((Rounds - D.IntLambda) * D.TicksPerRound),
                  Lambda.den()) +
         Lambda;
}

static llvm::Expected<Plan> lowerCombine(const LoweringRequest &R,
                                         CombineDelay Delay) {
  uint32_t N = R.Topo.numNodes();
  DelayedClock D = delayedClock(R.Model.Latency, Delay);
  postal::CombineSchedule S = postal::combineSchedule(D.IntLambda, N);
  Collective Coll;
  Coll.Kind = CollectiveKind::AllReduce;
  Coll.Roots = {R.Root};
  Coll.Bytes = R.Bytes;
  Coll.NumChunks = 1;
  const char *Kind = R.Model.Latency.isInteger() ? ""
                     : Delay == CombineDelay::Receive ? "-delay-receive"
                                                      : "-delay-send";
  PlanBuilder B(llvm::formatv("postal-combine{0}-{1}-lambda{2}", Kind,
                              R.Topo.str(), R.Model.Latency.str())
                    .str(),
                R.Topo, R.Model, Coll);
  ChunkSetId All = B.intern(ChunkRange{0, 1});
  // Node ids are ranks shifted by the root, so a root can be named.
  auto Node = [&](uint32_t Rank) {
    return NodeId((uint64_t(R.Root) + Rank) % N);
  };
  for (size_t I = 0; I < S.Steps.size(); ++I) {
    if (S.Steps[I].empty())
      continue;
    B.beginStep(uint32_t(I * D.TicksPerRound));
    for (const postal::CombineSend &Send : S.Steps[I]) {
      if (Send.ReceivedOnly)
        B.addReceivedReduce(Node(Send.Src), Node(Send.Dst), All);
      else
        B.add(Node(Send.Src), Node(Send.Dst), All, TransferOp::Reduce);
    }
  }
  return B.take();
}

llvm::Expected<Plan> lowerPostalCombine(llvm::StringRef Name,
                                        const LoweringRequest &R) {
  return lowerCombine(R, chooseCombineDelay(R.Model.Latency));
}
llvm::Expected<Plan> lowerPostalCombineDelayReceive(llvm::StringRef Name,
                                                    const LoweringRequest &R) {
  return lowerCombine(R, CombineDelay::Receive);
}
llvm::Expected<Plan> lowerPostalCombineDelaySend(llvm::StringRef Name,
                                                 const LoweringRequest &R) {
  return lowerCombine(R, CombineDelay::Send);
}

} // namespace bcastc
