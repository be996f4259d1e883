#!/bin/bash
#===- tests/svg/run_svg_test.sh - bcastc --emit=svg, parsed and rendered --===#
#
# run_svg_test.sh BCASTC
#
# Emits figures for plans on a row, a grid, a torus (wrap routes), a 3-D
# torus, a hypercube, a complete graph (a circle), a pipelined plan's steps
# 2..5 with its tree view, and a `cost --sweep --plot` chart (twice:
# byte-identical), parses each with xmllint (well-formed XML, root <svg>),
# and renders each twice, with librsvg (rsvg-convert) and with a real
# browser (headless Chromium, Debian's chromium package), to PNG: each render
# must succeed and be much larger than the same renderer's picture of an
# empty figure of the same size (the drawing is not blank). A missing tool
# fails the test.
#
#===----------------------------------------------------------------------===#

set -u
BCASTC=$1
WORK=${TEST_TMPDIR:-$(mktemp -d)}
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
for tool in xmllint rsvg-convert chromium; do
  command -v $tool >/dev/null || { echo "FAIL: $tool is not installed (libxml2-utils, librsvg2-bin, chromium)"; exit 1; }
done

# Chromium as root needs --no-sandbox; the other flags keep it off this
# machine's closed network and away from the user's profile.
browser_shot() { # SVG PNG WIDTH HEIGHT
  HOME="$WORK" timeout 120 chromium --headless --no-sandbox --disable-gpu \
    --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$WORK/chromium-profile" --window-size="$3,$4" \
    --screenshot="$2" "file://$1" >"$WORK/chromium.log" 2>&1 && [ -s "$2" ]
}

MODEL_HC="ports=all switching=store-and-forward duplex=full latency=1"
# Bazel shards the figures (shard_count in BUILD): Chromium takes seconds
# per screenshot on a loaded machine.
SHARD=${TEST_SHARD_INDEX:-0} SHARDS=${TEST_TOTAL_SHARDS:-1} FIGURE=0
[ -n "${TEST_SHARD_STATUS_FILE:-}" ] && touch "$TEST_SHARD_STATUS_FILE"
check() {
  local name=$1; shift
  FIGURE=$((FIGURE + 1))
  [ $(((FIGURE - 1) % SHARDS)) -eq "$SHARD" ] || return 0
  local out=$WORK/$name.svg
  if [ "$1" = cost ]; then
    shift
    "$BCASTC" cost "$@" --plot="$out" >/dev/null 2>&1 || { fail "$name: bcastc"; return; }
    "$BCASTC" cost "$@" --plot="$out.again" >/dev/null 2>&1
  else
    "$BCASTC" compile "$@" --emit=svg -o "$out" >/dev/null 2>&1 || { fail "$name: bcastc"; return; }
    "$BCASTC" compile "$@" --emit=svg -o "$out.again" >/dev/null 2>&1
  fi
  cmp -s "$out" "$out.again" || fail "$name: output differs between runs"
  xmllint --noout "$out" || { fail "$name: not well-formed XML"; return; }
  [ "$(xmllint --xpath 'name(/*)' "$out")" = svg ] || fail "$name: root element is not <svg>"
  local w h
  # Sizes as printed (the sweep chart writes 7.600000e+02), rounded.
  w=$(printf '%.0f' "$(sed -n 's/.*<svg [^>]*width="\([-0-9.e+]*\)".*/\1/p' "$out" | head -1)")
  h=$(printf '%.0f' "$(sed -n 's/.*<svg [^>]*height="\([-0-9.e+]*\)".*/\1/p' "$out" | head -1)")
  # The empty figure of this size, rendered once per size and renderer.
  local b=$WORK/blank-${w}x${h}
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s"><rect width="%s" height="%s" fill="white"/></svg>\n' \
    "$w" "$h" "$w" "$h" >"$b.svg"
  rsvg-convert -f png -o "$out.png" "$out" || { fail "$name: librsvg cannot render it"; return; }
  [ -s "$b.png" ] || rsvg-convert -f png -o "$b.png" "$b.svg" || { fail "blank render"; return; }
  local drawn blank
  drawn=$(stat -c %s "$out.png")
  blank=$(stat -c %s "$b.png")
  echo "$name: ${w}x${h} figure, librsvg PNG $drawn bytes (blank: $blank)"
  [ "$drawn" -gt $((blank * 4)) ] || fail "$name: the librsvg render looks empty"

  local cw=$w ch=$h
  browser_shot "$out" "$out.chromium.png" $((cw + 1)) $((ch + 1)) ||
    { fail "$name: Chromium cannot render it"; tail -5 "$WORK/chromium.log"; return; }
  [ -s "$b.chromium.png" ] || browser_shot "$b.svg" "$b.chromium.png" $((cw + 1)) $((ch + 1)) ||
    { fail "blank Chromium render"; return; }
  drawn=$(stat -c %s "$out.chromium.png")
  blank=$(stat -c %s "$b.chromium.png")
  echo "$name: Chromium screenshot $drawn bytes (blank: $blank)"
  [ "$drawn" -gt $((blank * 4)) ] || fail "$name: the Chromium render looks empty"
}

