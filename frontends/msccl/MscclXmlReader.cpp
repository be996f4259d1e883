//===- frontends/msccl/MscclXmlReader.cpp - Reads MSCCL algorithm XML -----===//

#include "frontends/msccl/MscclXmlReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cstring>
#include <memory>

namespace bcastc {
namespace msccl {

const char *opName(OpType T) {
  static const char *Names[] = {"s",    "r",   "rcs", "rrs", "rrc",
                                "rrcs", "cpy", "re",  "nop"};
  return Names[unsigned(T)];
}

char bufName(BufKind B) {
  return B == BufKind::I ? 'i' : B == BufKind::O ? 'o' : 's';
}

namespace {

llvm::Error fail(llvm::StringRef File, unsigned Line, const llvm::Twine &Msg) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      (File + ":" + llvm::Twine(Line) + ": error: " + Msg).str());
}

/// One element's attributes, read straight off libxml2's tree (a value
/// without entities is a single text node).
class Element {
public:
  Element(xmlNode *N, llvm::StringRef File)
      : N(N), File(File), Line(unsigned(xmlGetLineNo(N))) {}
  unsigned line() const { return Line; }
  llvm::StringRef name() const {
    return reinterpret_cast<const char *>(N->name);
  }
  llvm::Optional<llvm::StringRef> find(const char *Key) const {
    for (xmlAttr *A = N->properties; A; A = A->next)
      if (!std::strcmp(reinterpret_cast<const char *>(A->name), Key))
        return llvm::StringRef(
            A->children && A->children->content
                ? reinterpret_cast<const char *>(A->children->content)
                : "");
    return llvm::None;
  }
  llvm::Expected<llvm::StringRef> str(const char *Key) const {
    if (auto V = find(Key))
      return *V;
    return fail(File, Line, "<" + name() + "> lacks attribute " + Key);
  }
  llvm::Error num(const char *Key, int64_t &Out) const {
    auto S = str(Key);
    if (!S)
      return S.takeError();
    if (S->trim().getAsInteger(10, Out))
      return fail(File, Line, "<" + name() + ">: " + Key + "=\"" + *S +
                                  "\" is not an integer");
    // Far beyond any executor's buffers; keeps offset + cnt from overflowing.
    if (Out > (int64_t(1) << 40) || Out < -(int64_t(1) << 40))
      return fail(File, Line, "<" + name() + ">: " + Key + "=\"" + *S +
                                  "\" is out of range");
    return llvm::Error::success();
  }
  llvm::Error flag(const char *Key, bool &Out) const {
    int64_t V;
    if (llvm::Error E = num(Key, V))
      return E;
    if (V != 0 && V != 1)
      return fail(File, Line, "<" + name() + ">: " + Key + "=\"" +
                                  llvm::Twine(V) + "\" is not 0 or 1");
    Out = V == 1;
    return llvm::Error::success();
  }

private:
  xmlNode *N;
  llvm::StringRef File;
  unsigned Line;
};

class Reader {
public:
  explicit Reader(llvm::StringRef File) : File(File) {}
  llvm::Expected<Algo> read(xmlNode *Root);

private:
  llvm::StringRef File;
  Algo A;

