#!/bin/bash
#===- tests/svg/run_svg_test.sh - bcastc --emit=svg, parsed and rendered --===#
#
# run_svg_test.sh BCASTC
#
# Emits figures for plans on a row, a grid, a torus, a hypercube and a
# complete graph (a circle) (twice:
# byte-identical), parses each with xmllint (well-formed XML, root <svg>),
# and renders each with librsvg (rsvg-convert) to PNG: the render must
# succeed and be much larger than the render of an empty figure of the same
# size (the drawing is not blank). Headless Chromium is not installed here;
# librsvg is the renderer. A missing tool fails the test.
#
#===----------------------------------------------------------------------===#

set -u
BCASTC=$1
WORK=${TEST_TMPDIR:-$(mktemp -d)}
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
for tool in xmllint rsvg-convert; do
  command -v $tool >/dev/null || { echo "FAIL: $tool is not installed (libxml2-utils, librsvg2-bin)"; exit 1; }
done

MODEL_HC="ports=all switching=store-and-forward duplex=full latency=1"
check() {
  local name=$1; shift
  local out=$WORK/$name.svg
  "$BCASTC" compile "$@" --emit=svg -o "$out" >/dev/null 2>&1 || { fail "$name: bcastc"; return; }
  "$BCASTC" compile "$@" --emit=svg -o "$out.again" >/dev/null 2>&1
  cmp -s "$out" "$out.again" || fail "$name: output differs between runs"
  xmllint --noout "$out" || { fail "$name: not well-formed XML"; return; }
  [ "$(xmllint --xpath 'name(/*)' "$out")" = svg ] || fail "$name: root element is not <svg>"
  local w h
  w=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)".*/\1/p' "$out" | head -1)
  h=$(sed -n 's/.*<svg [^>]*height="\([0-9.]*\)".*/\1/p' "$out" | head -1)
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s"><rect width="%s" height="%s" fill="white"/></svg>\n' \
    "$w" "$h" "$w" "$h" >"$WORK/blank.svg"
  rsvg-convert -f png -o "$out.png" "$out" || { fail "$name: librsvg cannot render it"; return; }
  rsvg-convert -f png -o "$WORK/blank.png" "$WORK/blank.svg" || { fail "blank render"; return; }
  local drawn blank
  drawn=$(stat -c %s "$out.png")
  blank=$(stat -c %s "$WORK/blank.png")
  echo "$name: ${w}x${h} figure, PNG $drawn bytes (blank: $blank)"
  [ "$drawn" -gt $((blank * 4)) ] || fail "$name: the render looks empty"
}

check bst-linear8 --topology=linear:8 --root=3 --algorithm=bst
check bst-mesh4x4 --topology=mesh:4x4 --root=5 --algorithm=bst-mesh
check sc-torus4x4 --topology=torus:4x4 --root=6 --algorithm=sc
check hc-sbt-cube3 --topology=hypercube:3 --root=2 --algorithm=hc-sbt --model="$MODEL_HC"
check alpha-complete8 --topology=complete:8 --root=3 --algorithm=alpha-tree
echo "$FAILED failures"
[ $FAILED -eq 0 ]
