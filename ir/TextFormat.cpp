//===- ir/TextFormat.cpp --------------------------------------------------===//
//
// A line-at-a-time recursive-descent parser. Header lines are split into
// whitespace-separated words; transfer lines are scanned character by
// character so that `0->3:1` and `(0, 1) -> (0, 2) : 0 - 3` both read.
//
//===----------------------------------------------------------------------===//

#include "ir/TextFormat.h"

#include "ir/SourceError.h"
#include "ir/Units.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cassert>

using namespace llvm;

namespace bcastc {

namespace {

/// A position in one line of the buffer (comment already stripped).
struct Cursor {
  StringRef S;
  size_t Pos = 0;

  explicit Cursor(StringRef S) : S(S) {}
  const char *loc() const { return S.data() + Pos; }
  bool atEnd() const { return Pos >= S.size(); }
  char peek() const { return atEnd() ? '\0' : S[Pos]; }
  void skipSpace() {
    while (!atEnd() && isSpace(S[Pos]))
      ++Pos;
  }
  bool consume(StringRef T) {
    if (!S.substr(Pos).startswith(T))
      return false;
    Pos += T.size();
    return true;
  }
  /// The next whitespace-delimited word (empty at the end of the line).
  StringRef word() {
    skipSpace();
    size_t Begin = Pos;
    while (!atEnd() && !isSpace(S[Pos]))
      ++Pos;
    return S.slice(Begin, Pos);
  }
  /// What a diagnostic calls the text at the cursor: `'junk'` or `end of
  /// line`.
  std::string found() const {
    if (atEnd())
      return "end of line";
    size_t End = Pos;
    while (End < S.size() && !isSpace(S[End]))
      ++End;
    return quoteSource(S.slice(Pos, End));
  }
};

const char *const KindNames[] = {"linear", "ring",      "mesh",
                                 "torus",  "hypercube", "complete"};

class TextParser {
public:
  TextParser(StringRef Text, StringRef File, uint32_t MaxLines)
      : Text(Text), File(File), MaxLines(MaxLines) {}

  Expected<Plan> parse();

private:
  /// Records the first error; always returns false so callers can
  /// `return fail(...)`.
  bool fail(const char *Loc, const Twine &Msg) {
    if (Diag.empty())
      Diag = formatSourceError(Text, File, Loc, Msg);
    return false;
  }
  bool expectEnd(Cursor &C) {
    C.skipSpace();
    if (C.atEnd())
      return true;
    return fail(C.loc(), "unexpected " + C.found() + " at the end of the line");
  }
  /// A run of decimal digits as a number no larger than \p Max; \p What
  /// names it in errors (`node id`, `chunk id`, ...).
  bool number(Cursor &C, StringRef What, uint64_t Max, StringRef Limit,
              uint64_t &Out);
  bool node(Cursor &C, NodeId &Out);
  bool chunkList(Cursor &C, SmallVectorImpl<ChunkRange> &Ranges);
  /// `0bx0x1,0b1xx0`: disjoint cubes, most significant bit first, x a free
  /// bit.
  bool chunkPatterns(Cursor &C, SmallVectorImpl<ChunkCube> &Out);

  bool line(Cursor &C);
  bool header(StringRef Keyword, uint32_t &SeenLine, const char *Loc);
  bool scheduleLine(Cursor &C);
  bool topologyLine(Cursor &C);
  bool modelLine(Cursor &C);
  bool collectiveLine(Cursor &C, const char *KeywordLoc);
  bool stepLine(Cursor &C, const char *KeywordLoc);
  bool transferLine(Cursor &C);
  bool checkHeaderComplete(const char *Loc, StringRef Before);

