//===- backends/msccl/MscclXmlEmitter.cpp - `--emit=msccl-xml` ------------===//
//
// Builds the threadblocks of every rank from the trimmed broadcast schedule
// (ir/BroadcastSchedule.h), then prints them one tag per line. The
// emitter never checks its own output; tests run every file through
// MscclChecker, which re-reads the text and simulates it.
//
//===----------------------------------------------------------------------===//

#include "backends/msccl/MscclXmlEmitter.h"

#include "ir/BroadcastSchedule.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace bcastc {

unsigned mscclMaxSteps(llvm::StringRef Dialect) {
  if (Dialect == "azure")
    return 64;
  if (Dialect == "microsoft")
    return 256;
  return 0;
}

namespace {

struct XStep {
  const char *Type;
  char SrcBuf, DstBuf;
  uint64_t SrcOff, DstOff, Cnt;
  int DepId = -1, Deps = -1;
  bool HasDep = false;
};

struct XTb {
  int Send = -1, Recv = -1;
  std::vector<XStep> Steps;
  /// The latest step of each other threadblock this one has waited for.
  std::map<int, int> Waited;
};

/// Where each chunk arrived, (threadblock, step), kept as runs: a plan of
/// 2^32 - 1 chunks must not cost a slot per chunk. Chunks in no run were
/// never received (the root's).
class DeliveryMap {
public:
  /// Calls \p F(Tb, Step) for each run overlapping \p R.
  template <typename Fn> void forEachIn(ChunkRange R, Fn F) const {
    auto It = Runs.upper_bound(R.Begin);
    if (It != Runs.begin() && std::prev(It)->second.End > R.Begin)
      --It;
    for (; It != Runs.end() && It->first < R.End; ++It)
      F(It->second.Tb, It->second.Step);
  }
  /// Records that \p R arrived at (\p Tb, \p Step).
  void assign(ChunkRange R, int Tb, int Step) {
    split(R.Begin);
    split(R.End);
    Runs.erase(Runs.lower_bound(R.Begin), Runs.lower_bound(R.End));
    Runs.emplace(R.Begin, Run{R.End, Tb, Step});
  }

private:
  struct Run {
    uint32_t End;
    int Tb, Step;
  };
  /// Cuts the run containing \p X (not at its start) in two at \p X.
  void split(uint32_t X) {
    auto It = Runs.upper_bound(X);
    if (It == Runs.begin())
      return;
    --It;
    if (It->first < X && It->second.End > X) {
      Runs.emplace(X, Run{It->second.End, It->second.Tb, It->second.Step});
      It->second.End = X;
    }
  }
  /// Keyed by the run's first chunk.
  std::map<uint32_t, Run> Runs;
};

struct XGpu {
  std::vector<XTb> Tbs;
  std::map<NodeId, int> SendTb, RecvTb;
  DeliveryMap Delivered;

  int tb(std::map<NodeId, int> &Index, NodeId Peer, bool Send) {
    auto It = Index.find(Peer);
    if (It != Index.end())
      return It->second;
    XTb T;
    (Send ? T.Send : T.Recv) = int(Peer);
    Tbs.push_back(T);
    return Index[Peer] = int(Tbs.size() - 1);
  }
};

/// Attribute-safe text: no quotes, angle brackets or ampersands, printable
/// ASCII only.
std::string attrText(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    Out += (U < 0x20 || U >= 0x7f || C == '"' || C == '<' || C == '>' ||
            C == '&' || C == '\'')
               ? '_'
               : C;
  }
  return Out;
}

/// Comment-safe text: printable ASCII without "--" (which XML forbids in
/// comments) and not ending in '-'.
std::string commentText(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (U < 0x20 || U >= 0x7f)
      C = ' ';
    if (C == '-' && !Out.empty() && Out.back() == '-')
      C = '_';
    Out += C;
  }
  if (!Out.empty() && Out.back() == '-')
    Out += '_';
  return Out;
}

} // namespace

llvm::Error emitMscclXml(const Plan &P, const EmitOptions &Opts,
                         llvm::raw_ostream &OS) {
  MscclAlgoAttributes A;
  A.MaxBytes = Opts.MscclDialect == "azure" ? 0 : 2147483647;
  return emitMscclXmlWith(P, Opts, A, OS);
}

