#!/bin/bash
#===- tests/msccl/run_msccl_import_test.sh - real MSCCL files, mutated ----===#
#
# run_msccl_import_test.sh MUTATIONS.py BCASTC FILE.xml...
#
#===----------------------------------------------------------------------===#
set -u
exec python3 "$@"
