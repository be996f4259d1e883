#!/bin/bash
# The README's layout table matches the tree (issue 27): every top-level
# folder the repository tracks and every lowering family folder is named in
# the table, and every folder the table names exists. Reads the source tree
# the README's runfile points to, like catalogue_test (tagged external).
set -u

# runfile(): tests/registry/runfiles.sh.
source "$(dirname "${BASH_SOURCE[0]}")/runfiles.sh"

README=$(runfile README.md)
ROOT=${README_ROOT:-$(dirname "$(readlink -f "$README")")}
if [[ ! -d "$ROOT/compiler/lowering" ]]; then
  echo "readme_layout_test: no source tree at '$ROOT'" >&2
  exit 2
fi

# The table's rows: lines starting "| `folder/`".
table=$(grep -oE '^\| `[a-z_<>/]+/`' "$ROOT/README.md" | sed -E 's/^\| `//; s/`$//')
failures=0
for dir in "$ROOT"/*/; do
  name=$(basename "$dir")
  case "$name" in bazel-*) continue ;; esac
  if ! grep -q "^$name/" <<<"$table"; then
    echo "FAIL: top-level folder '$name/' is not in README.md's layout table"
    failures=$((failures + 1))
  fi
done
while read -r row; do
  [[ -z "$row" || "$row" == *"<"* ]] && continue
  if [[ ! -d "$ROOT/$row" ]]; then
    echo "FAIL: README.md's layout table names '$row', which does not exist"
    failures=$((failures + 1))
  fi
done <<<"$table"
# The family row lists every folder under compiler/lowering/ but common/.
families=$(grep -E '^\| `compiler/lowering/<family>/`' "$ROOT/README.md")
for dir in "$ROOT"/compiler/lowering/*/; do
  name=$(basename "$dir")
  [[ "$name" == common ]] && continue
  if [[ "$families" != *"\`$name\`"* ]]; then
    echo "FAIL: lowering family '$name' is not in README.md's family row"
    failures=$((failures + 1))
  fi
done
[[ $(wc -l <<<"$table") -ge 10 ]] || { echo "FAIL: the layout table was not found"; failures=$((failures + 1)); }
[[ $failures -eq 0 ]] || exit 1
echo "README.md's layout table matches the tree"
