//===- tests/ir/TextFormatErrorsTest.cpp - `.sched` parse diagnostics -----===//
//
// Each case is an input and the complete diagnostic it must produce:
// `file:line:col: error: message`, the source line and the caret.
//
//===----------------------------------------------------------------------===//

#include "ir/TextFormat.h"

#include "gtest/gtest.h"

#include <string>

using namespace bcastc;

namespace {

struct ErrorCase {
  const char *Input;
  const char *Diagnostic;
};

// A valid header for cases about the body.
#define HEADER                                                                 \
  "topology linear 4\ncollective broadcast root=0 bytes=8 chunks=4\n"

const ErrorCase Cases[] = {
    // Body.
    {HEADER "step 0\n  0 -> 1 : 1 received\n",
     "t.sched:4:14: error: 'received' applies to reduces only ('+>'): a copy "
     "('->') replaces the receiver's value\n"
     "  0 -> 1 : 1 received\n"
     "             ^"},
    {HEADER "step 0\n  0 +> 1 : 1 receivedx\n",
     "t.sched:4:14: error: unexpected 'receivedx' at the end of the line\n"
     "  0 +> 1 : 1 receivedx\n"
     "             ^"},
    {HEADER "step 0\n  0 +> 1 : 1 received 2\n",
     "t.sched:4:23: error: unexpected '2' at the end of the line\n"
     "  0 +> 1 : 1 received 2\n"
     "                      ^"},
    {HEADER "step 0\n  0 -> 1 : 5-3\n",
     "t.sched:4:12: error: chunk range 5-3 is reversed (write 3-5)\n"
     "  0 -> 1 : 5-3\n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 1-\n",
     "t.sched:4:14: error: expected a chunk id, found end of line\n"
     "  0 -> 1 : 1-\n"
     "             ^"},
    {HEADER "step 0\n  0 -> 1 : \n",
     "t.sched:4:12: error: expected a chunk list ('*', '0,2', '4-7' or "
     "'0bx0x1'), found end of line\n"
     "  0 -> 1 : \n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 0b\n",
     "t.sched:4:12: error: expected the bits of a chunk pattern after '0b' (0, "
     "1 or x, most significant first), found end of line\n"
     "  0 -> 1 : 0b\n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 0bx1,0b1x\n",
     "t.sched:4:12: error: chunk cubes 0bx1 and 0b1x overlap\n"
     "  0 -> 1 : 0bx1,0b1x\n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 0bx1,3\n",
     "t.sched:4:17: error: expected a chunk pattern '0b...' (patterns and "
     "ranges do not mix in one set), found '3'\n"
     "  0 -> 1 : 0bx1,3\n"
     "                ^"},
    {HEADER "step 0\n  0 -> 1 : 0b1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
     "t.sched:4:12: error: chunk pattern "
     "'0b1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' has more than 32 significant "
     "bits\n"
     "  0 -> 1 : 0b1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 0bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
     "t.sched:4:12: error: chunk cube 0bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx names "
     "all 2^32 chunk ids\n"
     "  0 -> 1 : 0bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
     "           ^"},
    {HEADER "step 0\n  0 -> 1 : 1 2\n",
     "t.sched:4:14: error: unexpected '2' at the end of the line\n"
     "  0 -> 1 : 1 2\n"
     "             ^"},
    {HEADER "step 0\n  0 -> 1 : *,2\n",
     "t.sched:4:13: error: unexpected ',2' at the end of the line\n"
     "  0 -> 1 : *,2\n"
     "            ^"},
    {HEADER "step 0\n  0 -> 1 : 4294967295\n",
     "t.sched:4:12: error: chunk id '4294967295' is too large\n"
     "  0 -> 1 : 4294967295\n"
     "           ^"},
    {HEADER "step 0\n  0 => 1 : 0\n",
     "t.sched:4:5: error: expected '->' or '+>' after the source node, found "
     "'=>'\n"
     "  0 => 1 : 0\n"
     "    ^"},
    {HEADER "step 0\n  0 -> 1 0\n",
     "t.sched:4:10: error: expected ':' and the chunks after the destination, "
     "found '0'\n"
     "  0 -> 1 0\n"
     "         ^"},
    {HEADER "step 0\n  0 -> x : 0\n",
     "t.sched:4:8: error: expected a node id or coordinates, found 'x'\n"
     "  0 -> x : 0\n"
     "       ^"},
    {HEADER "step 0\n  0 -> 4294967296 : 0\n",
     "t.sched:4:8: error: node id '4294967296' does not fit in 32 bits\n"
     "  0 -> 4294967296 : 0\n"
     "       ^"},
    {HEADER "step 0\n  (0,1) -> 1 : 0\n",
     "t.sched:4:3: error: coordinates (0,1) do not name a node of linear:4\n"
     "  (0,1) -> 1 : 0\n"
     "  ^"},
    {"topology mesh 2x3\ncollective broadcast root=0 bytes=8\nstep 0\n"
     "  (2,0) -> 1 : 0\n",
     "t.sched:4:3: error: coordinate 2 is out of range 0..1 in mesh:2x3\n"
     "  (2,0) -> 1 : 0\n"
     "  ^"},
    {"topology mesh 2x3\ncollective broadcast root=0 bytes=8\nstep 0\n"
     "  (1,0 -> 1 : 0\n",
     "t.sched:4:8: error: expected ',' or ')' in coordinates, found '->'\n"
     "  (1,0 -> 1 : 0\n"
     "       ^"},
    {"topology torus 2x2x2\ncollective broadcast root=0 bytes=8\nstep 0\n"
     "  (1,1) -> 0 : 0\n",
     "t.sched:4:3: error: coordinates (1,1) do not name a node of torus:2x2x2\n"
     "  (1,1) -> 0 : 0\n"
     "  ^"},
    {HEADER "  0 -> 1 : 0\n",
     "t.sched:3:3: error: transfer before the first 'step' line\n"
     "  0 -> 1 : 0\n"
     "  ^"},
    // Steps.
    {HEADER "stpe 1\n",
     "t.sched:3:1: error: unknown keyword 'stpe' (expected schedule, topology, "
     "model, collective, step or a transfer)\n"
     "stpe 1\n"
     "^"},
    {HEADER "step 0 1\n",
     "t.sched:3:8: error: unexpected '1' at the end of the line\n"
     "step 0 1\n"
     "       ^"},
    {HEADER "step x\n",
     "t.sched:3:6: error: expected a step number, found 'x'\n"
     "step x\n"
     "     ^"},
    {HEADER "step -1\n",
     "t.sched:3:6: error: expected a step number, found '-1'\n"
     "step -1\n"
     "     ^"},
    {HEADER "step 4294967296\n",
     "t.sched:3:6: error: step number '4294967296' does not fit in 32 bits\n"
     "step 4294967296\n"
     "     ^"},
    // Header structure.
    {"collective broadcast root=0 bytes=8\n# no topology\nstep 0\n",
     "t.sched:3:1: error: missing 'topology' line before the first step\n"
     "step 0\n"
     "^"},
    {"topology linear 4\n  step 0\n",
     "t.sched:2:3: error: missing 'collective' line before the first step\n"
     "  step 0\n"
     "  ^"},
    {"topology linear 4\nmodel latency=2\n",
     "t.sched:3:1: error: missing 'collective' line\n"
     "\n"
     "^"},
    {"",
     "t.sched:1:1: error: missing 'topology' line\n"
     "\n"
     "^"},
    {HEADER "topology ring 4\n",
     "t.sched:3:1: error: duplicate 'topology' line (first at line 1)\n"
     "topology ring 4\n"
     "^"},
    {HEADER "step 0\nmodel latency=2\n",
     "t.sched:4:1: error: 'model' line after the first step: header lines "
     "come before the steps\n"
     "model latency=2\n"
     "^"},
    {"schedule\n",
     "t.sched:1:9: error: expected a schedule name after 'schedule'\n"
     "schedule\n"
     "        ^"},
    {"schedule a b\n",
     "t.sched:1:12: error: unexpected 'b' at the end of the line\n"
     "schedule a b\n"
     "           ^"},
    // Topology.
    {"topology mesh 0x4\n",
     "t.sched:1:15: error: topology 'mesh:0x4': extent 0 in mesh: every "
     "extent must be at least 1\n"
     "topology mesh 0x4\n"
     "              ^"},
    {"topology foo 3\n",
     "t.sched:1:10: error: unknown topology kind 'foo' (expected linear, ring, "
     "mesh, torus, hypercube or complete)\n"
     "topology foo 3\n"
     "         ^"},
    {"topology mesh 4\n",
     "t.sched:1:15: error: topology 'mesh:4': a mesh has two or three "
     "extents, as in mesh:4x8\n"
     "topology mesh 4\n"
     "              ^"},
    {"topology mesh\n",
     "t.sched:1:14: error: expected the extents of the mesh topology, e.g. "
     "'topology mesh 4x8'\n"
     "topology mesh\n"
     "             ^"},
    {"topology ring 4 4\n",
     "t.sched:1:17: error: unexpected '4' at the end of the line\n"
     "topology ring 4 4\n"
     "                ^"},
    // Model.
    {"model ports=zero\n",
     "t.sched:1:7: error: bad value 'zero' for ports: expected one, all or a "
     "count\n"
     "model ports=zero\n"
     "      ^"},
    {"model latency\n",
     "t.sched:1:7: error: expected key=value or a machine preset (delta, "
     "meganode), found 'latency'\n"
     "model latency\n"
     "      ^"},
    {"model delta ports=all cray\n",
     "t.sched:1:23: error: expected key=value, found 'cray'\n"
     "model delta ports=all cray\n"
     "                      ^"},
    {"model\n",
     "t.sched:1:6: error: expected key=value words after 'model'\n"
     "model\n"
     "     ^"},
    // Collective.
    {"collective bcast root=0 bytes=8\n",
     "t.sched:1:12: error: unknown collective 'bcast' (expected broadcast, "
     "multibroadcast, allgather or allreduce)\n"
     "collective bcast root=0 bytes=8\n"
     "           ^"},
    {"collective broadcast bytes=8\n",
     "t.sched:1:12: error: broadcast needs root=NODE\n"
     "collective broadcast bytes=8\n"
     "           ^"},
    {"collective multibroadcast bytes=8\n",
     "t.sched:1:12: error: multibroadcast needs roots=NODE,NODE,...\n"
     "collective multibroadcast bytes=8\n"
     "           ^"},
    {"collective allreduce chunks=2\n",
     "t.sched:1:12: error: allreduce needs bytes=N\n"
     "collective allreduce chunks=2\n"
     "           ^"},
    {"collective broadcast root=0 bytes=-5\n",
     "t.sched:1:35: error: byte count '-5' is negative\n"
     "collective broadcast root=0 bytes=-5\n"
     "                                  ^"},
    {"collective broadcast root=0 bytes=12XB\n",
     "t.sched:1:35: error: bad byte count '12XB': expected a number with an "
     "optional suffix B, KiB, MiB, GiB, TiB, KB, MB, GB or TB\n"
     "collective broadcast root=0 bytes=12XB\n"
     "                                  ^"},
    {"collective broadcast root=0 bytes=99999999999999999999\n",
     "t.sched:1:35: error: byte count '99999999999999999999' is too large (at "
     "most 2^63-1)\n"
     "collective broadcast root=0 bytes=99999999999999999999\n"
     "                                  ^"},
    {"collective broadcast root=0 bytes=8 chunks=0\n",
     "t.sched:1:44: error: bad chunk count '0': expected a positive integer "
     "below 2^32\n"
     "collective broadcast root=0 bytes=8 chunks=0\n"
     "                                           ^"},
    {"collective broadcast root=0 bytes=8 bytes=9\n",
     "t.sched:1:37: error: duplicate parameter 'bytes'\n"
     "collective broadcast root=0 bytes=8 bytes=9\n"
     "                                    ^"},
    {"collective allgather root=0 bytes=8\n",
     "t.sched:1:22: error: unknown parameter 'root' for allgather (expected "
     "bytes or chunks)\n"
     "collective allgather root=0 bytes=8\n"
     "                     ^"},
    {"collective multibroadcast root=0 bytes=8\n",
     "t.sched:1:27: error: unknown parameter 'root' for multibroadcast "
     "(expected roots, bytes or chunks)\n"
     "collective multibroadcast root=0 bytes=8\n"
     "                          ^"},
    {"collective multibroadcast roots=0,,1 bytes=8\n",
     "t.sched:1:35: error: expected a node id or coordinates, found ',1'\n"
     "collective multibroadcast roots=0,,1 bytes=8\n"
     "                                  ^"},
    {"collective broadcast root=0,1 bytes=8\n",
     "t.sched:1:28: error: unexpected ',1' after the root\n"
     "collective broadcast root=0,1 bytes=8\n"
     "                           ^"},
    {"collective broadcast root=(0,1) bytes=8\n",
     "t.sched:1:27: error: coordinates need the 'topology' line first\n"
     "collective broadcast root=(0,1) bytes=8\n"
     "                          ^"},
    {"collective broadcast root=0 bytes=8 junk\n",
     "t.sched:1:37: error: expected key=value, found 'junk'\n"
     "collective broadcast root=0 bytes=8 junk\n"
     "                                    ^"},
    // The model's rules over its words, at the word (MachineModel::check).
    {"model latency=1/2\n",
     "t.sched:1:7: error: bad value '1/2' for latency: expected at least 1 "
     "(a message arrives no sooner than its send ends)\n"
     "model latency=1/2\n"
     "      ^"},
    {"model latency=3/2 contention=charge\n",
     "t.sched:1:19: error: contention=charge needs latency=1 (got "
     "latency=1.5): an overloaded port or link slows a whole step, and "
     "postal steps overlap\n"
     "model latency=3/2 contention=charge\n"
     "                  ^"},
    {"model contention=charge ports=2 latency=2\n",
     "t.sched:1:33: error: contention=charge needs latency=1 (got "
     "latency=2): an overloaded port or link slows a whole step, and postal "
     "steps overlap\n"
     "model contention=charge ports=2 latency=2\n"
     "                                ^"},
    {"model a=1e308\n",
     "t.sched:1:7: error: bad value '1e308' for a: expected at most 1e100 (a "
     "larger one can make a plan's cost overflow)\n"
     "model a=1e308\n"
     "      ^"},
    // Bytes a terminal would act on are spelled out, in the line and in
    // the message, and the caret counts the spelling.
    {"schedule a\x01" "b c\n",
     "t.sched:1:14: error: unexpected 'c' at the end of the line\n"
     "schedule a<U+0001>b c\n"
     "                    ^"},
    {"schedule \x1b[2J\x7f x\n",
     "t.sched:1:16: error: unexpected 'x' at the end of the line\n"
     "schedule <U+001B>[2J<U+007F> x\n"
     "                             ^"},
    {"\xff\xfe\x80 step\n",
     "t.sched:1:1: error: unknown keyword '<FF><FE><80>' (expected schedule, "
     "topology, model, collective, step or a transfer)\n"
     "<FF><FE><80> step\n"
     "^"},
    {"collective broadcast\x1b[31m root=0\n",
     "t.sched:1:12: error: unknown collective 'broadcast<U+001B>[31m' "
     "(expected broadcast, multibroadcast, allgather or allreduce)\n"
     "collective broadcast<U+001B>[31m root=0\n"
     "           ^"},
    // UTF-8 letters show as they are, one column each.
    {"schedule caf\xc3\xa9 x\n",
     "t.sched:1:16: error: unexpected 'x' at the end of the line\n"
     "schedule caf\xc3\xa9 x\n"
     "              ^"},
    // A CRLF line break is no part of the line.
    {"schedule a b\r\ntopology linear 4\r\n",
     "t.sched:1:12: error: unexpected 'b' at the end of the line\n"
     "schedule a b\n"
     "           ^"},
    // A byte-order mark is skipped: columns count from after it.
    {"\xEF\xBB\xBFstpe 1\n",
     "t.sched:1:1: error: unknown keyword 'stpe' (expected schedule, "
     "topology, model, collective, step or a transfer)\n"
     "stpe 1\n"
     "^"},
    {"\xEF\xBB\xBF\xEF\xBB\xBFschedule x\n",
     "t.sched:1:1: error: unknown keyword '<U+FEFF>schedule' (expected "
     "schedule, topology, model, collective, step or a transfer)\n"
     "<U+FEFF>schedule x\n"
     "^"},
};

TEST(TextFormatErrors, ExactDiagnostics) {
  for (const ErrorCase &C : Cases) {
    auto P = parsePlanText(C.Input, "t.sched");
    if (P) {
      ADD_FAILURE() << "parsed without error:\n" << C.Input;
      continue;
    }
    EXPECT_EQ(llvm::toString(P.takeError()), C.Diagnostic) << C.Input;
  }
}

TEST(TextFormatErrors, FileNameAndTabs) {
  // The file name is the one given. A tab counts as one column in the
  // location; SourceMgr expands it to the next multiple of 8 in the quoted
  // line, and the caret follows.
  auto P = parsePlanText(HEADER "step 0\n\t0 -> 1 : 3-2\n", "dir/plan.sched");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "dir/plan.sched:4:11: error: chunk range 3-2 is reversed (write "
            "2-3)\n"
            "        0 -> 1 : 3-2\n"
            "                 ^");
}

