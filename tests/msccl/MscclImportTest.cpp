//===- tests/msccl/MscclImportTest.cpp - bcastc verify FILE.xml, by hand ---===//
//
// Small hand-written MSCCL files, each wrong in one way, against the
// importer's checks: the diagnostic names the file's line, gpu, tb and step
// and the other op involved.
//
//===----------------------------------------------------------------------===//

#include "frontends/msccl/MscclVerify.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace bcastc;

namespace {

struct Result {
  int Code;
  std::string Out, Err;
};

Result verify(const std::string &Xml, msccl::VerifyOptions O = {}) {
  Result R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Code = msccl::verifyMscclText(Xml, "t.xml", O, Out, Err);
  Out.flush();
  Err.flush();
  return R;
}

std::string step(int S, const char *Type, const char *Src, int SrcOff,
                 const char *Dst, int DstOff, int DepId = -1, int Deps = -1,
                 int HasDep = 0) {
  return "      <step s=\"" + std::to_string(S) + "\" type=\"" + Type +
         "\" srcbuf=\"" + Src + "\" srcoff=\"" + std::to_string(SrcOff) +
         "\" dstbuf=\"" + Dst + "\" dstoff=\"" + std::to_string(DstOff) +
         "\" cnt=\"1\" depid=\"" + std::to_string(DepId) + "\" deps=\"" +
         std::to_string(Deps) + "\" hasdep=\"" + std::to_string(HasDep) +
         "\"/>\n";
}

std::string algo(const char *Coll, int NGpus, int NChunks, int InPlace,
                 const std::string &Body) {
  return std::string("<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" "
                     "nchunksperloop=\"") +
         std::to_string(NChunks) + "\" ngpus=\"" + std::to_string(NGpus) +
         "\" coll=\"" + Coll + "\" inplace=\"" + std::to_string(InPlace) +
         "\" outofplace=\"" + std::to_string(1 - InPlace) +
         "\" minBytes=\"0\" maxBytes=\"1048576\">\n" + Body + "</algo>\n";
}

std::string gpu(int Id, int I, int O, int S, const std::string &Tbs) {
  return "  <gpu id=\"" + std::to_string(Id) + "\" i_chunks=\"" +
         std::to_string(I) + "\" o_chunks=\"" + std::to_string(O) +
         "\" s_chunks=\"" + std::to_string(S) + "\">\n" + Tbs + "  </gpu>\n";
}

std::string tb(int Id, int Send, int Recv, const std::string &Steps) {
  return "    <tb id=\"" + std::to_string(Id) + "\" send=\"" +
         std::to_string(Send) + "\" recv=\"" + std::to_string(Recv) +
         "\" chan=\"0\">\n" + Steps + "    </tb>\n";
}

/// Allgather on 2 gpus, out of place: each sends its chunk and receives the
/// other's; tb 1 copies its own. \p RecvFirst swaps tb 0's steps (both gpus
/// then wait for each other); \p CopyTo is where tb 1 copies to.
std::string allgather2(bool RecvFirst, int CopyTo0) {
  std::string Body;
  for (int R = 0; R < 2; ++R) {
    const int P = 1 - R;
    std::string S0 = step(0, "s", "i", 0, "o", R),
                S1 = step(1, "r", "i", 0, "o", P);
    if (RecvFirst)
      S0 = step(0, "r", "i", 0, "o", P), S1 = step(1, "s", "i", 0, "o", R);
    Body += gpu(R, 1, 2, 0,
                tb(0, P, P, S0 + S1) +
                    tb(1, -1, -1,
                       step(0, "cpy", "i", 0, "o", R == 0 ? CopyTo0 : R)));
  }
  return algo("allgather", 2, 2, 0, Body);
}

TEST(MscclImport, AllgatherVerifies) {
  Result R = verify(allgather2(false, 0));
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("t.xml: ok: MSCCL allgather 't' (Simple), 2 gpus, 1 "
                       "channels, 4 threadblocks, 6 steps, 2 transfers"),
            std::string::npos)
      << R.Out;
}

