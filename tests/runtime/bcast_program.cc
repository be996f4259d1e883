//===- tests/runtime/bcast_program.cc - An unmodified MPI_Bcast program ----===//
//
//   mpirun -np N bcast_program ROOT...
//
// Knows nothing of bcastc: calls plain MPI_Bcast on MPI_COMM_WORLD from each
// ROOT for counts {0, 1, 7, 4096, 1 MiB + 3} and datatypes {MPI_BYTE,
// MPI_INT, MPI_DOUBLE, MPI_Type_vector(2, 1, 2, MPI_INT) (holes)}, and
// checks every byte on every rank: data bytes carry the root's pattern,
// holes and bytes past the buffer keep their old contents. Prints one
// summary line per rank; exits non-zero on any mismatch.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

bool allData(int) { return true; }
bool vectorData(int B) { return B < 4 || B >= 8; }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  MPI_Datatype Vector;
  MPI_Type_vector(2, 1, 2, MPI_INT, &Vector);
  MPI_Type_commit(&Vector);
  struct {
    MPI_Datatype Type;
    int Extent;
    bool (*IsData)(int);
  } Types[] = {{MPI_BYTE, 1, allData},
               {MPI_INT, 4, allData},
               {MPI_DOUBLE, 8, allData},
               {Vector, 12, vectorData}};
  long Calls = 0, Failures = 0;
  uint64_t Salt = 0;
  const uint64_t Guard = 64;
  for (int A = 1; A < argc; ++A) {
    const int Root = std::atoi(argv[A]);
    for (int Count : {0, 1, 7, 4096, (1 << 20) + 3})
      for (const auto &T : Types) {
        ++Salt;
        const uint64_t Span = uint64_t(Count) * T.Extent;
        std::vector<unsigned char> Buf(Span + Guard);
        for (uint64_t B = 0; B < Buf.size(); ++B)
          Buf[B] = (Rank == Root && B < Span) ? patternByte(B, Salt)
                                              : (unsigned char)(0x33 + Rank);
        int RC = MPI_Bcast(Buf.data(), Count, T.Type, Root, MPI_COMM_WORLD);
        ++Calls;
        long Bad = RC != MPI_SUCCESS;
        for (uint64_t B = 0; B < Buf.size(); ++B) {
          const bool Data = B < Span && T.IsData(int(B % T.Extent));
          const unsigned char Want =
              (Data || (Rank == Root && B < Span)) ? patternByte(B, Salt)
                                                   : (unsigned char)(0x33 + Rank);
          Bad += Buf[B] != Want;
        }
        if (Bad) {
          ++Failures;
          if (Failures <= 5)
            std::printf("rank %d: root %d, count %d, extent %d: rc %d, %ld "
                        "wrong bytes\n",
                        Rank, Root, Count, T.Extent, RC, Bad);
        }
      }
  }
  std::printf("rank %d of %d: %ld MPI_Bcast calls checked, %ld failures\n",
              Rank, Size, Calls, Failures);
  MPI_Type_free(&Vector);
  MPI_Finalize();
  return Failures ? 1 : 0;
}