  StringRef Text;
  StringRef File;
  std::string Diag;
  Plan P;
  uint32_t MaxLines;
  uint32_t LineNo = 0;
};

} // namespace

bool TextParser::number(Cursor &C, StringRef What, uint64_t Max,
                        StringRef Limit, uint64_t &Out) {
  const char *Loc = C.loc();
  size_t Begin = C.Pos;
  while (!C.atEnd() && isDigit(C.peek()))
    ++C.Pos;
  StringRef Digits = C.S.slice(Begin, C.Pos);
  if (Digits.empty())
    return fail(Loc, "expected a " + What + ", found " + C.found());
  if (Digits.getAsInteger(10, Out) || Out > Max)
    return fail(Loc, What + " " + quoteSource(Digits) + " " + Limit);
  return true;
}

bool TextParser::node(Cursor &C, NodeId &Out) {
  const char *Loc = C.loc();
  uint64_t V;
  if (!C.consume("(")) {
    if (!isDigit(C.peek()))
      return fail(Loc, "expected a node id or coordinates, found " + C.found());
    if (!number(C, "node id", UINT32_MAX, "does not fit in 32 bits", V))
      return false;
    Out = NodeId(V);
    return true;
  }
  if (P.Source.TopologyLine == 0)
    return fail(Loc, "coordinates need the 'topology' line first");
  SmallVector<uint32_t, 3> Coords;
  while (true) {
    C.skipSpace();
    if (!number(C, "coordinate", UINT32_MAX, "does not fit in 32 bits", V))
      return false;
    Coords.push_back(uint32_t(V));
    C.skipSpace();
    if (C.consume(")"))
      break;
    if (!C.consume(","))
      return fail(C.loc(), "expected ',' or ')' in coordinates, found " +
                               C.found());
  }
  auto Id = P.Topo.nodeAt(Coords);
  if (!Id)
    return fail(Loc, toString(Id.takeError()));
  Out = *Id;
  return true;
}

bool TextParser::chunkList(Cursor &C, SmallVectorImpl<ChunkRange> &Ranges) {
  if (C.consume("*")) {
    Ranges.push_back(ChunkRange{0, P.Coll.NumChunks});
    return true;
  }
  if (!isDigit(C.peek()))
    return fail(C.loc(),
                "expected a chunk list ('*', '0,2', '4-7' or '0bx0x1'), found " +
                    C.found());
  // The largest id leaves room for its range's exclusive end.
  const uint64_t MaxChunk = UINT32_MAX - 1;
  while (true) {
    const char *Loc = C.loc();
    uint64_t Lo, Hi;
    if (!number(C, "chunk id", MaxChunk, "is too large", Lo))
      return false;
    Hi = Lo;
    C.skipSpace();
    if (C.consume("-")) {
      C.skipSpace();
      if (!number(C, "chunk id", MaxChunk, "is too large", Hi))
        return false;
      if (Hi < Lo)
        return fail(Loc, "chunk range " + Twine(Lo) + "-" + Twine(Hi) +
                             " is reversed (write " + Twine(Hi) + "-" +
                             Twine(Lo) + ")");
    }
    Ranges.push_back(ChunkRange{uint32_t(Lo), uint32_t(Hi + 1)});
    C.skipSpace();
    if (!C.consume(","))
      break;
    C.skipSpace();
  }
  normalizeChunkRanges(Ranges);
  return true;
}

bool TextParser::chunkPatterns(Cursor &C, SmallVectorImpl<ChunkCube> &Out) {
  const char *First = C.loc();
  while (true) {
    const char *Loc = C.loc();
    if (!C.consume("0b"))
      return fail(Loc, "expected a chunk pattern '0b...' (patterns and ranges "
                       "do not mix in one set), found " +
                           C.found());
    size_t Begin = C.Pos;
    while (!C.atEnd() &&
           (C.peek() == '0' || C.peek() == '1' || C.peek() == 'x'))
      ++C.Pos;
    StringRef Digits = C.S.slice(Begin, C.Pos);
    if (Digits.empty())
      return fail(Loc, "expected the bits of a chunk pattern after '0b' (0, "
                       "1 or x, most significant first), found " +
                           C.found());
    // Leading zeros are harmless; the rest must fit 32 bits.
    StringRef Significant = Digits.ltrim('0');
    if (Significant.size() > 32)
      return fail(Loc, "chunk pattern '0b" + Digits +
                           "' has more than 32 significant bits");
    ChunkCube Cube;
    for (char D : Significant) {
      Cube.Base = Cube.Base << 1 | (D == '1');
      Cube.Mask = Cube.Mask << 1 | (D == 'x');
    }
    Out.push_back(Cube);
    C.skipSpace();
    if (!C.consume(","))
      break;
    C.skipSpace();
  }
  // Named by their significant digits, as most users write them.
  std::string Bad = checkChunkCubes(
      Out, [](ChunkCube Cube) { return chunkPattern(Cube, /*NumChunks=*/1); });
  if (!Bad.empty())
    return fail(First, Bad);
  return true;
}

bool TextParser::header(StringRef Keyword, uint32_t &SeenLine,
                        const char *Loc) {
  if (!P.StepNumbers.empty())
    return fail(Loc, "'" + Keyword +
                         "' line after the first step: header lines come "
                         "before the steps");
  if (SeenLine != 0)
    return fail(Loc, "duplicate '" + Keyword + "' line (first at line " +
                         Twine(SeenLine) + ")");
  SeenLine = LineNo;
  return true;
}

bool TextParser::scheduleLine(Cursor &C) {
  C.skipSpace();
  const char *Loc = C.loc();
  StringRef Name = C.word();
  if (Name.empty())
    return fail(Loc, "expected a schedule name after 'schedule'");
  P.Name = Name.str();
  return expectEnd(C);
}

bool TextParser::topologyLine(Cursor &C) {
  C.skipSpace();
  const char *KindLoc = C.loc();
  StringRef Kind = C.word();
  if (Kind.empty())
    return fail(KindLoc, "expected a topology such as 'mesh 4x8' after "
                         "'topology'");
  StringRef Extents;
  const char *ExtentsLoc;
  if (Kind.contains(':')) {
    // `topology mesh:4x8`, the command-line spelling.
    std::tie(Kind, Extents) = Kind.split(':');
    ExtentsLoc = Extents.data();
  } else {
    C.skipSpace();
    ExtentsLoc = C.loc();
    Extents = C.word();
    if (Extents.empty())
      return fail(ExtentsLoc, "expected the extents of the " + Kind +
                                  " topology, e.g. 'topology " + Kind + " " +
                                  (Kind == "mesh" || Kind == "torus" ? "4x8"
                                                                     : "8") +
                                  "'");
  }
  if (!is_contained(KindNames, Kind))
    return fail(KindLoc, "unknown topology kind " + quoteSource(Kind) +
                             " (expected linear, ring, mesh, torus, "
                             "hypercube or complete)");
  auto T = Topology::parse((Kind + ":" + Extents).str());
  if (!T)
    return fail(ExtentsLoc, toString(T.takeError()));
  P.Topo = std::move(*T);
  return expectEnd(C);
}

bool TextParser::modelLine(Cursor &C) {
  bool First = true;
  // Where a rule over several words (MachineModel::check) points: the last
  // of the words it involves.
  const char *LastLatencyOrContention = nullptr;
  while (true) {
    C.skipSpace();
    const char *Loc = C.loc();
    StringRef W = C.word();
    if (W.empty())
      break;
    if (!W.contains('=')) {
      // A preset may open the line: `model meganode latency=2`.
      if (!First)
        return fail(Loc, "expected key=value, found " + quoteSource(W));
      auto Preset = MachineModel::preset(W);
      if (!Preset) {
        consumeError(Preset.takeError());
        return fail(Loc, "expected key=value or a machine preset (delta, "
                         "meganode), found " + quoteSource(W));
      }
      P.Model = *Preset;
    } else {
      StringRef Key, Value;
      std::tie(Key, Value) = W.split('=');
      if (Error E = P.Model.set(Key, Value))
        return fail(Loc, toString(std::move(E)));
      if (Key == "latency" || Key == "contention")
        LastLatencyOrContention = Loc;
    }
    First = false;
  }
  if (First)
    return fail(C.loc(), "expected key=value words after 'model'");
  if (Error E = P.Model.check())
    return fail(LastLatencyOrContention ? LastLatencyOrContention : C.S.data(),
                toString(std::move(E)));
  return true;
}

bool TextParser::collectiveLine(Cursor &C, const char *KeywordLoc) {
  C.skipSpace();
  const char *KindLoc = C.loc();
  StringRef KindWord = C.word();
  CollectiveKind Kind;
  if (KindWord == "broadcast")
    Kind = CollectiveKind::Broadcast;
  else if (KindWord == "multibroadcast")
    Kind = CollectiveKind::MultiBroadcast;
  else if (KindWord == "allgather")
    Kind = CollectiveKind::AllGather;
  else if (KindWord == "allreduce")
    Kind = CollectiveKind::AllReduce;
  else if (KindWord.empty())
    return fail(KindLoc, "expected a collective (broadcast, multibroadcast, "
                         "allgather or allreduce) after 'collective'");
  else
    return fail(KindLoc, "unknown collective " + quoteSource(KindWord) +
                             " (expected broadcast, multibroadcast, "
                             "allgather or allreduce)");
  Collective Coll;
  Coll.Kind = Kind;
  StringRef RootKey = Kind == CollectiveKind::Broadcast        ? "root"
                      : Kind == CollectiveKind::MultiBroadcast ? "roots"
                                                               : "";
  bool SeenRoot = false, SeenBytes = false, SeenChunks = false,
       SeenControl = false;
  while (true) {
    C.skipSpace();
    const char *Loc = C.loc();
    StringRef W = C.word();
    if (W.empty())
      break;
    if (!W.contains('='))
      return fail(Loc, "expected key=value, found " + quoteSource(W));
    StringRef Key, Value;
    std::tie(Key, Value) = W.split('=');
    const char *ValueLoc = Value.data();
    bool *Seen = Key == "bytes"                      ? &SeenBytes
                 : Key == "chunks"                   ? &SeenChunks
                 : Key == "control"                  ? &SeenControl
                 : !RootKey.empty() && Key == RootKey ? &SeenRoot
                                                      : nullptr;
    if (!Seen)
      return fail(Loc, "unknown parameter '" + Key + "' for " + KindWord +
                           " (expected " +
                           (RootKey.empty() ? "" : RootKey + ", ") +
                           "bytes or chunks)");
    if (*Seen)
      return fail(Loc, "duplicate parameter '" + Key + "'");
    *Seen = true;
    if (Key == "bytes") {
      auto B = parseByteCount(Value);
      if (!B)
        return fail(ValueLoc, toString(B.takeError()));
      Coll.Bytes = *B;
    } else if (Key == "chunks") {
      uint64_t N;
      if (Value.getAsInteger(10, N) || N == 0 || N > UINT32_MAX)
        return fail(ValueLoc, "bad chunk count '" + Value +
                                  "': expected a positive integer below 2^32");
      Coll.NumChunks = uint32_t(N);
    } else if (Key == "control") {
      // Control chunks (count and termination packets); the verifier's
      // structure pass checks they leave data chunks.
      uint64_t N;
      if (Value.getAsInteger(10, N) || N > UINT32_MAX)
        return fail(ValueLoc, "bad control chunk count '" + Value +
                                  "': expected an integer below 2^32");
      Coll.ControlChunks = uint32_t(N);
    } else {
      Cursor V(Value);
      Coll.Roots.clear();
      while (true) {
        NodeId Root;
        if (!node(V, Root))
          return false;
        Coll.Roots.push_back(Root);
        if (Kind == CollectiveKind::Broadcast || !V.consume(","))
          break;
      }
      if (!V.atEnd())
        return fail(V.loc(), "unexpected " + V.found() + " after the " +
                                 (Kind == CollectiveKind::Broadcast
                                      ? "root"
                                      : "roots (write roots=0,5,9)"));
    }
  }
  if (!RootKey.empty() && !SeenRoot)
    return fail(KindLoc, KindWord + " needs " + RootKey +
                             (Kind == CollectiveKind::Broadcast
                                  ? "=NODE"
                                  : "=NODE,NODE,..."));
  if (!SeenBytes)
    return fail(KindLoc, KindWord + " needs bytes=N");
  P.Coll = std::move(Coll);
  return true;
}

bool TextParser::checkHeaderComplete(const char *Loc, StringRef Before) {
  if (P.Source.TopologyLine == 0)
    return fail(Loc, "missing 'topology' line" + Twine(Before));
  if (P.Source.CollectiveLine == 0)
    return fail(Loc, "missing 'collective' line" + Twine(Before));
  return true;
}

bool TextParser::stepLine(Cursor &C, const char *KeywordLoc) {
  if (P.StepNumbers.empty() &&
      !checkHeaderComplete(KeywordLoc, " before the first step"))
    return false;
  C.skipSpace();
  uint64_t N;
  if (!number(C, "step number", UINT32_MAX, "does not fit in 32 bits", N))
    return false;
  if (!expectEnd(C))
    return false;
  P.StepNumbers.push_back(uint32_t(N));
  P.StepStarts.push_back(P.Transfers.size());
  P.Source.StepLines.push_back(LineNo);
  return true;
}

bool TextParser::transferLine(Cursor &C) {
  const char *Line = C.loc();
  if (P.StepNumbers.empty())
    return fail(Line, "transfer before the first 'step' line");
  Transfer T;
  NodeId Src, Dst;
  if (!node(C, Src))
    return false;
  C.skipSpace();
  bool Reduce;
  if (C.consume("->"))
    Reduce = false;
  else if (C.consume("+>"))
    Reduce = true;
  else
    return fail(C.loc(), "expected '->' or '+>' after the source node, found " +
                             C.found());
  C.skipSpace();
  if (!node(C, Dst))
    return false;
  C.skipSpace();
  if (!C.consume(":"))
    return fail(C.loc(), "expected ':' and the chunks after the destination, "
                         "found " +
                             C.found());
  C.skipSpace();
  SmallVector<ChunkRange, 4> Ranges;
  SmallVector<ChunkCube, 2> Cubes;
  bool IsPattern = C.S.substr(C.Pos).startswith("0b");
  if (IsPattern ? !chunkPatterns(C, Cubes) : !chunkList(C, Ranges))
    return false;
  // `+> ... received`: the sender's value without its own contribution.
  C.skipSpace();
  const char *FlagLoc = C.loc();
  size_t FlagPos = C.Pos;
  bool ReceivedOnly = C.word() == "received";
  if (!ReceivedOnly)
    C.Pos = FlagPos;
  else if (!Reduce)
    return fail(FlagLoc, "'received' applies to reduces only ('+>'): a copy "
                         "('->') replaces the receiver's value");
  if (!expectEnd(C))
    return false;
  ChunkSetId Chunks = IsPattern ? P.ChunkSets.internCubes(Cubes)
                                : P.ChunkSets.intern(Ranges);
  if (Chunks >= MaxChunkSets)
    return fail(Line, "too many distinct chunk sets (the limit is 2^30)");
  T.Src = Src;
  T.Dst = Dst;
  T.Chunks = Chunks;
  T.Reduce = Reduce;
  T.ReceivedOnly = ReceivedOnly;
  P.Transfers.push_back(T);
  P.StepStarts.back() = P.Transfers.size();
  P.Source.TransferLines.push_back(LineNo);
  return true;
}

bool TextParser::line(Cursor &C) {
  C.skipSpace();
  if (C.atEnd())
    return true;
  if (isDigit(C.peek()) || C.peek() == '(')
    return transferLine(C);
  const char *Loc = C.loc();
  StringRef Keyword = C.word();
  PlanSourceInfo &S = P.Source;
  if (Keyword == "schedule")
    return header(Keyword, S.ScheduleLine, Loc) && scheduleLine(C);
  if (Keyword == "topology")
    return header(Keyword, S.TopologyLine, Loc) && topologyLine(C);
  if (Keyword == "model")
    return header(Keyword, S.ModelLine, Loc) && modelLine(C);
  if (Keyword == "collective")
    return header(Keyword, S.CollectiveLine, Loc) && collectiveLine(C, Loc);
  if (Keyword == "step")
    return stepLine(C, Loc);
  return fail(Loc, "unknown keyword " + quoteSource(Keyword) +
                       " (expected schedule, topology, model, collective, "
                       "step or a transfer)");
}

Expected<Plan> TextParser::parse() {
  P.Source.File = File.str();
  StringRef Rest = Text;
  while (!Rest.empty() || LineNo == 0) {
    // Lines are short (the longest bcastc writes are chunk lists of a few
    // KB): looking further for a line's end would read the whole of a
    // multi-GB junk file before the first diagnostic.
    constexpr size_t MaxLineBytes = size_t(64) << 20;
    size_t End = Rest.substr(0, MaxLineBytes + 1).find('\n');
    if (End == StringRef::npos && Rest.size() > MaxLineBytes)
      return createStringError(
          inconvertibleErrorCode(),
          formatSourceError(Text, File, Rest.data(),
                            "line " + Twine(LineNo + 1) +
                                " is longer than 64 MiB, more than a plan's "
                                "line can be"));
    // Line numbers are stored in 32 bits: past the last one, a count that
    // wrapped would point diagnostics at the wrong lines.
    if (LineNo == MaxLines)
      return createStringError(
          inconvertibleErrorCode(),
          formatSourceError(Text, File, Rest.data(),
                            "line " + Twine(uint64_t(LineNo) + 1) +
                                " is past the last line bcastc can number (" +
                                Twine(MaxLines) + ")"));
    StringRef Line = Rest.take_front(End);
    Rest = End == StringRef::npos ? StringRef() : Rest.drop_front(End + 1);
    ++LineNo;
    Cursor C(Line.split('#').first);
    if (!line(C))
      return createStringError(inconvertibleErrorCode(), Diag);
    if (Rest.empty())
      break;
  }
  if (!checkHeaderComplete(Text.end(), ""))
    return createStringError(inconvertibleErrorCode(), Diag);
  return std::move(P);
}

Expected<Plan> parsePlanText(StringRef Text, StringRef File,
                             uint32_t MaxLines) {
  // Editors on Windows may open a UTF-8 file with a byte-order mark; it is
  // no part of the first line (nor of its columns).
  Text.consume_front("\xEF\xBB\xBF");
  return TextParser(Text, File, MaxLines).parse();
}

void printPlanText(const Plan &P, raw_ostream &OS) {
  if (!P.Name.empty())
    OS << "schedule " << P.Name << '\n';
  OS << "topology " << P.Topo.kindName() << ' ' << P.Topo.extentsStr() << '\n';
  OS << "model " << P.Model.str() << '\n';
  const Collective &Coll = P.Coll;
  OS << "collective " << collectiveKindName(Coll.Kind);
  if (Coll.Kind == CollectiveKind::Broadcast) {
    assert(Coll.Roots.size() == 1 && "a broadcast has one root");
    OS << " root=" << Coll.Roots[0];
  } else if (Coll.Kind == CollectiveKind::MultiBroadcast) {
    OS << " roots=";
    interleave(Coll.Roots, OS, ",");
  }
  OS << " bytes=" << Coll.Bytes << " chunks=" << Coll.NumChunks;
  if (Coll.ControlChunks)
    OS << " control=" << Coll.ControlChunks;
  OS << '\n';
  for (size_t S = 0; S < P.numSteps(); ++S) {
    OS << "step " << P.StepNumbers[S] << '\n';
    for (const Transfer &T : P.step(S)) {
      OS << "  " << T.Src << (T.Reduce ? " +> " : " -> ") << T.Dst << " : ";
      P.chunks(T).print(OS, Coll.NumChunks);
      if (T.ReceivedOnly)
        OS << " received";
      OS << '\n';
    }
  }
}

std::string planToText(const Plan &P) {
  std::string S;
  raw_string_ostream OS(S);
  printPlanText(P, OS);
  return OS.str();
}

} // namespace bcastc
