# Sourced by the shell tests that run SMPI (tests/simgrid, tests/calibrate):
# what each of them needs before its first check.
#   abs PATH             PATH made absolute (arguments name runfiles)
#   enter_work_dir       cd to the test's scratch dir (TEST_TMPDIR), also
#                        TMPDIR, so smpirun's files stay in it
#   fail MESSAGE...      print FAIL: and count it in FAILED
#   require_tools T...   exit 1 unless every tool is on PATH

abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

enter_work_dir() {
  WORK=${TEST_TMPDIR:-$(mktemp -d)}
  export TMPDIR=$WORK
  cd "$WORK" || exit 1
}

FAILED=0
fail() {
  echo "FAIL: $*"
  FAILED=$((FAILED + 1))
}

require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null ||
      { echo "FAIL: $tool missing (libsimgrid-dev, tools/setup.sh)"; exit 1; }
  done
}