TEST(MscclImport, DeadlockPrintsTheWaitForCycle) {
  Result R = verify(allgather2(true, 0));
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:4: error: deadlock (out of place): gpu 0 tb 0 "
                       "step 0 (line 4) waits for the matching send, gpu 1 "
                       "tb 0 step 0 (line 13) waits for the matching send, "
                       "which is gpu 0 tb 0 step 0 (line 4)"),
            std::string::npos)
      << R.Err;
}

TEST(MscclImport, RaceOnAnOutputSlot) {
  // gpu 0's copy writes o[1], where its receive also writes, unordered.
  Result R = verify(allgather2(false, 1));
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("error: race (out of place) on gpu 0 o[1]: gpu 0 tb "),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("and no dependency orders them"), std::string::npos);
}

TEST(MscclImport, ADependencyOrdersTheSameSlot) {
  // The copy waits for the receive (tb 0 step 1, which signals): no race,
  // but o[1] ends with gpu 0's chunk, and o[0] is empty.
  std::string Xml = allgather2(false, 1);
  const std::string From = step(0, "cpy", "i", 0, "o", 1);
  Xml.replace(Xml.find(From), From.size(),
              step(0, "cpy", "i", 0, "o", 1, 0, 1));
  const std::string Recv = step(1, "r", "i", 0, "o", 1);
  Xml.replace(Xml.find(Recv), Recv.size(),
              step(1, "r", "i", 0, "o", 1, -1, -1, 1));
  Result R = verify(Xml);
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Err.find("race"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("t.xml:2: error: out of place: allgather on gpu 0 "
                       "ends with nothing at o[0], want chunk 0 from gpu 0"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("t.xml:8: error: out of place: allgather on gpu 0 ends "
                       "with chunk 0 from 1 gpus (first 0) at o[1], want "
                       "chunk 1 from gpu 1 (written last by the step on this "
                       "line)"),
            std::string::npos)
      << R.Err;
}

/// Allreduce on 2 gpus in place: send, then receive-reduce-copy. With
/// \p Twice, gpu 0 sends its reduced chunk again and gpu 1 reduces it in.
std::string allreduce2(bool Twice) {
  std::string Body;
  for (int R = 0; R < 2; ++R) {
    std::string Steps = step(0, "s", "i", 0, "i", 0) +
                        step(1, "rrc", "i", 0, "i", 0);
    if (Twice)
      Steps += R == 0 ? step(2, "s", "i", 0, "i", 0)
                      : step(2, "rrc", "i", 0, "i", 0);
    Body += gpu(R, 1, 0, 0, tb(0, 1 - R, 1 - R, Steps));
  }
  return algo("allreduce", 2, 1, 1, Body);
}

TEST(MscclImport, AllreduceVerifies) {
  Result R = verify(allreduce2(false));
  EXPECT_EQ(R.Code, 0) << R.Err;
}

TEST(MscclImport, ReductionCountingAGpuTwice) {
  Result R = verify(allreduce2(true));
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:13: error: in place: gpu 1 tb 0 step 2 (line "
                       "13) counts gpu 0's contribution to chunk 0 twice "
                       "(received from gpu 0 tb 0 step 2 (line 6))"),
            std::string::npos)
      << R.Err;
}

TEST(MscclImport, ReduceScatterVerifies) {
  std::string Body;
  for (int R = 0; R < 2; ++R)
    Body += gpu(R, 2, 1, 0,
                tb(0, 1 - R, 1 - R,
                   step(0, "s", "i", 1 - R, "o", 0) +
                       step(1, "rrc", "i", R, "o", 0)));
  Result R = verify(algo("reduce_scatter", 2, 2, 0, Body));
  EXPECT_EQ(R.Code, 0) << R.Err;
  // Keeping the wrong half: each gpu ends with the other's chunk, reduced.
  std::string Wrong;
  for (int R = 0; R < 2; ++R)
    Wrong += gpu(R, 2, 1, 0,
                 tb(0, 1 - R, 1 - R,
                    step(0, "s", "i", R, "o", 0) +
                        step(1, "rrc", "i", 1 - R, "o", 0)));
  R = verify(algo("reduce_scatter", 2, 2, 0, Wrong));
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:5: error: out of place: reduce_scatter on gpu 0 "
                       "ends with chunk 1 from 2 gpus (first 0) at o[0], want "
                       "chunk 0 reduced over all 2 gpus (written last by the "
                       "step on this line)"),
            std::string::npos)
      << R.Err;
}

