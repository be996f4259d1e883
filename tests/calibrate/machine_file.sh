#===- tests/calibrate/machine_file.sh - Reading calibrate's machine file --===#
#
# Sourced by the calibrate tests. `machine_file FILE` checks the file the
# program wrote, stricter than MachineModel::parseWords (the tests also hand
# the file to `bcastc compile --machine`): every line a `# ...` comment
# but one, `a=X b=X hop=X o=X g=X nic=X ports=one|all|K contention=share
# timing=ranks` in that order with X a finite number >= 0, a > 0. It sets
# M_a, M_b, M_hop, M_o, M_g, M_nic, M_ports, M_contention and M_timing, and
# returns 1 with a message if the file is not so.
# `within X WANT PCT` is true when |X - WANT| <= PCT % of WANT.
#
#===----------------------------------------------------------------------===#

machine_file() {
  local f=$1 words
  [ -s "$f" ] || { echo "no machine file $f"; return 1; }
  if grep -vq '^#' <(grep -v '^a=' "$f"); then
    echo "$f: a line is neither a comment nor the words: $(grep -v '^#' "$f" | grep -v '^a=' | head -1)"
    return 1
  fi
  [ "$(grep -c '^a=' "$f")" = 1 ] || { echo "$f: expected one line of words"; return 1; }
  words=$(grep '^a=' "$f")
  local num='([0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)'
  if ! grep -Eq "^a=$num b=$num hop=$num o=$num g=$num nic=$num ports=(one|all|[0-9]+) contention=share timing=ranks\$" <<<"$words"; then
    echo "$f: bad words: $words"
    return 1
  fi
  for w in $words; do
    eval "M_${w%%=*}=${w#*=}"
  done
  awk -v a="$M_a" 'BEGIN { exit !(a > 0) }' || { echo "$f: a=$M_a is not > 0"; return 1; }
}

within() {
  awk -v x="$1" -v w="$2" -v p="$3" 'BEGIN { d = x - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'
}
