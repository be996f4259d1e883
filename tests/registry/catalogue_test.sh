#!/bin/bash
# docs/ALGORITHMS.md is the catalogue the code cites. Fails when
#  - a name of compiler/Algorithms.def, or its header's file name, is missing
#    from the catalogue;
#  - a comment cites a row ("docs/ALGORITHMS.md, row X", "rows X, Y and Z",
#    "rows X1-X4") the catalogue has no table row for;
#  - a comment still cites a catalogue outside the repository ("catalog row",
#    a bare "ALGORITHMS.md").
# The registry and the citations are read in the source tree the catalogue's
# runfile points to (the test is tagged external: it is never cached).
set -u

# runfile(): tests/registry/runfiles.sh.
source "$(dirname "${BASH_SOURCE[0]}")/runfiles.sh"

DOC=$(runfile docs/ALGORITHMS.md)
ROOT=${CATALOGUE_ROOT:-$(dirname "$(dirname "$(readlink -f "$DOC")")")}
DEF=$ROOT/compiler/Algorithms.def
if [[ ! -f "$DEF" || ! -d "$ROOT/tests" ]]; then
  echo "catalogue_test: no source tree at '$ROOT'" >&2
  exit 2
fi

FAIL=0
fail() { echo "FAIL: $*"; FAIL=1; }

# Row ids: the first cell of every table row, e.g. "| S3c |".
ROWS=$(sed -n 's/^| \([A-Z][0-9][0-9]*[a-z]\?\) |.*/\1/p' "$DOC" | sort -u)
[[ $(echo "$ROWS" | wc -w) -ge 40 ]] ||
  fail "$DOC has $(echo "$ROWS" | wc -w) row ids; expected the full catalogue"
for Id in $(echo "$ROWS" | uniq -d); do fail "row $Id defined twice"; done

# Every registry name, as `name`, and its header's file name.
NAMES=0
while read -r Header Name; do
  NAMES=$((NAMES + 1))
  grep -qF "\`$Name\`" "$DOC" ||
    fail "algorithm \`$Name\` (compiler/Algorithms.def) is not in $DOC"
  grep -qF "$(basename "$Header")" "$DOC" ||
    fail "header $Header of \`$Name\` is not in $DOC"
done < <(perl -0777 -ne \
  'print "$1 $2\n" while /^ALGORITHM\(\s*"([^"]+)",\s*"([^"]+)"/mg' "$DEF")
[[ $NAMES -ge 40 ]] || fail "read only $NAMES rows from $DEF"

# Every cited row. Comment lines are joined first, so a list may wrap.
FILES=$(grep -rlI --exclude-dir=.git --exclude-dir='bazel-*' \
  -e 'docs/ALGORITHMS\.md' "$ROOT" | grep -v '/docs/ALGORITHMS\.md$')
CITED=0
for F in $FILES; do
  while read -r Id; do
    CITED=$((CITED + 1))
    echo "$ROWS" | grep -qx "$Id" ||
      fail "${F#"$ROOT"/} cites row $Id, which $DOC does not have"
  done < <(perl -0777 -ne '
    s/\n[ \t]*(\/\/+|#)[ \t]*/ /g;
    my $id = qr/[A-Z][0-9]+[a-z]?/;
    while (/docs\/ALGORITHMS\.md, rows? ($id(?:(?:, | and |, and |-)$id)*)/g) {
      my $list = $1;
      while ($list =~ /($id)(?:-($id))?/g) {
        my ($a, $b) = ($1, $2);
        if (defined $b) {
          my ($l, $x) = $a =~ /^([A-Z])([0-9]+)$/;
          my ($m, $y) = $b =~ /^([A-Z])([0-9]+)$/;
          die "bad range $a-$b\n" unless defined $y && $l eq $m && $x < $y;
          print "$l$_\n" for $x .. $y;
        } else { print "$a\n"; }
      }
    }' "$F")
done
[[ $CITED -ge 40 ]] || fail "found only $CITED cited rows under $ROOT"

# Nothing cites a catalogue outside the repository any more.
while read -r Hit; do
  fail "cites a catalogue outside the repository: ${Hit#"$ROOT"/}"
done < <(grep -rnI --exclude-dir=.git --exclude-dir='bazel-*' \
  --exclude=catalogue_test.sh -e '[Cc]atalog rows\? [A-Z][0-9]' \
  -e '[Cc]atalog [A-Z][0-9][0-9]*[a-z]\? ' \
  -e '\(^\|[^/:"]\)ALGORITHMS\.md' "$ROOT" |
  grep -v "^$ROOT/docs/ALGORITHMS\.md:")

if [[ $FAIL -ne 0 ]]; then exit 1; fi
echo "catalogue: $(echo "$ROWS" | wc -w) rows, $NAMES algorithms," \
  "$CITED citations in $(echo "$FILES" | wc -w) files, all found"
