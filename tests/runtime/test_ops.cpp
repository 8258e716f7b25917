// Reduction operations: std functors and nampi::ops map to builtin MPI_Ops,
// MPI_Op handles pass through, and allreduce/reduce/scan compute with them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <functional>
#include <nampi/nampi.hpp>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// An MPI_Op of our own: element-wise maximum of absolute values.
void max_abs(void* in, void* inout, int* len, MPI_Datatype*) {
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::abs(a[i]) > std::abs(b[i]) ? a[i] : b[i];
}

}  // namespace

TEST_CASE("builtin mapping of functors to MPI_Op") {
  using nampi::detail::mpi_op;
  nampi::detail::op_lease lease;  // builtins and handles never take it
  CHECK(mpi_op<int>(std::plus<>{}, lease).get() == MPI_SUM);
  CHECK(mpi_op<int>(std::multiplies<>{}, lease).get() == MPI_PROD);
  CHECK(mpi_op<int>(std::logical_and<>{}, lease).get() == MPI_LAND);
  CHECK(mpi_op<int>(std::logical_or<>{}, lease).get() == MPI_LOR);
  CHECK(mpi_op<int>(std::bit_and<>{}, lease).get() == MPI_BAND);
  CHECK(mpi_op<int>(std::bit_or<>{}, lease).get() == MPI_BOR);
  CHECK(mpi_op<int>(std::bit_xor<>{}, lease).get() == MPI_BXOR);
  CHECK(mpi_op<int>(nampi::ops::max<>{}, lease).get() == MPI_MAX);
  CHECK(mpi_op<int>(nampi::ops::min<>{}, lease).get() == MPI_MIN);
  CHECK(mpi_op<int>(nampi::ops::logical_xor<>{}, lease).get() == MPI_LXOR);
}

TEST_CASE("typed functors map like the transparent ones") {
  using nampi::detail::mpi_op;
  nampi::detail::op_lease lease;  // builtins and handles never take it
  CHECK(mpi_op<int>(std::plus<int>{}, lease).get() == MPI_SUM);
  CHECK(mpi_op<int>(std::multiplies<double>{}, lease).get() == MPI_PROD);
  CHECK(mpi_op<int>(std::bit_or<unsigned>{}, lease).get() == MPI_BOR);
  CHECK(mpi_op<int>(nampi::ops::max<double>{}, lease).get() == MPI_MAX);
  CHECK(mpi_op<int>(nampi::ops::min<int>{}, lease).get() == MPI_MIN);
  CHECK(mpi_op<int>(nampi::ops::logical_xor<bool>{}, lease).get() == MPI_LXOR);
}

TEST_CASE("an MPI_Op handle passes through") {
  using nampi::detail::mpi_op;
  nampi::detail::op_lease lease;  // builtins and handles never take it
  CHECK(mpi_op<int>(MPI_MAX, lease).get() == MPI_MAX);
  CHECK(mpi_op<int>(MPI_REPLACE, lease).get() == MPI_REPLACE);
  const auto lambda = [](int a, int b) { return a + b; };
  static_assert(!nampi::detail::builtin_op<decltype(lambda)>::value);
  static_assert(nampi::detail::builtin_op<std::plus<>>::value);
}

TEST_CASE("nampi::ops functors compute like their MPI counterparts") {
  static_assert(nampi::ops::max<>{}(3, 5) == 5);
  static_assert(nampi::ops::min<>{}(3, 5) == 3);
  static_assert(nampi::ops::max<int>{}(-3, -5) == -3);
  static_assert(nampi::ops::logical_xor<>{}(1, 0));
  static_assert(!nampi::ops::logical_xor<>{}(2, 3));
  CHECK(true);
}

TEST_CASE("allreduce with std::plus<>") {
  nampi::Communicator comm;
  const auto data = nampi_test::reduction_input(comm.rank(), 4);
  CHECK(comm.allreduce(send_buf(data), op(std::plus<>{})) ==
        nampi_test::sum_of_ranks_plus_one(comm.size(), 4));
  CHECK(comm.allreduce_single(send_buf(comm.rank() + 1), op(std::plus<>{})) ==
        comm.size() * (comm.size() + 1) / 2);
}

TEST_CASE("allreduce with std::multiplies<>") {
  nampi::Communicator comm;
  const std::vector<int> data{comm.rank() + 1, 2};
  const std::vector<int> expected{factorial(comm.size()), 1 << comm.size()};
  CHECK(comm.allreduce(send_buf(data), op(std::multiplies<>{})) == expected);
  CHECK(comm.allreduce_single(send_buf(comm.rank() + 1.0), op(std::multiplies<>{})) ==
        doctest::Approx(factorial(comm.size())));
}