llvm::Error emitMscclXmlWith(const Plan &P, const EmitOptions &Opts,
                             const MscclAlgoAttributes &A,
                             llvm::raw_ostream &OS) {
  const unsigned MaxSteps = mscclMaxSteps(Opts.MscclDialect);
  if (!MaxSteps)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "msccl-xml: unknown dialect '%s' (expected azure or microsoft)",
        Opts.MscclDialect.c_str());
  auto S = scheduleBroadcast(P, "msccl-xml");
  if (!S)
    return S.takeError();
  const uint32_t N = S->NumRanks, D = S->DataChunks;
  // The root's copy threadblock takes ceil(D / MscclMaxCount) steps: refuse
  // before building a step list that long (2^32 - 1 chunks: 60 million).
  const uint64_t CopySteps = (uint64_t(D) + MscclMaxCount - 1) / MscclMaxCount;
  if (CopySteps > MaxSteps)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "msccl-xml: plan '%s' has %u chunks: rank %u's copy from input to "
        "output alone needs %llu steps in one threadblock (%u chunks a step), "
        "but the %s executor allows at most %u per threadblock; use a plan "
        "with fewer chunks",
        S->PlanName.c_str(), D, S->Root, (unsigned long long)CopySteps,
        MscclMaxCount, Opts.MscclDialect.c_str(), MaxSteps);
  std::vector<XGpu> Gpus(N);

  auto Pieces = [](const ChunkRange &R) {
    std::vector<ChunkRange> Out;
    for (uint32_t A = R.Begin; A < R.End; A += MscclMaxCount)
      Out.push_back({A, std::min<uint32_t>(R.End, A + MscclMaxCount)});
    return Out;
  };
  for (const std::vector<ScheduledMove> &Step : S->Steps) {
    for (const ScheduledMove &M : Step) {
      XGpu &Src = Gpus[M.Src];
      XGpu &Dst = Gpus[M.Dst];
      const bool FromRoot = M.Src == S->Root;
      for (const ChunkRange &Range : M.Chunks)
        for (const ChunkRange &R : Pieces(Range)) {
          // The sender waits for the receives that brought these chunks.
          const int SendTb = Src.tb(Src.SendTb, M.Dst, true);
          std::map<int, int> Need;
          Src.Delivered.forEachIn(R, [&](int Tb, int At) {
            Need[Tb] = std::max(Need[Tb], At);
          });
          std::vector<std::pair<int, int>> Deps;
          for (auto [Tb, At] : Need) {
            auto It = Src.Tbs[SendTb].Waited.find(Tb);
            if (It == Src.Tbs[SendTb].Waited.end() || It->second < At)
              Deps.push_back({Tb, At});
          }
          const char Buf = FromRoot ? 'i' : 'o';
          for (size_t K = 0; K < std::max<size_t>(Deps.size(), 1); ++K) {
            XStep X{K + 1 < Deps.size() ? "nop" : "s", Buf, Buf, R.Begin,
                    R.Begin, R.size()};
            if (K < Deps.size()) {
              X.DepId = Deps[K].first;
              X.Deps = Deps[K].second;
              Src.Tbs[X.DepId].Steps[X.Deps].HasDep = true;
              Src.Tbs[SendTb].Waited[X.DepId] = X.Deps;
            }
            Src.Tbs[SendTb].Steps.push_back(X);
          }
          const int RecvTb = Dst.tb(Dst.RecvTb, M.Src, false);
          XTb &T = Dst.Tbs[RecvTb];
          T.Steps.push_back(XStep{"r", 'o', 'o', R.Begin, R.Begin, R.size()});
          Dst.Delivered.assign(R, RecvTb, int(T.Steps.size() - 1));
        }
    }
  }
  // The root's own output: i to o (a no-op copy in place).
  {
    XGpu &Root = Gpus[S->Root];
    XTb Copy;
    for (const ChunkRange &R : Pieces(ChunkRange{0, D}))
      Copy.Steps.push_back(XStep{"cpy", 'i', 'o', R.Begin, R.Begin, R.size()});
    Root.Tbs.push_back(Copy);
  }
  for (uint32_t Rank = 0; Rank < N; ++Rank)
    for (size_t T = 0; T < Gpus[Rank].Tbs.size(); ++T) {
      const XTb &Tb = Gpus[Rank].Tbs[T];
      if (Tb.Steps.size() > MaxSteps)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "msccl-xml: rank %u threadblock %zu (%s %d) needs %zu steps, but "
            "the %s executor allows at most %u per threadblock; use a plan "
            "with fewer chunks%s",
            Rank, T, Tb.Send >= 0 ? "send to" : "receive from",
            Tb.Send >= 0 ? Tb.Send : Tb.Recv, Tb.Steps.size(),
            Opts.MscclDialect.c_str(), MaxSteps,
            Opts.MscclDialect == "azure" ? " or --msccl-dialect=microsoft"
                                         : "");
    }

  OS << "<algo name=\"" << attrText(S->PlanName) << " root " << S->Root
     << "\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"" << D
     << "\" ngpus=\"" << N
     << "\" coll=\"broadcast\" inplace=\"1\" outofplace=\"1\" minBytes=\""
     << A.MinBytes << "\" maxBytes=\"" << A.MaxBytes << "\">\n";
  if (!A.Comment.empty())
    OS << "  <!-- " << commentText(A.Comment) << " -->\n";
  for (uint32_t Rank = 0; Rank < N; ++Rank) {
    OS << "  <gpu id=\"" << Rank << "\" i_chunks=\"" << D << "\" o_chunks=\""
       << D << "\" s_chunks=\"0\">\n";
    const std::vector<XTb> &Tbs = Gpus[Rank].Tbs;
    for (size_t T = 0; T < Tbs.size(); ++T) {
      OS << "    <tb id=\"" << T << "\" send=\"" << Tbs[T].Send << "\" recv=\""
         << Tbs[T].Recv << "\" chan=\"0\">\n";
      for (size_t I = 0; I < Tbs[T].Steps.size(); ++I) {
        const XStep &X = Tbs[T].Steps[I];
        OS << "      <step s=\"" << I << "\" type=\"" << X.Type
           << "\" srcbuf=\"" << X.SrcBuf << "\" srcoff=\"" << X.SrcOff
           << "\" dstbuf=\"" << X.DstBuf << "\" dstoff=\"" << X.DstOff
           << "\" cnt=\"" << X.Cnt << "\" depid=\"" << X.DepId
           << "\" deps=\"" << X.Deps << "\" hasdep=\"" << (X.HasDep ? 1 : 0)
           << "\"/>\n";
      }
      OS << "    </tb>\n";
    }
    OS << "  </gpu>\n";
  }
  OS << "</algo>\n";
  return llvm::Error::success();
}

} // namespace bcastc
