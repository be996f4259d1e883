//===- compiler/driver/CostTable.cpp - Zhuang-Liberatore Table 2 ----------===//

#include "compiler/driver/CostTable.h"

#include "verifier/Verifier.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace bcastc {

static llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<std::vector<CostTableRow>>
costTable(const LoweringRequest &Base) {
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
  std::vector<CostTableRow> Table;
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
      CostTableRow Out{N, Rw.Algo, Rw.D, "", 0, Rational(0), 0};
      auto P = lower(*A, R);
      if (!P) {
        // rb on 3-D tori larger than 2x2x2 does not apply: say so, go on.
        Out.NotApplicable = llvm::toString(P.takeError());
        Table.push_back(std::move(Out));
        continue;
      }
      VerificationResult V = verifyPlan(*P);
      if (!V.verified())
        return fail(P->Name + " failed verification");
      Out.Startups = V.Cost.Startups;
      Out.Transmit = V.Cost.Transmit;
      Out.Time = V.Cost.Time;
      Table.push_back(std::move(Out));
    }
  }
  return Table;
}

llvm::Error printCostTable(const LoweringRequest &Base, llvm::raw_ostream &OS) {
  auto Table = costTable(Base);
  if (!Table)
    return Table.takeError();
  const Topology &T = Base.Topo;
  OS << "# Zhuang & Liberatore Table 2 by simulation: " << T.kindName() << " "
     << T.extents().size() << "-D, 2^n per side, " << Base.Bytes
     << " bytes, Ts = b = " << formatExactDouble(Base.Model.B)
     << " us, Tc = a = " << formatExactDouble(Base.Model.A) << " us/B\n";
  OS << "# alpha = start-ups, beta = coefficient of L*Tc; time = alpha*Ts + "
        "beta*L*Tc\n";
  OS << "n  algorithm d   alpha  beta                time(us)\n";
  for (const CostTableRow &Rw : *Table) {
    std::string D = Rw.D < 0 ? "-" : std::to_string(Rw.D);
    if (!Rw.NotApplicable.empty()) {
      const char *NoD = "-";
      OS << llvm::format("%-2u %-9s %-3s ", Rw.N, Rw.Algorithm.c_str(), NoD)
         << "not applicable: " << Rw.NotApplicable << "\n";
      continue;
    }
    std::string Beta =
        Rw.Transmit.str() + " (" +
        llvm::formatv("{0:f4}", Rw.Transmit.toDouble()).str() + ")";
    OS << llvm::format("%-2u %-9s %-3s %5llu  %-18s %11.1f\n", Rw.N,
                       Rw.Algorithm.c_str(), D.c_str(),
                       (unsigned long long)Rw.Startups, Beta.c_str(), Rw.Time);
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::json::Object> costTableJson(const LoweringRequest &Base) {
  auto Table = costTable(Base);
  if (!Table)
    return Table.takeError();
  llvm::json::Array Rows;
  for (const CostTableRow &Rw : *Table) {
    llvm::json::Object O{{"n", int64_t(Rw.N)},
                         {"algorithm", Rw.Algorithm},
                         {"applicable", Rw.NotApplicable.empty()}};
    if (Rw.D >= 0)
      O["d"] = int64_t(Rw.D);
    if (!Rw.NotApplicable.empty()) {
      O["reason"] = Rw.NotApplicable;
    } else {
      O["startups"] = int64_t(Rw.Startups);
      O["transmit"] = Rw.Transmit.str();
      O["time_us"] = Rw.Time;
    }
    Rows.push_back(std::move(O));
  }
  return llvm::json::Object{
      {"kind", Base.Topo.kindName().str()},
      {"dimensions", int64_t(Base.Topo.extents().size())},
      {"bytes", int64_t(Base.Bytes)},
      {"b_us", Base.Model.B},
      {"a_us_per_byte", Base.Model.A},
      {"model", Base.Model.str()},
      {"rows", std::move(Rows)}};
}

} // namespace bcastc