  /// The element children of \p N, each required to be named \p Want.
  llvm::Error children(xmlNode *N, const char *Want,
                       std::vector<xmlNode *> &Out);
  llvm::Error readAlgo(const Element &E);
  llvm::Error readGpu(xmlNode *N);
  llvm::Error readTb(xmlNode *N, Gpu &G);
  llvm::Error readStep(xmlNode *N, Gpu &G, Threadblock &B);
};

llvm::Error Reader::children(xmlNode *N, const char *Want,
                             std::vector<xmlNode *> &Out) {
  for (xmlNode *C = N->children; C; C = C->next) {
    if (C->type != XML_ELEMENT_NODE)
      continue;
    ++A.Elements;
    Element E(C, File);
    if (E.name() != Want)
      return fail(File, E.line(),
                  "<" + E.name() + "> inside <" +
                      reinterpret_cast<const char *>(N->name) +
                      ">, expected <" + Want + ">");
    Out.push_back(C);
  }
  return llvm::Error::success();
}

llvm::Error Reader::readAlgo(const Element &E) {
  A.Line = E.line();
  auto Name = E.str("name"), Proto = E.str("proto"), Coll = E.str("coll");
  for (auto *S : {&Name, &Proto, &Coll})
    if (!*S)
      return S->takeError();
  A.Name = Name->str();
  A.Proto = Proto->str();
  A.Coll = Coll->str();
  if (llvm::Error Err = E.num("nchannels", A.NChannels))
    return Err;
  if (llvm::Error Err = E.num("nchunksperloop", A.NChunksPerLoop))
    return Err;
  if (llvm::Error Err = E.num("ngpus", A.NGpus))
    return Err;
  if (llvm::Error Err = E.flag("inplace", A.InPlace))
    return Err;
  // msccl-tools' older files say only inplace: out of place is the rest.
  A.HasOutOfPlace = E.find("outofplace").hasValue();
  A.OutOfPlace = !A.InPlace;
  if (A.HasOutOfPlace)
    if (llvm::Error Err = E.flag("outofplace", A.OutOfPlace))
      return Err;
  A.HasMinBytes = E.find("minBytes").hasValue();
  A.HasMaxBytes = E.find("maxBytes").hasValue();
  if (A.HasMinBytes)
    if (llvm::Error Err = E.num("minBytes", A.MinBytes))
      return Err;
  if (A.HasMaxBytes)
    if (llvm::Error Err = E.num("maxBytes", A.MaxBytes))
      return Err;
  return llvm::Error::success();
}

llvm::Error Reader::readGpu(xmlNode *N) {
  Element E(N, File);
  Gpu G;
  G.Line = E.line();
  if (llvm::Error Err = E.num("id", G.Id))
    return Err;
  if (G.Id != int64_t(A.Gpus.size()))
    return fail(File, G.Line,
                "<gpu id=\"" + llvm::Twine(G.Id) + "\">: expected id " +
                    llvm::Twine(A.Gpus.size()) + " (ids are 0, 1, ... in order)");
  for (auto [Key, Var] : {std::pair<const char *, int64_t *>{"i_chunks", &G.IChunks},
                          {"o_chunks", &G.OChunks},
                          {"s_chunks", &G.SChunks}}) {
    if (llvm::Error Err = E.num(Key, *Var))
      return Err;
    if (*Var < 0)
      return fail(File, G.Line, "<gpu>: " + llvm::Twine(Key) + "=\"" +
                                    llvm::Twine(*Var) + "\" is negative");
  }
  std::vector<xmlNode *> Tbs;
  if (llvm::Error Err = children(N, "tb", Tbs))
    return Err;
  for (xmlNode *T : Tbs)
    if (llvm::Error Err = readTb(T, G))
      return Err;
  A.Gpus.push_back(std::move(G));
  return llvm::Error::success();
}

llvm::Error Reader::readTb(xmlNode *N, Gpu &G) {
  Element E(N, File);
  Threadblock B;
  B.Line = E.line();
  for (auto [Key, Var] : {std::pair<const char *, int64_t *>{"id", &B.Id},
                          {"send", &B.Send},
                          {"recv", &B.Recv},
                          {"chan", &B.Chan}})
    if (llvm::Error Err = E.num(Key, *Var))
      return Err;
  if (B.Id != int64_t(G.Tbs.size()))
    return fail(File, B.Line,
                "gpu " + llvm::Twine(G.Id) + ": <tb id=\"" + llvm::Twine(B.Id) +
                    "\">: expected id " + llvm::Twine(G.Tbs.size()) +
                    " (ids are 0, 1, ... in order)");
  std::vector<xmlNode *> Steps;
  if (llvm::Error Err = children(N, "step", Steps))
    return Err;
  B.Steps.reserve(Steps.size());
  for (xmlNode *S : Steps)
    if (llvm::Error Err = readStep(S, G, B))
      return Err;
  G.Tbs.push_back(std::move(B));
  return llvm::Error::success();
}

llvm::Error Reader::readStep(xmlNode *N, Gpu &G, Threadblock &B) {
  Element E(N, File);
  Step S;
  S.Line = E.line();
  for (auto [Key, Var] : {std::pair<const char *, int64_t *>{"s", &S.S},
                          {"srcoff", &S.SrcOff},
                          {"dstoff", &S.DstOff},
                          {"cnt", &S.Cnt},
                          {"depid", &S.DepId},
                          {"deps", &S.Deps}})
    if (llvm::Error Err = E.num(Key, *Var))
      return Err;
  if (llvm::Error Err = E.flag("hasdep", S.HasDep))
    return Err;
  const std::string Where = "gpu " + std::to_string(G.Id) + " tb " +
                            std::to_string(B.Id) + " step " +
                            std::to_string(S.S);
  if (S.S != int64_t(B.Steps.size()))
    return fail(File, S.Line, Where + ": expected s=\"" +
                                  llvm::Twine(B.Steps.size()) +
                                  "\" (steps are 0, 1, ... in order)");
  auto Type = E.str("type");
  if (!Type)
    return Type.takeError();
  auto T = llvm::StringSwitch<llvm::Optional<OpType>>(*Type)
               .Case("s", OpType::S)
               .Case("r", OpType::R)
               .Case("rcs", OpType::Rcs)
               .Case("rrs", OpType::Rrs)
               .Case("rrc", OpType::Rrc)
               .Case("rrcs", OpType::Rrcs)
               .Case("cpy", OpType::Cpy)
               .Case("re", OpType::Re)
               .Case("nop", OpType::Nop)
               .Default(llvm::None);
  if (!T)
    return fail(File, S.Line, Where + ": unknown type \"" + *Type +
                                  "\" (expected s, r, rcs, rrs, rrc, rrcs, "
                                  "cpy, re or nop)");
  S.Type = *T;
  for (auto [Key, Var] : {std::pair<const char *, BufKind *>{"srcbuf", &S.SrcBuf},
                          {"dstbuf", &S.DstBuf}}) {
    auto V = E.str(Key);
    if (!V)
      return V.takeError();
    if (*V != "i" && *V != "o" && *V != "s")
      return fail(File, S.Line, Where + ": " + Key + "=\"" + *V +
                                    "\" is not i, o or s");
    *Var = (*V)[0] == 'i' ? BufKind::I : (*V)[0] == 'o' ? BufKind::O : BufKind::S;
  }
  B.Steps.push_back(S);
  return llvm::Error::success();
}

llvm::Expected<Algo> Reader::read(xmlNode *Root) {
  Element E(Root, File);
  A.Elements = 1;
  if (E.name() != "algo")
    return fail(File, E.line(), "the root element is <" + E.name() +
                                    ">, expected <algo>");
  if (llvm::Error Err = readAlgo(E))
    return std::move(Err);
  std::vector<xmlNode *> Gpus;
  if (llvm::Error Err = children(Root, "gpu", Gpus))
    return std::move(Err);
  A.Gpus.reserve(Gpus.size());
  for (xmlNode *G : Gpus)
    if (llvm::Error Err = readGpu(G))
      return std::move(Err);
  return std::move(A);
}

struct DocDeleter {
  void operator()(xmlDoc *D) const { xmlFreeDoc(D); }
};
struct CtxtDeleter {
  void operator()(xmlParserCtxt *C) const { xmlFreeParserCtxt(C); }
};

} // namespace

