//===- backends/mpi/CppText.cpp -------------------------------------------===//

#include "backends/mpi/CppText.h"

#include <cstdio>

namespace bcastc {

const llvm::StringRef MpiReservedPrefixes[5] = {"MPI_", "PMPI_", "MPIX_",
                                                "OMPI_", "MPICH_"};

std::string commentText(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    Out += (C == '\\' || static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
               ? '?'
               : C;
  return Out;
}

std::string cStringContents(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (U < 0x20 || U >= 0x7f || C == '?') {
      // Octal escapes are always three digits, so a following digit cannot
      // join them; '?' is escaped so no trigraph can form.
      char Buf[5];
      std::snprintf(Buf, sizeof Buf, "\\%03o", U);
      Out += Buf;
    } else {
      Out += C;
    }
  }
  return Out;
}

} // namespace bcastc
