#!/bin/bash
#===- tests/nccl/run_nccl_nvcc_test.sh - nccl-cu output built with nvcc ----===#
#
# run_nccl_nvcc_test.sh BCASTC MAIN_CU [GEN_NCCL_PLAN_SET]
#
# Emits st (linear:8, root 3), bst (linear:8, root 0) and bst-mesh (mesh:4x4,
# root 5) with --emit=nccl-cu, compiles each with nvcc (host warnings are
# errors) against NCCL's headers in /usr/local/cuda/include, links them with
# nccl_link_main.cu against /usr/local/cuda/lib/libnccl.so, checks with nm
# that the three functions are defined, and runs the binary, which loads
# libnccl and says that there is no GPU: the code is compiled and linked,
# NOT run. With GEN_NCCL_PLAN_SET, the plan-set file of the placed torus
# test set (tests/mpi/TestPlanSets.h) too, as bcastc_set_torus_placed (one
# set: the files differ only in their tables; nvcc is slow).
#
#===----------------------------------------------------------------------===#

set -u
set -o pipefail

BCASTC=$1
MAIN=$2
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA/bin/nvcc
WORK=${TEST_TMPDIR:-$(mktemp -d)}
[ -x "$NVCC" ] || { echo "FAIL: no nvcc at $NVCC"; exit 1; }
[ -f "$CUDA/include/nccl.h" ] || { echo "FAIL: no nccl.h in $CUDA/include"; exit 1; }
NVFLAGS=(-std=c++17 -O2 -I "$CUDA/include" -Xcompiler -Wall,-Wextra,-Werror)

SECONDS=0
OBJS=()
for spec in st:linear:8:3 bst:linear:8:0 mesh:mesh:4x4:5; do
  IFS=: read -r fn kind size root <<<"$spec"
  algo=$fn
  [ "$fn" = mesh ] && algo=bst-mesh
  "$BCASTC" compile --topology="$kind:$size" --root="$root" --algorithm="$algo" \
    --emit=nccl-cu --function-name="bcastc_$fn" -o "$WORK/$fn.cu" \
    >"$WORK/$fn.report" 2>&1 || { echo "FAIL: bcastc $algo"; exit 1; }
  "$NVCC" "${NVFLAGS[@]}" -c "$WORK/$fn.cu" -o "$WORK/$fn.o" ||
    { echo "FAIL: nvcc does not compile $algo"; exit 1; }
  echo "nvcc compiled $algo on $kind:$size (root $root)"
  OBJS+=("$WORK/$fn.o")
done
FNS=(st bst mesh)
if [ $# -ge 3 ]; then
  fn=set_torus_placed
  "$3" --set=torus-placed --function-name="bcastc_$fn" -o "$WORK/$fn.cu" ||
    { echo "FAIL: gen_nccl_plan_set --set=torus-placed"; exit 1; }
  "$NVCC" "${NVFLAGS[@]}" -c "$WORK/$fn.cu" -o "$WORK/$fn.o" ||
    { echo "FAIL: nvcc does not compile plan set torus-placed"; exit 1; }
  echo "nvcc compiled plan set torus-placed"
  OBJS+=("$WORK/$fn.o")
  FNS+=("$fn")
fi
"$NVCC" "${NVFLAGS[@]}" "$MAIN" "${OBJS[@]}" -L "$CUDA/lib" -lnccl \
  -Xlinker -rpath="$CUDA/lib" -o "$WORK/nccl_link" ||
  { echo "FAIL: nvcc does not link against libnccl"; exit 1; }
# (Through files: grep -q closing a pipe early would fail it under pipefail.)
nm "$WORK/nccl_link" >"$WORK/symbols"
nm -D --undefined-only "$WORK/nccl_link" >"$WORK/undefined"
for fn in "${FNS[@]}"; do
  grep -q " T bcastc_$fn$" "$WORK/symbols" ||
    { echo "FAIL: bcastc_$fn is not defined in the linked binary"; exit 1; }
done
grep -q " U ncclSend$" "$WORK/undefined" ||
  { echo "FAIL: ncclSend is not resolved from libnccl"; exit 1; }
"$WORK/nccl_link" || { echo "FAIL: the linked binary does not start"; exit 1; }
echo "built in ${SECONDS}s"