TEST(TextFormatErrors, LongLinesShowAWindowAroundTheColumn) {
  // The junk sits 500 blanks into a transfer line: 37 columns each side,
  // "..." at both cut ends, the caret on the junk.
  std::string Blanks(500, ' ');
  auto P = parsePlanText(HEADER "step 0\n  0 -> 1 : 1" + Blanks + "junk" +
                             Blanks + "\n",
                         "t.sched");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "t.sched:4:513: error: unexpected 'junk' at the end of the line\n"
            "..." + std::string(37, ' ') + "junk" + std::string(33, ' ') +
                "...\n" + std::string(40, ' ') + "^");

  // Near the start of the line the left side takes what it needs and the
  // right side the rest; a long quoted word keeps its two ends.
  P = parsePlanText("topology linear 4 " + std::string(1000, 'x') + "\n",
                    "t.sched");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "t.sched:1:19: error: unexpected '" + std::string(28, 'x') +
                "..." + std::string(28, 'x') +
                "' at the end of the line\n"
                "topology linear 4 " +
                std::string(56, 'x') + "...\n" + std::string(18, ' ') + "^");

  // Near the end the right side is short and the left takes the rest.
  P = parsePlanText(std::string(1000, ' ') + "stpe\n", "t.sched");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "t.sched:1:1001: error: unknown keyword 'stpe' (expected "
            "schedule, topology, model, collective, step or a transfer)\n"
            "..." + std::string(70, ' ') + "stpe\n" +
                std::string(73, ' ') + "^");

  // Spelled-out bytes count in the window's width.
  P = parsePlanText("schedule " + std::string(200, '\x01') + " x\n",
                    "t.sched");
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  std::string Quoted = Msg.substr(Msg.find('\n') + 1);
  Quoted = Quoted.substr(0, Quoted.find('\n'));
  std::string Nine;
  for (int I = 0; I < 9; ++I)
    Nine += "<U+0001>";
  EXPECT_EQ(Quoted, "..." + Nine + " x");
}

