//===- runtime/mpi/PlainBytes.h - Datatypes that move as bytes -*- C++ -*-===//
//
// isPlainBytes, which the emitted runtime (runtime/mpi/Runtime.h includes
// it) and runtime/PlanExecutor.cpp share: one test for which datatypes move
// in place. Include it inside a namespace after <mpi.h>.
//
//===----------------------------------------------------------------------===//

// Sets Plain for a predefined type without gaps, or a dup or contiguous of
// one, recursively. Extents alone cannot tell: struct {int at 4, int at 0}
// has no gap and lb 0, but its first int is the second in memory.
int isPlainBytes(MPI_Datatype Type, bool &Plain) {
  Plain = false;
  MPI_Count Size, Lb, Extent, TrueLb, TrueExtent;
  int RC;
  if ((RC = MPI_Type_size_x(Type, &Size)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_extent_x(Type, &Lb, &Extent)) != MPI_SUCCESS ||
      (RC = MPI_Type_get_true_extent_x(Type, &TrueLb, &TrueExtent)) !=
          MPI_SUCCESS)
    return RC;
  if (Lb != 0 || Extent != Size || TrueLb != 0 || TrueExtent != Size)
    return MPI_SUCCESS;
  int NumInts, NumAddrs, NumTypes, Combiner;
  if ((RC = MPI_Type_get_envelope(Type, &NumInts, &NumAddrs, &NumTypes,
                                  &Combiner)) != MPI_SUCCESS)
    return RC;
  if (Combiner == MPI_COMBINER_NAMED) {
    Plain = true;
    return MPI_SUCCESS;
  }
  if ((Combiner != MPI_COMBINER_DUP && Combiner != MPI_COMBINER_CONTIGUOUS) ||
      NumInts > 1 || NumAddrs != 0 || NumTypes != 1)
    return MPI_SUCCESS;
  int Ints[1];
  MPI_Aint Addrs[1];
  MPI_Datatype Inner;
  if ((RC = MPI_Type_get_contents(Type, NumInts, NumAddrs, NumTypes, Ints,
                                  Addrs, &Inner)) != MPI_SUCCESS)
    return RC;
  RC = isPlainBytes(Inner, Plain);
  // get_contents hands out new references to derived types only.
  int FreeRC = MPI_Type_get_envelope(Inner, &NumInts, &NumAddrs, &NumTypes,
                                     &Combiner);
  if (FreeRC == MPI_SUCCESS && Combiner != MPI_COMBINER_NAMED)
    FreeRC = MPI_Type_free(&Inner);
  return RC != MPI_SUCCESS ? RC : FreeRC;
}
