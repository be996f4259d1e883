#!/bin/bash
# golden_test.sh BCASTC: run_golden.sh over this folder's cases.
here=$(dirname "$0")
exec bash "$here/run_golden.sh" "$1" "$here"
