#!/usr/bin/env bash
# Installs bcastc under a prefix, so that using it needs no Bazel:
#
#   bazel run --config=release //:install -- --prefix=$HOME/.local
#
#   PREFIX/bin/bcastc                         the tool
#   PREFIX/lib/libbcastc_pmpi.so              drop-in MPI_Bcast (LD_PRELOAD)
#   PREFIX/include/bcastc/bcastc_broadcast.h  the prototype of the function
#                                             `--emit=mpi-cpp` writes under
#                                             its default name
#   PREFIX/share/man/man1/bcastc.1            from `bcastc --help`
#
# //:install passes the built files with --bcastc=, --pmpi=, --header= and
# --man=; a relative --prefix is taken from where `bazel run` was started.
# --dry-run prints what would be installed where.
set -euo pipefail

prefix=
bcastc=
pmpi=
header=
man=
dry_run=0
for arg in "$@"; do
  case "$arg" in
    --prefix=*) prefix=${arg#--prefix=} ;;
    --bcastc=*) bcastc=${arg#--bcastc=} ;;
    --pmpi=*) pmpi=${arg#--pmpi=} ;;
    --header=*) header=${arg#--header=} ;;
    --man=*) man=${arg#--man=} ;;
    --dry-run) dry_run=1 ;;
    *) echo "install.sh: error: unknown argument '$arg' (expected --prefix=DIR)" >&2
       exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  echo "install.sh: error: no --prefix=DIR given (e.g. bazel run //:install -- --prefix=\$HOME/.local)" >&2
  exit 2
fi
for f in "$bcastc" "$pmpi" "$header" "$man"; do
  if [ -z "$f" ] || [ ! -f "$f" ]; then
    echo "install.sh: error: built file '$f' missing; run it as 'bazel run //:install -- --prefix=DIR'" >&2
    exit 2
  fi
done
case "$prefix" in
  /*) ;;
  *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;;
esac

# put MODE SOURCE DEST
put() {
  if [ $dry_run -eq 1 ]; then
    echo "$3"
  else
    install -D -m "$1" "$2" "$3"
    echo "installed $3"
  fi
}
put 755 "$bcastc" "$prefix/bin/bcastc"
put 755 "$pmpi" "$prefix/lib/libbcastc_pmpi.so"
put 644 "$header" "$prefix/include/bcastc/bcastc_broadcast.h"
put 644 "$man" "$prefix/share/man/man1/bcastc.1"
