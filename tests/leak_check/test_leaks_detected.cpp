// The whole-program leak check (support/leak_check.hpp) must fail a program that leaks:
// this one creates two datatypes and frees one, and creates a user op it never frees.
// ctest expects the check's two messages and a non-zero exit status (tests/CMakeLists.txt).
#include <doctest/doctest.h>
#include <mpi.h>

namespace {
void no_op(void*, void*, int*, MPI_Datatype*) {}
}  // namespace

TEST_CASE("a datatype and a user op leaked on purpose") {
  MPI_Datatype kept = MPI_DATATYPE_NULL;
  MPI_Datatype freed = MPI_DATATYPE_NULL;
  CHECK(MPI_Type_contiguous(2, MPI_INT, &kept) == MPI_SUCCESS);
  CHECK(MPI_Type_contiguous(3, MPI_INT, &freed) == MPI_SUCCESS);
  CHECK(MPI_Type_free(&freed) == MPI_SUCCESS);
  MPI_Op op = MPI_OP_NULL;
  CHECK(MPI_Op_create(no_op, 1, &op) == MPI_SUCCESS);
}
