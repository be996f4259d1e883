//===- tests/nccl/mock/mock_nccl_control.h - Inspecting the mock NCCL -*- C++ -*-===//

#ifndef BCASTC_TESTS_NCCL_MOCK_NCCL_CONTROL_H
#define BCASTC_TESTS_NCCL_MOCK_NCCL_CONTROL_H

#include <string>
#include <vector>

/// ncclSend and ncclRecv calls so far, on all ranks.
long mockNcclCalls();
/// Protocol errors since the last call (size mismatches, calls outside a
/// group, unreceived sends).
std::vector<std::string> mockNcclTakeErrors();

#endif // BCASTC_TESTS_NCCL_MOCK_NCCL_CONTROL_H