TEST(TextFormatErrors, HugeLinesGiveShortDiagnostics) {
  // A 20 MB line echoed itself and a 20 MB caret line: 40 MB on stderr.
  // Errors at its end and at its start quote about a screen's width.
  std::string Tail = "topology linear 4 " + std::string(20 << 20, 'x');
  auto P = parsePlanText(Tail, "t.sched");
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_LT(Msg.size(), 400u) << Msg.substr(0, 400);
  EXPECT_EQ(Msg.substr(0, 30), "t.sched:1:19: error: unexpecte");

  std::string Head = std::string(20 << 20, '\x02') + " x\n";
  P = parsePlanText(Head, "t.sched");
  ASSERT_FALSE(bool(P));
  Msg = llvm::toString(P.takeError());
  EXPECT_LT(Msg.size(), 700u) << Msg.substr(0, 700);
  EXPECT_EQ(Msg.substr(0, 38), "t.sched:1:1: error: unknown keyword '<");
  for (char C : Msg)
    EXPECT_TRUE(C == '\n' || (C >= 0x20 && C < 0x7f)) << int(C);
}

TEST(TextFormatErrors, LinesOverTheLimitStopTheParseAtTheirStart) {
  // A plan followed by gigabytes of NULs (a sparse file) was read to its
  // end before the first diagnostic; a line over 64 MiB now stops the parse
  // at its start, after a bounded look for its end.
  std::string Text =
      HEADER "step 0\n  0 -> 1 : 0\n" + std::string((64 << 20) + 1, '\0');
  auto P = parsePlanText(Text, "t.sched");
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_EQ(Msg.substr(0, Msg.find('\n')),
            "t.sched:5:1: error: line 5 is longer than 64 MiB, more than a "
            "plan's line can be");
  EXPECT_LT(Msg.size(), 1200u) << Msg.substr(0, 1200);
  // A line of exactly 64 MiB is read and diagnosed as usual.
  Text = HEADER "step 0\n  0 -> 1 : 0\nx " + std::string((64 << 20) - 2, 'y');
  P = parsePlanText(Text, "t.sched");
  ASSERT_FALSE(bool(P));
  Msg = llvm::toString(P.takeError());
  EXPECT_EQ(Msg.substr(0, Msg.find(" (")),
            "t.sched:5:1: error: unknown keyword 'x'");
}

TEST(TextFormatErrors, LinesPastTheNumberableAreRefusedWhereTheyStart) {
  // Line numbers are 32-bit (Plan::Source): a text of 2^32 lines or more
  // was numbered modulo 2^32. The limit is lowered here to 6 lines.
  const std::string Plan = HEADER "step 0\n  0 -> 1 : 0\n";
  ASSERT_TRUE(bool(parsePlanText(Plan, "t.sched", 6)))
      << "the plan itself has 4 lines";
  auto P = parsePlanText(Plan + "\n# 6\n# 7\n", "t.sched", 6);
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_EQ(Msg.substr(0, Msg.find('\n')),
            "t.sched:7:1: error: line 7 is past the last line bcastc can "
            "number (6)");
}

TEST(TextFormatErrors, TheFirstErrorWins) {
  auto P = parsePlanText("topology foo 1\nstpe\n", "t.sched");
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_EQ(Msg.substr(0, Msg.find(':', 8)), "t.sched:1");
}

} // namespace