TEST_CASE("allreduce with nampi::ops::max<> and nampi::ops::min<>") {
  nampi::Communicator comm;
  const std::vector<double> data{comm.rank() * 1.5, -comm.rank() * 1.5};
  const auto max = comm.allreduce(send_buf(data), op(nampi::ops::max<>{}));
  const auto min = comm.allreduce(send_buf(data), op(nampi::ops::min<>{}));
  CHECK(max == std::vector<double>{(comm.size() - 1) * 1.5, 0.0});
  CHECK(min == std::vector<double>{0.0, -(comm.size() - 1) * 1.5});
  CHECK(comm.allreduce_single(send_buf(comm.rank()), op(nampi::ops::max<>{})) == comm.size() - 1);
  CHECK(comm.allreduce_single(send_buf(comm.rank() + 10), op(nampi::ops::min<>{})) == 10);
}

TEST_CASE("allreduce with std::logical_and<> and std::logical_or<>") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  // {always true, false at rank 0 only, true at the last rank only}
  const std::vector<int> data{1, comm.rank() == 0 ? 0 : 1, comm.rank() == last ? 1 : 0};
  CHECK(comm.allreduce(send_buf(data), op(std::logical_and<>{})) ==
        std::vector<int>{1, 0, comm.size() == 1 ? 1 : 0});
  CHECK(comm.allreduce(send_buf(data), op(std::logical_or<>{})) ==
        std::vector<int>{1, comm.size() > 1 ? 1 : 0, 1});
}

TEST_CASE("allreduce with bools") {
  nampi::Communicator comm;
  CHECK(comm.allreduce_single(send_buf(true), op(std::logical_and<>{})) == true);
  CHECK(comm.allreduce_single(send_buf(comm.rank() != 0), op(std::logical_and<>{})) == false);
  CHECK(comm.allreduce_single(send_buf(comm.rank() == comm.size() - 1), op(std::logical_or<>{})) ==
        true);
  CHECK(comm.allreduce_single(send_buf(comm.rank() == 0), op(nampi::ops::logical_xor<>{})) == true);
}

TEST_CASE("allreduce with std::bit_or<>, std::bit_and<>, std::bit_xor<>") {
  nampi::Communicator comm;
  const unsigned bit = 1u << comm.rank();
  const unsigned all_bits = (1u << comm.size()) - 1u;
  CHECK(comm.allreduce_single(send_buf(bit), op(std::bit_or<>{})) == all_bits);
  CHECK(comm.allreduce_single(send_buf(~bit), op(std::bit_and<>{})) == ~all_bits);
  CHECK(comm.allreduce_single(send_buf(1u), op(std::bit_xor<>{})) ==
        static_cast<unsigned>(comm.size() % 2));
  const std::vector<unsigned> data{bit, 0xF0u | bit};
  CHECK(comm.allreduce(send_buf(data), op(std::bit_or<>{})) ==
        std::vector<unsigned>{all_bits, 0xF0u | all_bits});
}

TEST_CASE("allreduce with an MPI_Op handle") {
  nampi::Communicator comm;
  const std::vector<int> data{comm.rank(), -comm.rank()};
  CHECK(
      comm.allreduce(send_buf(data), op(MPI_SUM)) ==
      std::vector<int>{comm.size() * (comm.size() - 1) / 2, -comm.size() * (comm.size() - 1) / 2});

  MPI_Op custom = MPI_OP_NULL;
  REQUIRE(MPI_Op_create(&max_abs, 1, &custom) == MPI_SUCCESS);
  // Rank r sends {r, -r} with the sign of the second flipped on the last rank.
  const int last = comm.size() - 1;
  const std::vector<int> signed_data{comm.rank() == last ? -comm.rank() : comm.rank(),
                                     -comm.rank()};
  CHECK(comm.allreduce(send_buf(signed_data), op(custom)) == std::vector<int>{-last, -last});
  MPI_Op_free(&custom);
}

TEST_CASE("allreduce in place") {
  nampi::Communicator comm;
  std::vector<long> data{comm.rank() + 1L, 2L * comm.rank()};
  comm.allreduce(send_recv_buf(data), op(nampi::ops::max<>{}));
  CHECK(data == std::vector<long>{comm.size() + 0L, 2L * (comm.size() - 1)});
}

TEST_CASE("reduce to a root with std::plus<>") {
  nampi::Communicator comm;
  const int root_rank = comm.size() - 1;
  const auto data = nampi_test::reduction_input(comm.rank(), 2);
  const auto out = comm.reduce(send_buf(data), op(std::plus<>{}), root(root_rank));
  if (comm.rank() == root_rank) CHECK(out == nampi_test::sum_of_ranks_plus_one(comm.size(), 2));
}

TEST_CASE("scan with std::plus<>") {
  nampi::Communicator comm;
  const auto data = nampi_test::reduction_input(comm.rank(), 3);
  CHECK(comm.scan(send_buf(data), op(std::plus<>{})) == nampi_test::scan_of_inputs(comm.rank(), 3));
}
