//===- tests/msccl/MscclToPlanTest.cpp - MSCCL allreduce files as plans ----===//
//
// importMscclPlan on small allreduce files: transfers at their hop, `+>`
// where the receive reduces, and whether the IR's one value per (gpu,
// chunk) carries the file's data flow (a plain reduction at one gpu: yes;
// a receive into scratch reduced locally: no, and the data-flow pass would
// then judge another schedule, which is why the driver leaves it out).
//
//===----------------------------------------------------------------------===//

#include "frontends/msccl/MscclToPlan.h"

#include "ir/MachineModel.h"
#include "ir/Topology.h"
#include "verifier/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace bcastc;

namespace {

std::string readData(const char *Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(B)) << Path;
  return B ? (*B)->getBuffer().str() : "";
}

Topology topology(const char *Spec) {
  auto T = Topology::parse(Spec);
  EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
  return std::move(*T);
}

std::string describe(const Plan &P) {
  std::string S;
  for (size_t I = 0; I < P.numSteps(); ++I) {
    S += "step " + std::to_string(P.StepNumbers[I]) + ":";
    for (const Transfer &T : P.step(I))
      S += " " + std::to_string(T.Src) + (T.Reduce ? " +> " : " -> ") +
           std::to_string(T.Dst);
    S += ";";
  }
  return S;
}

bool hasDataFlowError(const VerificationResult &R) {
  for (const Diagnostic &D : R.Diagnostics)
    if (D.Sev == Severity::Error && !std::strcmp(D.Pass, "dataflow"))
      return true;
  return false;
}

TEST(MscclToPlan, ReductionAtOneGpuIsTheIrsDataFlow) {
  std::string Xml = readData("tests/msccl/contention/reduce_at_2_of_3.xml");
  auto MP = msccl::importMscclPlan(Xml, "r.xml", topology("complete:3"),
                                   MachineModel(), 1024);
  ASSERT_TRUE(bool(MP)) << llvm::toString(MP.takeError());
  EXPECT_EQ(MP->P.Coll.Kind, CollectiveKind::AllReduce);
  EXPECT_EQ(describe(MP->P), "step 0: 0 +> 2 1 +> 2;step 1: 2 -> 0 2 -> 1;");
  EXPECT_TRUE(MP->DataFlowInIr) << MP->WhyNot;
  // Each transfer's line is its send's, which StepAt names.
  ASSERT_EQ(MP->P.Source.TransferLines.size(), 4u);
  EXPECT_EQ(MP->P.transferLine(0), 9u);
  EXPECT_EQ(MP->StepAt.lookup(9), "gpu 0 tb 0 step 0");
  EXPECT_EQ(MP->StepAt.lookup(34), "gpu 2 tb 3 step 0");
  MachineModel AllPort;
  AllPort.Ports = PortModel::All;
  auto Q = msccl::importMscclPlan(Xml, "r.xml", topology("complete:3"),
                                  AllPort, 1024);
  ASSERT_TRUE(bool(Q));
  VerificationResult R = verifyPlan(Q->P);
  EXPECT_TRUE(R.verified());
}

// gpu 1 receives gpu 0's chunk into scratch, reduces it into its own with
// re and sends the sum back: right as MSCCL, but in the IR the receive is a
// copy that replaces gpu 1's one value.
const char *ScratchAllreduce = R"(<algo name="scratch" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="2" coll="allreduce" inplace="1" outofplace="0" minBytes="0" maxBytes="1024">
  <gpu id="0" i_chunks="1" o_chunks="0" s_chunks="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="r" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="1" i_chunks="1" o_chunks="0" s_chunks="1">
    <tb id="0" send="-1" recv="0" chan="0">
      <step s="0" type="r" srcbuf="s" srcoff="0" dstbuf="s" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1"/>
    </tb>
    <tb id="1" send="-1" recv="-1" chan="0">
      <step s="0" type="re" srcbuf="s" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="0" deps="0" hasdep="1"/>
    </tb>
    <tb id="2" send="0" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="1" deps="0" hasdep="0"/>
    </tb>
  </gpu>
</algo>
)";

TEST(MscclToPlan, ScratchIsLeftToTheSimulation) {
  MachineModel AllPort;
  AllPort.Ports = PortModel::All;
  auto MP = msccl::importMscclPlan(ScratchAllreduce, "s.xml",
                                   topology("complete:2"), AllPort, 1024);
  ASSERT_TRUE(bool(MP)) << llvm::toString(MP.takeError());
  EXPECT_EQ(describe(MP->P), "step 0: 0 -> 1;step 1: 1 -> 0;");
  EXPECT_FALSE(MP->DataFlowInIr);
  EXPECT_EQ(MP->WhyNot,
            "gpu 1 tb 2 step 0 (line 16) sends chunk 0 with the "
            "contributions of gpus {0,1}, but the IR's gpu 1 holds {0} of "
            "it then (the file keeps several values of a chunk per gpu, in "
            "buffer slots or scratch)");
  // Why the driver drops the data-flow pass for such files: it judges the
  // IR's reading (gpu 1's own contribution lost), not the file.
  VerificationResult R = verifyPlan(MP->P);
  EXPECT_TRUE(hasDataFlowError(R));
  for (const Diagnostic &D : R.Diagnostics)
    if (D.Sev == Severity::Error)
      EXPECT_STREQ(D.Pass, "dataflow") << D.Message;
}

TEST(MscclToPlan, CollectivesWithoutAnIrFormAreNamed) {
  std::string Xml = ScratchAllreduce;
  Xml.replace(Xml.find("allreduce"), 9, "alltoall");
  auto MP = msccl::importMscclPlan(Xml, "a.xml", topology("complete:2"),
                                   MachineModel(), 1024);
  ASSERT_FALSE(bool(MP));
  EXPECT_EQ(llvm::toString(MP.takeError()),
            "a.xml:1: error: coll=\"alltoall\" has no bcastc collective "
            "(broadcast, allgather and allreduce do): verify it without "
            "--topology");
}

} // namespace
