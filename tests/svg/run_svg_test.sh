#!/bin/bash
#===- tests/svg/run_svg_test.sh - bcastc --emit=svg, parsed and rendered --===#
#
# run_svg_test.sh BCASTC
#
# Emits figures for plans on a row, a grid, a torus, a hypercube and a
# complete graph (a circle) (twice:
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
  echo "$name: ${w}x${h} figure, librsvg PNG $drawn bytes (blank: $blank)"
  [ "$drawn" -gt $((blank * 4)) ] || fail "$name: the librsvg render looks empty"

  local cw=${w%.*} ch=${h%.*}
  browser_shot "$out" "$out.chromium.png" $((cw + 1)) $((ch + 1)) ||
    { fail "$name: Chromium cannot render it"; tail -5 "$WORK/chromium.log"; return; }
  browser_shot "$WORK/blank.svg" "$WORK/blank.chromium.png" $((cw + 1)) $((ch + 1)) ||
    { fail "blank Chromium render"; return; }
  drawn=$(stat -c %s "$out.chromium.png")
  blank=$(stat -c %s "$WORK/blank.chromium.png")
  echo "$name: Chromium screenshot $drawn bytes (blank: $blank)"
  [ "$drawn" -gt $((blank * 4)) ] || fail "$name: the Chromium render looks empty"
}

check bst-linear8 --topology=linear:8 --root=3 --algorithm=bst
check bst-mesh4x4 --topology=mesh:4x4 --root=5 --algorithm=bst-mesh
check sc-torus4x4 --topology=torus:4x4 --root=6 --algorithm=sc
check hc-sbt-cube3 --topology=hypercube:3 --root=2 --algorithm=hc-sbt --model="$MODEL_HC"
check alpha-complete8 --topology=complete:8 --root=3 --algorithm=alpha-tree
echo "$FAILED failures"
[ $FAILED -eq 0 ]
