//===- compiler/PlanSetBuilder.cpp ----------------------------------------===//

#include "compiler/PlanSetBuilder.h"

#include "compiler/PlanName.h"
#include "verifier/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>

using namespace llvm;

namespace bcastc {

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool sameSchedule(const Plan &A, const Plan &B) {
  if (A.Transfers.size() != B.Transfers.size() || A.Topo != B.Topo ||
      !(A.Model == B.Model) || A.StepNumbers != B.StepNumbers ||
      A.StepStarts != B.StepStarts)
    return false;
  Collective CA = A.Coll, CB = B.Coll;
  CA.Bytes = CB.Bytes = 0;
  if (!(CA == CB))
    return false;
  for (size_t I = 0; I < A.Transfers.size(); ++I) {
    const Transfer &L = A.Transfers[I], &R = B.Transfers[I];
    if (L.Src != R.Src || L.Dst != R.Dst || L.Reduce != R.Reduce ||
        L.ReceivedOnly != R.ReceivedOnly || A.chunks(L) != B.chunks(R))
      return false;
  }
  return true;
}

/// Appends the counts P + P*J/PerOctave (J = 0..PerOctave-1) of every
/// doubling P = 2^k that fall in [Lo, Hi].
static void addOctavePoints(uint64_t Lo, uint64_t Hi, unsigned PerOctave,
                            std::vector<uint64_t> &Out) {
  PerOctave = std::max(PerOctave, 1u);
  for (unsigned K = 0; K < 64; ++K) {
    uint64_t P = uint64_t(1) << K;
    if (P > Hi)
      break;
    for (unsigned J = 0; J < PerOctave; ++J) {
      // P * J / PerOctave without overflow: P is a power of two.
      uint64_t M = P + (P / PerOctave) * J +
                   ((P % PerOctave) * J) / PerOctave;
      if (M < P) // wrapped past 2^64
        break;
      if (M >= Lo && M <= Hi)
        Out.push_back(M);
    }
  }
}

static void sortUnique(std::vector<uint64_t> &V) {
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

std::vector<uint64_t> planSetSamples(const PlanSetRequest &R) {
  std::vector<uint64_t> S = R.Sizes;
  if (S.empty()) {
    S = {R.MinBytes, R.MaxBytes};
    addOctavePoints(R.MinBytes, R.MaxBytes, R.LoweringsPerOctave, S);
  }
  sortUnique(S);
  return S;
}

namespace {

/// One verified candidate plan of a class.
struct Candidate {
  Plan P;
  const AlgorithmInfo *Algo;
  uint64_t Startups;
  /// Times P at the sizes the bands are searched at (refers to P: the pool
  /// is a deque, which never moves its elements).
  std::unique_ptr<PlanTimer> Timer;
};

/// Builds one root class: its candidates and its bands.
class ClassBuilder {
public:
  ClassBuilder(const PlanSetRequest &R, ArrayRef<const AlgorithmInfo *> Algos,
               CollectiveKind Kind, NodeId Rep, StringRef What,
               PlanSetBuild &Out)
      : R(R), Algos(Algos), Kind(Kind), Rep(Rep), What(What), Out(Out) {}

  /// Lowers every algorithm at \p Bytes; returns how many new candidates.
  unsigned lowerAt(uint64_t Bytes);
  /// The bands over the candidates lowered so far, evaluated at \p Points
  /// and bisected between them.
  std::vector<SizeBand> bands(ArrayRef<uint64_t> Points);

  std::deque<Candidate> Pool;
  /// Why each algorithm did not give a candidate (the first reason).
  StringMap<std::string> WhyNot;

private:
  uint32_t winner(uint64_t Bytes);
  void bisect(uint64_t A, uint32_t WA, uint64_t B, uint32_t WB);

  const PlanSetRequest &R;
  ArrayRef<const AlgorithmInfo *> Algos;
  CollectiveKind Kind;
  NodeId Rep;
  std::string What;
  PlanSetBuild &Out;
  /// The cheapest candidate at each evaluated count.
  std::map<uint64_t, uint32_t> Winners;
  std::vector<uint64_t> Lowered;
};

} // namespace

unsigned ClassBuilder::lowerAt(uint64_t Bytes) {
  if (is_contained(Lowered, Bytes))
    return 0;
  Lowered.push_back(Bytes);
  unsigned Added = 0;
  for (const AlgorithmInfo *A : Algos) {
    LoweringRequest Req = R.Base;
    Req.Root = Rep;
    Req.Bytes = Bytes;
    if (R.Progress)
      R.Progress("lowering " + A->Name + " for " + What + " at " +
                 Twine(Bytes) + " bytes");
    if (Error E = A->CheckApplicable(Req)) {
      WhyNot.try_emplace(A->Name, toString(std::move(E)));
      continue;
    }
    Expected<Plan> P = lower(*A, Req);
    if (!P) {
      std::string Why = toString(P.takeError());
      Out.Notes.push_back((A->Name + " for " + What + " at " + Twine(Bytes) +
                           " bytes: " + Why + "; dropped")
                              .str());
      WhyNot.try_emplace(A->Name, Why);
      continue;
    }
    if (P->Coll.Kind != Kind) {
      WhyNot.try_emplace(A->Name, ("it lowers a " +
                                   collectiveKindName(P->Coll.Kind) +
                                   ", not a " + collectiveKindName(Kind))
                                      .str());
      continue;
    }
    ++Out.Lowered;
    // Most algorithms lower the same schedule at every size: verify once.
    if (any_of(Pool, [&](const Candidate &C) { return sameSchedule(C.P, *P); }))
      continue;
    P->Name = planName(*P, A->Name);
    VerificationResult V = verifyPlan(*P);
    if (!V.verified()) {
      std::string First;
      for (const Diagnostic &D : V.Diagnostics)
        if (D.Sev == Severity::Error) {
          First = D.Message;
          break;
        }
      Out.Notes.push_back(("plan " + P->Name + " (" + A->Name + " for " +
                           What + " at " + Twine(Bytes) +
                           " bytes) fails verification: " + First +
                           "; dropped")
                              .str());
      WhyNot.try_emplace(A->Name, "its plan fails verification");
      continue;
    }
    Pool.push_back(Candidate{std::move(*P), A, V.Cost.Startups, nullptr});
    Pool.back().Timer = std::make_unique<PlanTimer>(Pool.back().P);
    ++Added;
  }
  if (Added)
    Winners.clear(); // New candidates may win anywhere.
  return Added;
}

uint32_t ClassBuilder::winner(uint64_t Bytes) {
  auto It = Winners.find(Bytes);
  if (It != Winners.end())
    return It->second;
  uint32_t Best = 0;
  double BestTime = 0;
  for (uint32_t I = 0; I < Pool.size(); ++I) {
    double T = Pool[I].Timer->time(Bytes);
    ++Out.Evaluations;
    // Ties: fewer start-ups (each is a latency the model may underrate),
    // then the earlier candidate.
    if (I == 0 || T < BestTime ||
        (T == BestTime && Pool[I].Startups < Pool[Best].Startups)) {
      Best = I;
      BestTime = T;
    }
  }
  Winners.emplace(Bytes, Best);
  return Best;
}

void ClassBuilder::bisect(uint64_t A, uint32_t WA, uint64_t B, uint32_t WB) {
  // Invariant: A < B and their winners differ. Every pair of neighbouring
  // evaluated counts with different winners ends up adjacent integers.
  if (B - A == 1)
    return;
  uint64_t M = A + (B - A) / 2;
  uint32_t WM = winner(M);
  if (WM != WA)
    bisect(A, WA, M, WM);
  if (WM != WB)
    bisect(M, WM, B, WB);
}

std::vector<SizeBand> ClassBuilder::bands(ArrayRef<uint64_t> Points) {
  std::vector<std::pair<uint64_t, uint32_t>> At;
  for (uint64_t M : Points)
    At.emplace_back(M, winner(M));
  for (size_t I = 0; I + 1 < At.size(); ++I)
    if (At[I].second != At[I + 1].second)
      bisect(At[I].first, At[I].second, At[I + 1].first, At[I + 1].second);
  std::vector<SizeBand> Bands;
  for (const auto &[M, W] : Winners) {
    if (M < Points.front() || M > Points.back())
      continue;
    if (!Bands.empty() && Bands.back().PlanIndex == W)
      continue;
    if (!Bands.empty())
      Bands.back().Hi = M;
    SizeBand B;
    B.Lo = Bands.empty() ? 0 : M;
    B.Hi = UINT64_MAX;
    B.PlanIndex = W;
    Bands.push_back(B);
  }
  return Bands;
}

/// The same algorithm may give several plans (packet counts its name does
/// not always show): each of them gets its chunk count, `-c14`, and any
/// still alike a sequence number.
static void distinguishNames(std::vector<Plan> &Plans) {
  StringMap<unsigned> Uses;
  for (const Plan &P : Plans)
    ++Uses[P.Name];
  for (Plan &P : Plans)
    if (Uses[P.Name] > 1)
      P.Name += "-c" + std::to_string(P.Coll.NumChunks);
  StringMap<unsigned> Chunked, Seen;
  for (const Plan &P : Plans)
    ++Chunked[P.Name];
  for (Plan &P : Plans)
    if (Chunked[P.Name] > 1)
      P.Name += "-" + std::to_string(++Seen[P.Name]);
}

static bool isRooted(CollectiveKind K) { return K == CollectiveKind::Broadcast; }

/// The collective \p R asks for.
static Expected<CollectiveKind>
requestedKind(const PlanSetRequest &R,
              ArrayRef<const AlgorithmInfo *> Algos) {
  uint32_t N = R.Base.Topo.numNodes();
  if (!R.Base.Sources.empty()) {
    std::vector<NodeId> S(R.Base.Sources.begin(), R.Base.Sources.end());
    llvm::sort(S);
    bool Everyone = S.size() == N && std::unique(S.begin(), S.end()) == S.end();
    if (!Everyone)
      return makeError("plan sets serve one-root and rootless collectives "
                       "(broadcast, allgather with every node a source, "
                       "allreduce); a multibroadcast of " +
                       Twine(R.Base.Sources.size()) +
                       " sources is a single plan");
    if (R.Kind && *R.Kind != CollectiveKind::AllGather)
      return makeError("sources on every node ask for an allgather, not a " +
                       collectiveKindName(*R.Kind));
    return CollectiveKind::AllGather;
  }
  if (R.Kind) {
    if (*R.Kind == CollectiveKind::MultiBroadcast)
      return makeError("a multibroadcast plan is a single plan; plan sets "
                       "serve broadcast, allgather and allreduce");
    return *R.Kind;
  }
  if (Algos.size() == 1) {
    // The kind the one algorithm lowers.
    LoweringRequest Req = R.Base;
    Req.Root = R.Roots.empty() ? 0 : R.Roots.front();
    Req.Bytes = R.Sizes.empty() ? R.MinBytes : R.Sizes.front();
    if (Error E = Algos.front()->CheckApplicable(Req))
      return makeError(Algos.front()->Name + " does not apply to " +
                       R.Base.Topo.str() + ": " + toString(std::move(E)));
    Expected<Plan> P = lower(*Algos.front(), Req);
    if (!P)
      return P.takeError();
    if (P->Coll.Kind == CollectiveKind::MultiBroadcast)
      return makeError(Algos.front()->Name +
                       " lowers a multibroadcast, a single plan; plan sets "
                       "serve broadcast, allgather and allreduce");
    return P->Coll.Kind;
  }
  return CollectiveKind::Broadcast;
}

Expected<PlanSetBuild> buildPlanSet(const PlanSetRequest &R) {
  const Topology &Topo = R.Base.Topo;
  uint32_t N = Topo.numNodes();
  if (N == 0)
    return makeError("a plan set needs a topology");
  if (R.Sizes.empty() && R.MinBytes > R.MaxBytes)
    return makeError("the byte range " + Twine(R.MinBytes) + ".." +
                     Twine(R.MaxBytes) + " is empty");
  if (Error E = R.Place.check(N))
    return makeError("placement: " + toString(std::move(E)));
  std::vector<const AlgorithmInfo *> Algos = R.Algorithms;
  if (Algos.empty())
    for (const AlgorithmInfo &A : allAlgorithms())
      Algos.push_back(&A);
  Expected<CollectiveKind> Kind = requestedKind(R, Algos);
  if (!Kind)
    return Kind.takeError();
  bool Rooted = isRooted(*Kind);

  PlanSetBuild Out;
  PlanSet &S = Out.Set;
  S.Name = (collectiveKindName(*Kind) + "-" + Topo.kindName() + "-" +
            Topo.extentsStr())
               .str();
  S.Topo = Topo;
  S.Model = R.Base.Model;
  S.Kind = *Kind;
  S.Symmetry = Rooted ? naturalSymmetry(Topo) : RootSymmetry::None;
  S.Place = R.Place;

  // Classes, ordered by representative.
  std::map<NodeId, std::vector<NodeId>> Classes;
  if (Rooted) {
    std::vector<NodeId> Roots = R.Roots;
    if (Roots.empty())
      for (NodeId X = 0; X < N; ++X)
        Roots.push_back(X);
    for (NodeId Root : Roots) {
      if (Root >= N)
        return makeError("root " + Twine(Root) + " is not a node of " +
                         Topo.str() + " (0.." + Twine(N - 1) + ")");
      Classes[classRepresentative(Topo, S.Symmetry, Root)].push_back(Root);
    }
  } else {
    // One class; its plan does not depend on a root.
    Classes[R.Base.Root] = {R.Base.Root};
  }

  std::vector<uint64_t> Samples = planSetSamples(R);
  S.MinBytes = Samples.front();
  S.MaxBytes = Samples.back();
  std::vector<uint64_t> Points = Samples;
  if (R.Sizes.empty())
    addOctavePoints(S.MinBytes, S.MaxBytes, R.EvaluationsPerOctave, Points);
  sortUnique(Points);

  unsigned ClassNo = 0;
  for (auto &[Rep, Roots] : Classes) {
    ++ClassNo;
    std::string What =
        Rooted ? ("root " + Topo.nodeName(Rep) + " (class " + Twine(ClassNo) +
                  " of " + Twine(Classes.size()) + ")")
                     .str()
               : collectiveKindName(*Kind).str();
    ClassBuilder CB(R, Algos, *Kind, Rep, What, Out);
    for (uint64_t M : Samples)
      CB.lowerAt(M);
    if (CB.Pool.empty()) {
      std::string Why;
      for (const AlgorithmInfo *A : Algos) {
        auto It = CB.WhyNot.find(A->Name);
        if (It != CB.WhyNot.end())
          Why += "\n  " + A->Name.str() + ": " + It->second;
      }
      return makeError("no verified " + collectiveKindName(*Kind) +
                       " plan for " + What + " on " + Topo.str() + Why);
    }
    if (R.Progress)
      R.Progress("banding " + Twine(CB.Pool.size()) + " candidates for " +
                 What);
    std::vector<SizeBand> Bands = CB.bands(Points);
    // Plans lowered for the edges themselves: a pipelined algorithm picks
    // its packet count for the size it is lowered at.
    for (unsigned Round = 0; Round < R.EdgeRounds; ++Round) {
      unsigned Added = 0;
      for (size_t B = 1; B < Bands.size(); ++B) {
        Added += CB.lowerAt(Bands[B].Lo - 1);
        Added += CB.lowerAt(Bands[B].Lo);
      }
      if (!Added)
        break;
      Bands = CB.bands(Points);
    }
    Out.Candidates += CB.Pool.size();
    if (R.KeepCandidates) {
      Out.ClassCandidates.emplace_back();
      for (const Candidate &C : CB.Pool)
        Out.ClassCandidates.back().push_back(C.P);
    }

    // Into the set: plans shared only when they are the same schedule.
    RootClass RC;
    RC.Representative = Rep;
    RC.Roots = Roots;
    llvm::sort(RC.Roots);
    RC.Roots.erase(std::unique(RC.Roots.begin(), RC.Roots.end()),
                   RC.Roots.end());
    std::map<uint32_t, uint32_t> SetIndex;
    for (SizeBand &B : Bands) {
      auto It = SetIndex.find(B.PlanIndex);
      if (It == SetIndex.end()) {
        Candidate &C = CB.Pool[B.PlanIndex];
        uint32_t Index = 0;
        while (Index < S.Plans.size() && !sameSchedule(S.Plans[Index], C.P))
          ++Index;
        if (Index == S.Plans.size()) {
          C.Timer.reset(); // It refers to C.P.
          S.Plans.push_back(std::move(C.P));
        }
        It = SetIndex.emplace(B.PlanIndex, Index).first;
      }
      B.PlanIndex = It->second;
    }
    RC.Bands = std::move(Bands);
    S.Classes.push_back(std::move(RC));
  }
  distinguishNames(S.Plans);
  if (Error E = S.checkStructure())
    return makeError("internal error: the built plan set is malformed: " +
                     toString(std::move(E)));
  return std::move(Out);
}

} // namespace bcastc