llvm::Expected<Algo> readMscclXml(llvm::StringRef Text, llvm::StringRef File) {
  if (Text.size() > size_t(INT32_MAX))
    return fail(File, 1, "the file is larger than 2 GiB");
  std::unique_ptr<xmlParserCtxt, CtxtDeleter> Ctxt(xmlNewParserCtxt());
  if (!Ctxt)
    return fail(File, 1, "out of memory starting the XML parser");
  // No network, no entity expansion (the default), no messages on stderr:
  // the first error is returned instead; big lines keep xmlGetLineNo exact
  // past line 65,535.
  std::unique_ptr<xmlDoc, DocDeleter> Doc(xmlCtxtReadMemory(
      Ctxt.get(), Text.data(), int(Text.size()), nullptr, nullptr,
      XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR |
          XML_PARSE_NOWARNING));
  if (!Doc || !Ctxt->wellFormed) {
    xmlError *Err = xmlCtxtGetLastError(Ctxt.get());
    std::string Msg = Err && Err->message ? Err->message : "not well-formed";
    while (!Msg.empty() && (Msg.back() == '\n' || Msg.back() == ' '))
      Msg.pop_back();
    return fail(File, Err && Err->line > 0 ? unsigned(Err->line) : 1,
                "not well-formed XML: " + Msg);
  }
  xmlNode *Root = xmlDocGetRootElement(Doc.get());
  if (!Root)
    return fail(File, 1, "no <algo> element");
  auto A = Reader(File).read(Root);
  if (A)
    A->XmlDeclaration = Text.ltrim().startswith("<?xml");
  return A;
}

} // namespace msccl
} // namespace bcastc