check bst-linear8 --topology=linear:8 --root=3 --algorithm=bst
check bst-mesh4x4 --topology=mesh:4x4 --root=5 --algorithm=bst-mesh
check sc-torus4x4 --topology=torus:4x4 --root=6 --algorithm=sc
check hc-sbt-cube3 --topology=hypercube:3 --root=2 --algorithm=hc-sbt --model="$MODEL_HC"
check alpha-complete8 --topology=complete:8 --root=3 --algorithm=alpha-tree
check two-tree-torus3x4x3 --topology=torus:3x4x3 --root=5 --algorithm=two-tree --steps=0..7
check pipelined-linear16 --topology=linear:16 --algorithm=pipelined-binary --steps=2..5
check sweep-linear16 cost --topology=linear:16 --sweep=8B..64KiB
if [ -e "$WORK/pipelined-linear16.svg" ]; then
  [ "$(grep -c 'class="panel"' "$WORK/pipelined-linear16.svg")" = 4 ] || fail "--steps=2..5: not 4 panels"
  [ "$(grep -c 'class="tree"' "$WORK/pipelined-linear16.svg")" = 1 ] || fail "pipelined-binary: not one tree panel"
fi
if [ -e "$WORK/sweep-linear16.svg" ]; then
  grep -q 'class="marker"' "$WORK/sweep-linear16.svg" || fail "sweep chart: no markers"
fi

# A bad --steps is a usage error naming it, with no output file.
refused() { # WANT-SUBSTRING ARGS...
  local want=$1; shift
  rm -f "$WORK/refused.svg"
  "$BCASTC" compile "$@" -o "$WORK/refused.svg" >/dev/null 2>"$WORK/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$*: exit $rc, expected 2"
  grep -qF "bcastc: error: $want" "$WORK/err" || { fail "$*: message"; cat "$WORK/err"; }
  [ ! -e "$WORK/refused.svg" ] || fail "$*: left an output file"
}
refused "svg: --steps=9..2: the first step 9 is after the last 2" --topology=linear:16 --algorithm=pipelined-binary --emit=svg --steps=9..2
refused "svg: --steps=x: expected A..B or A" --topology=linear:16 --algorithm=pipelined-binary --emit=svg --steps=x
refused "--steps picks the steps of a figure; it needs --emit=svg, not --emit=text" --topology=linear:16 --algorithm=pipelined-binary --steps=0..1
refused "svg: complete:33: the figure draws complete graphs of at most 32 nodes" --topology=complete:33 --algorithm=two-tree --emit=svg
# verify draws a plan file's steps too, and refuses --steps without -o.
"$BCASTC" compile --topology=linear:16 --algorithm=pipelined-binary -o "$WORK/p.sched" >/dev/null 2>&1 ||
  fail "compile p.sched"
"$BCASTC" verify "$WORK/p.sched" --emit=svg --steps=0..1 -o "$WORK/p.svg" >/dev/null 2>&1 ||
  fail "verify --emit=svg --steps=0..1"
[ "$(grep -c 'class="panel"' "$WORK/p.svg" 2>/dev/null)" = 2 ] || fail "verify --steps=0..1: not 2 panels"
"$BCASTC" verify "$WORK/p.sched" --steps=0..1 >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -qF "bcastc: error: verify --steps emits nothing without -o FILE" "$WORK/err" ||
  { fail "verify --steps without -o"; cat "$WORK/err"; }
echo "$FAILED failures"
[ $FAILED -eq 0 ]
