//===- tests/svg/SvgPlans.h - Plans to draw, and drawing them -*- C++ -*-===//

#ifndef BCASTC_TESTS_SVG_SVGPLANS_H
#define BCASTC_TESTS_SVG_SVGPLANS_H

#include "backends/svg/SvgEmitter.h"
#include "compiler/driver/Driver.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace svgtest {

/// The hypercube model hc-sbt needs (all ports, store-and-forward).
inline const char *const HypercubeModel =
    "ports=all switching=store-and-forward duplex=full latency=1";

inline bcastc::Plan lower(llvm::StringRef Topo, llvm::StringRef Algo,
                          bcastc::NodeId Root, llvm::StringRef Model = "") {
  using namespace bcastc;
  LoweringRequest R;
  auto T = Topology::parse(Topo);
  EXPECT_TRUE(bool(T));
  R.Topo = *T;
  R.Root = Root;
  R.Bytes = 1 << 16;
  if (!Model.empty()) {
    MachineOptions MO;
    MO.Overrides = Model.str();
    auto M = buildMachineModel(MO);
    EXPECT_TRUE(bool(M));
    R.Model = *M;
  }
  auto C = compile(R, Algo);
  EXPECT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->Result.verified());
  return std::move(*C->LoweredPlan);
}

/// The figure, or the error's message prefixed `error: `.
inline std::string emit(const bcastc::Plan &P, llvm::StringRef Steps = "") {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  bcastc::EmitOptions O;
  O.SvgSteps = Steps.str();
  if (llvm::Error E = bcastc::emitSvg(P, O, OS))
    return "error: " + llvm::toString(std::move(E));
  return OS.str();
}

} // namespace svgtest

#endif // BCASTC_TESTS_SVG_SVGPLANS_H
