//===- tests/runtime/datatype_program.cc - Broadcasts of derived datatypes -===//
//
//   mpirun -np N datatype_program ROOT        every case below
//   mpirun -np N datatype_program ROOT big    one packed broadcast of more
//                                             than INT_MAX bytes (by hand)
//
// Built twice: plain, calling MPI_Bcast (run with libbcastc_pmpi.so
// preloaded), and with -DBCASTC_EMITTED, calling bcastc_under_test from an
// `--emit=mpi-cpp` file. Each case is a pair of datatypes A and B with the
// same type signature per A-unit: A x MulA matches B x MulB. For counts
// {0, 1, 7, 13, 61} units, three ways: the root passes A and the others B;
// the root B and the others A; the root A and the others A or B by rank
// parity. Every rank fills its whole buffer (guard bytes around the span of
// its elements included) with a pattern of its own, copies it, runs the
// broadcast under test on one copy and PMPI_Bcast (the MPI library's own)
// with the same arguments on the other, and compares every byte: data, gaps
// and guards. Prints one summary line per rank and the first few
// mismatches; exits non-zero on any.
//
//===----------------------------------------------------------------------===//

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef BCASTC_EMITTED
extern "C" int bcastc_under_test(void *buffer, int count, MPI_Datatype datatype,
                                 int root, MPI_Comm comm);
#define BCAST_UNDER_TEST bcastc_under_test
#else
#define BCAST_UNDER_TEST MPI_Bcast
#endif

