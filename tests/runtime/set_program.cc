//===- tests/runtime/set_program.cc - An unmodified MPI_Bcast program for sets -===//
//
//   mpirun -np N set_program EDGE... [cart] [split]
//
// Knows nothing of bcastc: calls plain MPI_Bcast on MPI_COMM_WORLD from
// every root with byte counts {0, 1, 7, each EDGE - 1, EDGE, EDGE + 1,
// 1 MiB + 3} as MPI_BYTE and element counts {0, 1, 7, EDGE/8 - 1, EDGE/8,
// EDGE/8 + 1, 2^17 + 3} as MPI_DOUBLE, and checks every byte on every rank
// (data from the root, the bytes past it untouched). Meanwhile an
// MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) is pending on MPI_COMM_WORLD: it
// must receive none of the broadcasts' messages. With `cart` it does the
// same, but for the 1 MiB counts, on a periodic Cartesian communicator of
// MPI_Dims_create's shape for 2 dimensions; with `split` it also broadcasts on the halves of
// MPI_COMM_WORLD (another size: no set, PMPI_Bcast). Prints one line per
// rank: "N MPI_Bcast calls checked, F failures"; exits non-zero on any.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

long Calls = 0, Failures = 0;
uint64_t Salt = 0;

void check(MPI_Comm Comm, int Root, int Count, MPI_Datatype Type, int Size) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  ++Salt;
  const uint64_t Span = uint64_t(Count) * uint64_t(Size), Guard = 64;
  std::vector<unsigned char> Buf(Span + Guard);
  for (uint64_t B = 0; B < Buf.size(); ++B)
    Buf[B] = (Rank == Root && B < Span) ? patternByte(B, Salt)
                                        : static_cast<unsigned char>(0x33 + Rank);
  const int RC = MPI_Bcast(Buf.data(), Count, Type, Root, Comm);
  ++Calls;
  long Bad = RC != MPI_SUCCESS;
  for (uint64_t B = 0; B < Buf.size(); ++B)
    Bad += Buf[B] != (B < Span ? patternByte(B, Salt)
                               : static_cast<unsigned char>(0x33 + Rank));
  if (Bad && ++Failures <= 5)
    std::printf("rank %d: root %d, count %d of %d-byte elements: rc %d, %ld "
                "wrong bytes\n",
                Rank, Root, Count, Size, RC, Bad);
}

void everyRoot(MPI_Comm Comm, const std::vector<long> &Edges, bool Large) {
  int N;
  MPI_Comm_size(Comm, &N);
  std::vector<int> Bytes = {0, 1, 7}, Doubles = {0, 1, 7};
  if (Large) {
    Bytes.push_back((1 << 20) + 3);
    Doubles.push_back((1 << 17) + 3);
  }
  for (long E : Edges) {
    for (long D : {-1L, 0L, 1L}) {
      Bytes.push_back(int(E + D));
      if (E / 8 + D >= 0)
        Doubles.push_back(int(E / 8 + D));
    }
  }
  for (int Root = 0; Root < N; ++Root) {
    for (int C : Bytes)
      check(Comm, Root, C, MPI_BYTE, 1);
    for (int C : Doubles)
      check(Comm, Root, C, MPI_DOUBLE, 8);
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::vector<long> Edges;
  bool Cart = false, Split = false;
  for (int A = 1; A < argc; ++A) {
    if (!std::strcmp(argv[A], "cart"))
      Cart = true;
    else if (!std::strcmp(argv[A], "split"))
      Split = true;
    else
      Edges.push_back(std::atol(argv[A]));
  }

  // The application's own receive, pending through every broadcast.
  int Stray = -1;
  MPI_Request Pending;
  MPI_Irecv(&Stray, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
            &Pending);

  everyRoot(MPI_COMM_WORLD, Edges, true);
  if (Cart) {
    int Dims[2] = {0, 0}, Periods[2] = {1, 1};
    MPI_Dims_create(Size, 2, Dims);
    MPI_Comm CartComm;
    MPI_Cart_create(MPI_COMM_WORLD, 2, Dims, Periods, 0, &CartComm);
    everyRoot(CartComm, Edges, false);
    MPI_Comm_free(&CartComm);
  }
  if (Split) {
    MPI_Comm Half;
    MPI_Comm_split(MPI_COMM_WORLD, Rank % 2, Rank, &Half);
    check(Half, 0, 4096, MPI_BYTE, 1);
    check(Half, 1, 7, MPI_DOUBLE, 8);
    MPI_Comm_free(&Half);
  }

  int Done = 0;
  MPI_Test(&Pending, &Done, MPI_STATUS_IGNORE);
  if (Done) {
    ++Failures;
    std::printf("rank %d: the application's MPI_ANY_TAG receive got a "
                "message during the broadcasts\n",
                Rank);
  }
  // Satisfy it from this rank itself.
  const int Mine = Rank;
  MPI_Send(&Mine, 1, MPI_INT, Rank, 7, MPI_COMM_WORLD);
  MPI_Wait(&Pending, MPI_STATUS_IGNORE);
  if (!Done && Stray != Rank) {
    ++Failures;
    std::printf("rank %d: the pending receive got %d\n", Rank, Stray);
  }
  std::printf("rank %d: %ld MPI_Bcast calls checked, %ld failures\n", Rank,
              Calls, Failures);
  MPI_Finalize();
  return Failures ? 1 : 0;
}
