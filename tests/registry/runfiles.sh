# Sourced by the registry's sh tests, which read the source tree through a
# runfile's symlink. runfile PATH prints PATH's location in the runfiles (or
# PATH itself when run from the source tree); exits 2 naming the calling
# test when it is in neither.
runfile() {
  local p
  for p in "${TEST_SRCDIR:-}/${TEST_WORKSPACE:-__main__}/$1" \
           "${TEST_SRCDIR:-}/__main__/$1" "$1"; do
    [[ -f "$p" ]] && { echo "$p"; return; }
  done
  echo "$(basename "$0" .sh): cannot find $1 in the runfiles" >&2
  exit 2
}
