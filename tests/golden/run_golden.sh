#!/bin/bash
# run_golden.sh [--update] BCASTC DIR: runs every case of DIR/cases.txt
# ("NAME: COMMAND", COMMAND run by bash in a scratch copy of DIR/inputs with
# $BCASTC set to the tool) and compares its standard output, byte for byte,
# with DIR/expected/NAME. --update writes the outputs there instead and
# removes expected files no case names (tests/golden/update.sh).
set -u
update=0
[[ ${1:-} == --update ]] && { update=1; shift; }
BCASTC=$(readlink -f "$1") DIR=$2
export BCASTC
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -rL "$DIR/inputs/." "$scratch/"
failed=0 cases=0 names=()
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  name=${line%%:*} cmd=${line#*:}
  names+=("$name")
  cases=$((cases + 1))
  out="$scratch/.out/$name"
  mkdir -p "$scratch/.out"
  (cd "$scratch" && bash -c "$cmd") >"$out" 2>"$out.stderr"
  if ((update)); then
    cp "$out" "$DIR/expected/$name"
  elif ! cmp -s "$out" "$DIR/expected/$name"; then
    failed=$((failed + 1))
    echo "FAIL: $name:$cmd"
    diff -u "$DIR/expected/$name" "$out" | head -40
    [[ -s "$out.stderr" ]] && echo "(stderr: $(head -3 "$out.stderr"))"
  fi
done <"$DIR/cases.txt"
if ((update)); then
  for f in "$DIR"/expected/*; do
    n=$(basename "$f")
    [[ " ${names[*]} " == *" $n "* ]] || { rm -f "$f"; echo "removed $n"; }
  done
  echo "run_golden: wrote $cases expected outputs to $DIR/expected"
  exit 0
fi
for f in "$DIR"/expected/*; do
  n=$(basename "$f")
  [[ " ${names[*]} " == *" $n "* ]] ||
    { echo "FAIL: expected/$n belongs to no case"; failed=$((failed + 1)); }
done
echo "run_golden: $cases cases, $failed failed"
((failed == 0)) || echo "if the change is intended: tests/golden/update.sh"
((failed == 0))