namespace {

int Rank = 0;
long Failures = 0;

void fail(const std::string &What) {
  if (++Failures <= 10)
    std::printf("rank %d: FAIL %s\n", Rank, What.c_str());
}

unsigned char patternByte(uint64_t Offset, uint64_t Salt) {
  uint64_t X = Offset * 0x9E3779B97F4A7C15ull + Salt * 0xBF58476D1CE4E5B9ull;
  X ^= X >> 31;
  X *= 0x94D049BB133111EBull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

MPI_Datatype commit(MPI_Datatype T) {
  MPI_Type_commit(&T);
  return T;
}

MPI_Datatype structOf(std::vector<int> Lens, std::vector<MPI_Aint> Displs,
                      std::vector<MPI_Datatype> Types) {
  MPI_Datatype T;
  MPI_Type_create_struct(int(Lens.size()), Lens.data(), Displs.data(),
                         Types.data(), &T);
  return commit(T);
}

MPI_Datatype contiguous(int N, MPI_Datatype Old) {
  MPI_Datatype T;
  MPI_Type_contiguous(N, Old, &T);
  return commit(T);
}

MPI_Datatype dup(MPI_Datatype Old) {
  MPI_Datatype T;
  MPI_Type_dup(Old, &T);
  return commit(T);
}

MPI_Datatype resized(MPI_Datatype Old, MPI_Aint Lb, MPI_Aint Extent) {
  MPI_Datatype T;
  MPI_Type_create_resized(Old, Lb, Extent, &T);
  return commit(T);
}

MPI_Datatype vector(int N, int Len, int Stride, MPI_Datatype Old) {
  MPI_Datatype T;
  MPI_Type_vector(N, Len, Stride, Old, &T);
  return commit(T);
}

struct Side {
  MPI_Datatype Type;
  int Mul; ///< Elements per unit.
};

struct Case {
  std::string Name;
  Side A, B;
};

/// The datatype set: every constructor, out-of-order and negative
/// displacements, lb != 0 and extent > size, nesting and dup chains, each
/// against a datatype of the same signature built another way. Fills
/// \p Free with what to free afterwards.
std::vector<Case> makeCases(std::vector<MPI_Datatype> &Free) {
  auto Keep = [&](MPI_Datatype T) {
    Free.push_back(T);
    return T;
  };
  const MPI_Datatype I = MPI_INT, D = MPI_DOUBLE;
  // The case: no gap, lb 0, extent == size, ints listed backwards.
  MPI_Datatype Rev = Keep(structOf({1, 1}, {4, 0}, {I, I}));
  MPI_Datatype Int2 = Keep(contiguous(2, I));
  MPI_Datatype Int6 = Keep(contiguous(6, I));
  std::vector<Case> Cases;
  Cases.push_back({"struct{int@4,int@0} / 2 x int", {Rev, 1}, {I, 2}});
  Cases.push_back({"MPI_2INT / struct{int@4,int@0}", {MPI_2INT, 1}, {Rev, 1}});
  Cases.push_back({"struct{double@8,int@-4,int@0} / struct{double@0,int@8,"
                   "int@12}",
                   {Keep(structOf({1, 1, 1}, {8, -4, 0}, {D, I, I})), 1},
                   {Keep(structOf({1, 1, 1}, {0, 8, 12}, {D, I, I})), 1}});
  Cases.push_back({"resized(int, lb -4, extent 12) / int",
                   {Keep(resized(I, -4, 12)), 1},
                   {I, 1}});
  Cases.push_back({"resized(int, lb 0, extent 4) / int",
                   {Keep(resized(I, 0, 4)), 1},
                   {I, 1}});
  Cases.push_back({"resized(contiguous(2,int), 0, 16) / contiguous(2,int)",
                   {Keep(resized(Int2, 0, 16)), 1},
                   {Int2, 1}});
  Cases.push_back(
      {"vector(3,2,5,int) / contiguous(6,int)", {Keep(vector(3, 2, 5, I)), 1},
       {Int6, 1}});
  Cases.push_back(
      {"vector(3,1,-2,int) / int", {Keep(vector(3, 1, -2, I)), 1}, {I, 3}});
  Cases.push_back(
      {"vector(2,3,3,int) / contiguous(6,int)", {Keep(vector(2, 3, 3, I)), 1},
       {Int6, 1}});
  {
    MPI_Datatype T;
    MPI_Type_create_hvector(2, 1, 24, D, &T);
    Cases.push_back({"hvector(2,1,24B,double) / double", {Keep(commit(T)), 1},
                     {D, 2}});
  }
  {
    int Lens[] = {1, 2, 1}, Displs[] = {5, 0, 3};
    MPI_Datatype T;
    MPI_Type_indexed(3, Lens, Displs, I, &T);
    Cases.push_back(
        {"indexed({1,2,1}@{5,0,3},int) / int", {Keep(commit(T)), 1}, {I, 4}});
  }
  {
    int Lens[] = {2, 1};
    MPI_Aint Displs[] = {16, -8};
    MPI_Datatype T;
    MPI_Type_create_hindexed(2, Lens, Displs, I, &T);
    Cases.push_back({"hindexed({2,1}@{16B,-8B},int) / int",
                     {Keep(commit(T)), 1},
                     {I, 3}});
  }
  {
    int Displs[] = {4, 0, 8};
    MPI_Datatype T;
    MPI_Type_create_indexed_block(3, 2, Displs, I, &T);
    Cases.push_back({"indexed_block(2@{4,0,8},int) / contiguous(6,int)",
                     {Keep(commit(T)), 1},
                     {Int6, 1}});
  }
  {
    int Sizes[] = {4, 5}, Sub[] = {2, 3}, Starts[] = {1, 1};
    MPI_Datatype T;
    MPI_Type_create_subarray(2, Sizes, Sub, Starts, MPI_ORDER_C, I, &T);
    Cases.push_back({"subarray(C, 4x5, 2x3 @1,1, int) / int",
                     {Keep(commit(T)), 1},
                     {I, 6}});
  }
  {
    int Sizes[] = {4, 5}, Sub[] = {3, 2}, Starts[] = {0, 2};
    MPI_Datatype T;
    MPI_Type_create_subarray(2, Sizes, Sub, Starts, MPI_ORDER_FORTRAN, D, &T);
    Cases.push_back({"subarray(Fortran, 4x5, 3x2 @0,2, double) / double",
                     {Keep(commit(T)), 1},
                     {D, 6}});
  }
  Cases.push_back({"contiguous(3, struct{int@4,int@0}) / contiguous(6,int)",
                   {Keep(contiguous(3, Rev)), 1},
                   {Int6, 1}});
  Cases.push_back({"vector(2,1,3, struct{int@4,int@0}) / contiguous(2,int)",
                   {Keep(vector(2, 1, 3, Rev)), 1},
                   {Int2, 2}});
  Cases.push_back(
      {"struct{vector(2,1,2,int)@16, contiguous(2,int)@0} / 4 x int",
       {Keep(structOf({1, 1}, {16, 0}, {Keep(vector(2, 1, 2, I)), Int2})), 1},
       {I, 4}});
  Cases.push_back(
      {"dup(dup(int)) / int", {Keep(dup(Keep(dup(I)))), 1}, {I, 1}});
  Cases.push_back({"dup(dup(struct{int@4,int@0})) / contiguous(2,int)",
                   {Keep(dup(Keep(dup(Rev)))), 1},
                   {Int2, 1}});
  Cases.push_back({"contiguous(2, dup(contiguous(3,int))) / "
                   "vector(1,6,7,int)",
                   {Keep(contiguous(2, Keep(dup(Keep(contiguous(3, I)))))), 1},
                   {Keep(vector(1, 6, 7, I)), 1}});
  Cases.push_back(
      {"contiguous(4,double) / double", {Keep(contiguous(4, D)), 1}, {D, 4}});
  Cases.push_back({"MPI_DOUBLE_INT (a gap) / struct{double@4,int@0}",
                   {MPI_DOUBLE_INT, 1},
                   {Keep(structOf({1, 1}, {4, 0}, {D, I})), 1}});
  Cases.push_back({"contiguous(0,int) / struct{} (empty)",
                   {Keep(contiguous(0, I)), 1},
                   {Keep(structOf({}, {}, {})), 1}});
  Cases.push_back({"vector(100,1,2,double) / contiguous(4,double)",
                   {Keep(vector(100, 1, 2, D)), 4},
                   {Keep(contiguous(4, D)), 100}});
  return Cases;
}

/// Room for Count elements of T: the buffer pointer passed to MPI is Off
/// bytes into Size bytes, with guards of Guard bytes around the elements'
/// true span.
struct Layout {
  uint64_t Off, Size;
};

Layout layoutOf(MPI_Datatype T, int Count) {
  const int64_t Guard = 32;
  MPI_Count Lb, Extent, TrueLb, TrueExtent;
  MPI_Type_get_extent_x(T, &Lb, &Extent);
  MPI_Type_get_true_extent_x(T, &TrueLb, &TrueExtent);
  int64_t Lo = 0, Hi = 0;
  if (Count > 0) {
    const int64_t Last = int64_t(Count - 1) * int64_t(Extent);
    Lo = std::min<int64_t>(0, std::min<int64_t>(TrueLb, Last + TrueLb));
    Hi = std::max<int64_t>(0, std::max<int64_t>(TrueLb + TrueExtent,
                                                Last + TrueLb + TrueExtent));
  }
  return {uint64_t(Guard - Lo), uint64_t(Guard - Lo + Hi + Guard)};
}

/// One broadcast of Units units from Root, this rank passing S; compares the
/// buffer with PMPI_Bcast's.
void check(const std::string &What, const Side &S, int Units, int Root,
           uint64_t Salt) {
  const int Count = Units * S.Mul;
  const Layout L = layoutOf(S.Type, Count);
  std::vector<unsigned char> Got(L.Size), Want;
  const uint64_t Own = Rank == Root ? Salt : Salt * 7919 + uint64_t(Rank) + 1;
  for (uint64_t B = 0; B < L.Size; ++B)
    Got[B] = patternByte(B, Own);
  Want = Got;
  const std::vector<unsigned char> Before = Got;
  const int RC = BCAST_UNDER_TEST(Got.data() + L.Off, Count, S.Type, Root,
                                  MPI_COMM_WORLD);
  const int RefRC =
      PMPI_Bcast(Want.data() + L.Off, Count, S.Type, Root, MPI_COMM_WORLD);
  const std::string Where = What + ", " + std::to_string(Units) + " units";
  if (RC != MPI_SUCCESS || RefRC != MPI_SUCCESS) {
    fail(Where + ": returned " + std::to_string(RC) + ", PMPI_Bcast " +
         std::to_string(RefRC));
    return;
  }
  MPI_Count Size;
  MPI_Type_size_x(S.Type, &Size);
  // The reference must have moved something, or the comparison proves
  // nothing.
  if (Rank != Root && Count > 0 && Size > 0 && Want == Before)
    fail(Where + ": PMPI_Bcast changed no byte");
  long Bad = 0;
  uint64_t First = 0;
  for (uint64_t B = 0; B < L.Size; ++B)
    if (Got[B] != Want[B] && Bad++ == 0)
      First = B;
  if (Bad) {
    char Detail[160];
    std::snprintf(Detail, sizeof Detail,
                  ": %ld of %llu bytes differ from PMPI_Bcast's, first at "
                  "buffer%+lld (0x%02x, want 0x%02x)",
                  Bad, (unsigned long long)L.Size,
                  (long long)First - (long long)L.Off, Got[First],
                  Want[First]);
    fail(Where + Detail);
  }
}

/// Count*size > INT_MAX on the packed path: the root packs
/// struct{int@4,int@0} in pieces, the others receive plain ints (2 GiB
/// each). Checked word by word.
void checkBig(int Root) {
  const int Units = (1 << 28) + 7;
  MPI_Datatype Rev = structOf({1, 1}, {4, 0}, {MPI_INT, MPI_INT});
  std::vector<uint32_t> Buf(size_t(Units) * 2);
  for (size_t W = 0; W < Buf.size(); ++W)
    Buf[W] = Rank == Root ? uint32_t(W) * 2654435761u : 0;
  const int RC = Rank == Root
                     ? BCAST_UNDER_TEST(Buf.data(), Units, Rev, Root,
                                        MPI_COMM_WORLD)
                     : BCAST_UNDER_TEST(Buf.data(), 2 * Units, MPI_INT, Root,
                                        MPI_COMM_WORLD);
  long Bad = RC != MPI_SUCCESS;
  if (Rank != Root)
    for (size_t W = 0; W < Buf.size(); ++W)
      Bad += Buf[W] != uint32_t(W ^ 1) * 2654435761u;
  if (Bad)
    fail("big: rc " + std::to_string(RC) + ", " + std::to_string(Bad) +
         " wrong words");
  MPI_Type_free(&Rev);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (argc < 2) {
    if (Rank == 0)
      std::printf("usage: datatype_program ROOT [big]\n");
    MPI_Finalize();
    return 2;
  }
  const int Root = std::atoi(argv[1]);
  long Calls = 0;
  if (argc > 2 && std::strcmp(argv[2], "big") == 0) {
    checkBig(Root);
    ++Calls;
  } else {
    std::vector<MPI_Datatype> Free;
    const std::vector<Case> Cases = makeCases(Free);
    uint64_t Salt = 0;
    for (const Case &C : Cases)
      for (int Units : {0, 1, 7, 13, 61}) {
        const bool Odd = Rank % 2;
        check(C.Name + " (root A)", Rank == Root ? C.A : C.B, Units, Root,
              ++Salt);
        check(C.Name + " (root B)", Rank == Root ? C.B : C.A, Units, Root,
              ++Salt);
        check(C.Name + " (mixed)", Rank == Root || Odd ? C.A : C.B, Units,
              Root, ++Salt);
        Calls += 3;
      }
    for (MPI_Datatype &T : Free)
      MPI_Type_free(&T);
  }
  std::printf("rank %d of %d: %ld broadcasts compared with PMPI_Bcast, %ld "
              "failures\n",
              Rank, Size, Calls, Failures);
  MPI_Finalize();
  return Failures ? 1 : 0;
}