TEST(MscclImport, BroadcastFindsItsRoot) {
  std::string Body = gpu(0, 0, 1, 0, tb(0, -1, 2, step(0, "r", "i", 0, "o", 0))) +
                     gpu(1, 0, 1, 0, tb(0, -1, 2, step(0, "r", "i", 0, "o", 0))) +
                     gpu(2, 1, 1, 0,
                         tb(0, 0, -1, step(0, "s", "i", 0, "o", 0)) +
                             tb(1, 1, -1, step(0, "s", "i", 0, "o", 0)) +
                             tb(2, -1, -1, step(0, "cpy", "i", 0, "o", 0)));
  Result R = verify(algo("broadcast", 3, 1, 0, Body));
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find(", root 2\n"), std::string::npos) << R.Out;
}

TEST(MscclImport, ExecutorLimitsWarnOrFail) {
  std::string Xml = allgather2(false, 0);
  const std::string Range = " minBytes=\"0\" maxBytes=\"1048576\"";
  Xml.erase(Xml.find(Range), Range.size());
  Result R = verify(Xml);
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Err.find("t.xml:1: warning: <algo> lacks minBytes or maxBytes: "
                       "msccl-executor-nccl refuses the file, so it is never "
                       "selected"),
            std::string::npos)
      << R.Err;
  msccl::VerifyOptions O;
  O.Executor = "azure";
  R = verify(Xml, O);
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:1: error: <algo> lacks minBytes"),
            std::string::npos);
}

TEST(MscclImport, MalformedInputExitsTwo) {
  std::string Xml = allgather2(false, 0);
  Xml.replace(Xml.find("type=\"cpy\""), 10, "type=\"copy\"");
  Result R = verify(Xml);
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("t.xml:8: error: gpu 0 tb 1 step 0: "
                       "unknown type \"copy\""),
            std::string::npos)
      << R.Err;
  R = verify("<algo name=\"x\"><gpu></algo>");
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("t.xml:1: error: not well-formed XML: "),
            std::string::npos)
      << R.Err;
}

// Hostile sizes are findings, not allocations: 2^40 chunks of output.
TEST(MscclImport, HugeBuffersAreRefused) {
  std::string Xml = allgather2(false, 0);
  Xml.replace(Xml.find("o_chunks=\"2\""), 12, "o_chunks=\"1099511627776\"");
  Result R = verify(Xml);
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:1: error: too large to simulate: "),
            std::string::npos)
      << R.Err;
  Xml.replace(Xml.find("o_chunks=\"1099511627776\""), 24,
              "o_chunks=\"99999999999999\"");
  R = verify(Xml);
  EXPECT_EQ(R.Code, 2);
  EXPECT_NE(R.Err.find("t.xml:2: error: <gpu>: o_chunks=\"99999999999999\" "
                       "is out of range"),
            std::string::npos)
      << R.Err;
}

TEST(MscclImport, DependencyCyclePrintedStepByStep) {
  std::string Body =
      gpu(0, 1, 1, 0,
          tb(0, -1, -1, step(0, "cpy", "i", 0, "o", 0, 1, 0, 1)) +
              tb(1, -1, -1, step(0, "nop", "i", 0, "o", 0, 0, 0, 1)));
  Result R = verify(algo("allgather", 1, 1, 0, Body));
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("t.xml:4: error: dependency cycle on gpu 0: tb 0 step "
                       "0 (line 4) waits for tb 1 step 0 (line 7) waits for "
                       "tb 0 step 0"),
            std::string::npos)
      << R.Err;
}

} // namespace
