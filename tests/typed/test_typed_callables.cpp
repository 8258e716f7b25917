// nampi::mpi callables: a capture-free lambda as a user op and as a communicator error handler.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cstdlib>
#include <map>
#include <nampi/mpi/collectives.hpp>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/environment.hpp>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

TEST_CASE("op_create from a capture-free lambda: keep the value of larger magnitude") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine[2] = {rank % 2 == 0 ? -(rank + 1) : rank + 1, 10 - rank};
  int result[2] = {0, 0};
  nampi_pmpi_reset();
  {
    mpi::unique_op larger_magnitude = mpi::op_create(
        [](const void* in, void* inout, int len, mpi::datatype type) {
          CHECK(type.get() == MPI_INT);
          const int* a = static_cast<const int*>(in);
          int* b = static_cast<int*>(inout);
          for (int i = 0; i < len; ++i)
            if (std::abs(a[i]) > std::abs(b[i])) b[i] = a[i];
        },
        true);
    mpi::allreduce(mine, result, 2, mpi::datatype(MPI_INT), larger_magnitude, mpi::comm_world());
  }
  const int last = size - 1;
  CHECK(result[0] == (last % 2 == 0 ? -size : size));
  CHECK(result[1] == 10);  // rank 0's 10 - 0 has the largest magnitude
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{
            {"MPI_Allreduce", 1}, {"MPI_Finalized", 1}, {"MPI_Op_create", 1}, {"MPI_Op_free", 1}});
}

namespace {
// The test's own record of what the handler saw (the handler itself is stateless).
MPI_Comm seen_comm = MPI_COMM_NULL;
int seen_code = MPI_SUCCESS;
}  // namespace

TEST_CASE("comm_create_errhandler from a capture-free lambda") {
  nampi_pmpi_reset();
  {
    mpi::unique_comm dup = mpi::comm_dup(mpi::comm_world());
    mpi::unique_errhandler handler = mpi::comm_create_errhandler([](mpi::comm c, int code) {
      seen_comm = c.get();
      seen_code = code;
    });
    mpi::comm_set_errhandler(dup, handler);
    mpi::unique_errhandler current = mpi::comm_get_errhandler(dup);
    CHECK(current.get() == handler.get());
    mpi::comm_call_errhandler(dup, MPI_ERR_OTHER);
    CHECK(seen_comm == dup.get());
    CHECK(seen_code == MPI_ERR_OTHER);
  }
  // Each owner frees its reference: the errhandler twice (created, got), the comm once.
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_call_errhandler", 1},
                                              {"MPI_Comm_create_errhandler", 1},
                                              {"MPI_Comm_dup", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_get_errhandler", 1},
                                              {"MPI_Comm_set_errhandler", 1},
                                              {"MPI_Errhandler_free", 2},
                                              {"MPI_Finalized", 3}});
}
