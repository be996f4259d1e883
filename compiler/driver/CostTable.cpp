//===- compiler/driver/CostTable.cpp - Zhuang-Liberatore Table 2 ----------===//

#include "compiler/driver/CostTable.h"

#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error printCostTable(const LoweringRequest &Base, llvm::raw_ostream &OS) {
  const Topology &T = Base.Topo;
  llvm::ArrayRef<uint32_t> E = T.extents();
  bool Grid = (T.kind() == TopologyKind::Mesh ||
               T.kind() == TopologyKind::Torus) &&
              (E.size() == 2 || E.size() == 3);
  unsigned MaxN = 0;
  if (Grid)
    while ((uint32_t(1) << MaxN) < E[0])
      ++MaxN;
  for (uint32_t Side : E)
    Grid &= Side == E[0] && Side == (uint32_t(1) << MaxN) && MaxN >= 1;
  if (!Grid)
    return fail("--table needs a mesh or torus 2^n x 2^n or 2^n x 2^n x "
                "2^n; got " +
                T.str());
  OS << "# Zhuang & Liberatore Table 2 by simulation: " << T.kindName() << " "
     << E.size() << "-D, 2^n per side, " << Base.Bytes << " bytes, Ts = b = "
     << formatExactDouble(Base.Model.B) << " us, Tc = a = "
     << formatExactDouble(Base.Model.A) << " us/B\n";
  OS << "# alpha = start-ups, beta = coefficient of L*Tc; time = alpha*Ts + "
        "beta*L*Tc\n";
  OS << "n  algorithm d   alpha  beta                time(us)\n";
  for (unsigned N = 1; N <= MaxN; ++N) {
    std::string Side = std::to_string(1u << N);
    std::string Spec = T.kindName().str() + ":" + Side;
    for (size_t I = 1; I < E.size(); ++I)
      Spec += "x" + Side;
    auto Topo = Topology::parse(Spec);
    if (!Topo)
      return Topo.takeError();
    struct Row {
      const char *Algo;
      int D;
      PortModel Ports;
    };
    const PortModel One = Base.Model.Ports;
    std::vector<Row> Rows{{"rd", -1, One}, {"sc", -1, One}};
    for (const char *Np : {"np-rd", "np-sc"})
      for (unsigned D = 0; D <= N; ++D)
        Rows.push_back({Np, int(D), One});
    Rows.push_back({"rb", -1, One});
    // Section 8 (all-port) prints its costs inline, not as a table; its RB
    // and baselines follow, lowered under ports=all whatever the machine
    // says.
    if (E.size() == 2) {
      Rows.push_back({"rb-allport", -1, PortModel::All});
      Rows.push_back({"d-node", -1, PortModel::All});
      for (unsigned D = 0; D <= N; ++D)
        Rows.push_back({"np-d", int(D), PortModel::All});
    }
    for (const Row &Rw : Rows) {
      const AlgorithmInfo *A = findAlgorithm(Rw.Algo);
      if (!A)
        return fail(llvm::Twine("no algorithm ") + Rw.Algo);
      LoweringRequest R = Base;
      R.Topo = *Topo;
      R.Root = Base.Root % Topo->numNodes();
      R.NpD = Rw.D;
      R.Model.Ports = Rw.Ports;
      auto P = lower(*A, R);
      if (!P) {
        // rb on 3-D tori larger than 2x2x2 does not apply: say so, go on.
        const char *NoD = "-";
        OS << llvm::format("%-2u %-9s %-3s ", N, Rw.Algo, NoD)
           << "not applicable: " << llvm::toString(P.takeError()) << "\n";
        continue;
      }
      VerificationResult V = verifyPlan(*P);
      if (!V.verified())
        return fail(P->Name + " failed verification");
      std::string D = Rw.D < 0 ? "-" : std::to_string(Rw.D);
      std::string Beta = V.Cost.Transmit.str() + " (" +
                         llvm::formatv("{0:f4}", V.Cost.Transmit.toDouble())
                             .str() +
                         ")";
      OS << llvm::format("%-2u %-9s %-3s %5llu  %-18s %11.1f\n", N, Rw.Algo,
                         D.c_str(), (unsigned long long)V.Cost.Startups,
                         Beta.c_str(), V.Cost.Time);
    }
  }
  return llvm::Error::success();
}

} // namespace bcastc
