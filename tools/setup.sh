#!/usr/bin/env bash
# Installs the Debian packages bcastc needs, and only those that are missing.
# Safe to run again: it does nothing when all are present.
#
#   setup.sh --build     what building the tool needs (./bcastc)
#   setup.sh --test      that and what the test suite needs (./test.sh)
#   setup.sh --dry-run   with either: print the packages, one a line, and
#                        install nothing
#
# Without --build or --test it installs both sets (as it did before the
# split). ./bcastc asks for --build only, so the first plan on a fresh machine
# does not wait for Chromium, fonts, SimGrid and clang.
set -euo pipefail

BUILD_PACKAGES=(
  bazel-bootstrap        # Bazel 4.2.3, builds offline
  g++
  llvm-14-dev            # LLVM ADT/Support headers and libLLVM-14.so
  protobuf-compiler      # protoc
  libprotobuf-dev
  libopenmpi-dev         # mpi.h: //runtime:libbcastc_pmpi.so (tools/install.sh)
)

TEST_PACKAGES=(
  libgtest-dev           # GoogleTest
  openmpi-bin            # mpirun, for running emitted MPI code in tests
  clang-14               # fuzz/build_and_run.sh: libFuzzer targets
  libclang-rt-14-dev     # libFuzzer and sanitizer runtimes for clang-14
  libxml2-utils          # xmllint: the SVG backend's well-formedness test
  libxml2-dev            # libxml2: the MSCCL XML importer (frontends/msccl)
  librsvg2-bin           # rsvg-convert: the SVG backend's render test
  libsimgrid-dev         # smpicxx, smpirun: bench/simgrid, tests/simgrid
  chromium               # headless browser: the SVG backend's render test
  fonts-liberation       # fonts for Chromium's render of the captions
  man-db                 # man -l: tests/install renders the man page
)

want_build=0
want_test=0
dry_run=0
for arg in "$@"; do
  case "$arg" in
    --build) want_build=1 ;;
    --test) want_build=1; want_test=1 ;;
    --dry-run) dry_run=1 ;;
    *) echo "setup.sh: error: unknown option '$arg' (expected --build, --test, --dry-run)" >&2
       exit 2 ;;
  esac
done
if [ $want_build -eq 0 ]; then
  want_build=1
  want_test=1
fi

packages=("${BUILD_PACKAGES[@]}")
if [ $want_test -eq 1 ]; then
  packages+=("${TEST_PACKAGES[@]}")
fi

if [ $dry_run -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
