#!/usr/bin/env bash
# Installs the Debian packages bcastc builds and tests with, and only those
# that are missing. Safe to run again: it does nothing when all are present.
set -euo pipefail

PACKAGES=(
  bazel-bootstrap        # Bazel 4.2.3, builds offline
  g++
  llvm-14-dev            # LLVM ADT/Support headers and libLLVM-14.so
  libgtest-dev           # GoogleTest
  protobuf-compiler      # protoc
  libprotobuf-dev
  openmpi-bin            # mpirun, for running emitted MPI code in tests
  libopenmpi-dev         # mpicxx
  clang-14               # fuzz/build_and_run.sh: libFuzzer targets
  libclang-rt-14-dev     # libFuzzer and sanitizer runtimes for clang-14
  libxml2-utils          # xmllint: the SVG backend's well-formedness test
  libxml2-dev            # libxml2: the MSCCL XML importer (frontends/msccl)
  librsvg2-bin           # rsvg-convert: the SVG backend's render test
  libsimgrid-dev         # smpicxx, smpirun: bench/simgrid, tests/simgrid
  chromium               # headless browser: the SVG backend's render test
  fonts-liberation       # fonts for Chromium's render of the captions
)

missing=()
for p in "${PACKAGES[@]}"; do
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
