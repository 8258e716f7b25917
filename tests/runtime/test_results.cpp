// Results: what a call returns. Nothing, the one returned object itself, or a
// result object whose first element is the receive buffer, followed by the
// out-parameters in the order the caller named them.
#include <doctest/doctest.h>

#include <cstddef>
#include <nampi/nampi.hpp>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

std::vector<int> my_data(const nampi::Communicator& comm) {
  return std::vector<int>(comm.rank() + 1, comm.rank());
}

}  // namespace

TEST_CASE("structured bindings: receive buffer, then recv_counts_out, then recv_displs_out") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto [buf, counts, displs] =
      comm.allgatherv(send_buf(data), recv_counts_out(), recv_displs_out());
  static_assert(std::is_same_v<decltype(buf), std::vector<int>>);
  static_assert(std::is_same_v<decltype(counts), std::vector<int>>);
  static_assert(std::is_same_v<decltype(displs), std::vector<int>>);
  CHECK(buf == nampi_test::staircase(comm.size()));
  CHECK(counts == nampi_test::iota_counts(comm.size()));
  CHECK(displs == nampi_test::triangle_displs(comm.size()));
}

TEST_CASE("structured bindings: the out-parameters follow the caller's order") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto [buf, displs, counts] =
      comm.allgatherv(send_buf(data), recv_displs_out(), recv_counts_out());
  CHECK(buf == nampi_test::staircase(comm.size()));
  CHECK(displs == nampi_test::triangle_displs(comm.size()));
  CHECK(counts == nampi_test::iota_counts(comm.size()));
}

TEST_CASE("structured bindings: the receive buffer comes first wherever it is named") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  std::vector<int> storage(nampi_test::staircase(comm.size()).size());
  auto [buf, displs, counts] = comm.allgatherv(recv_displs_out(), recv_counts_out(),
                                               recv_buf(std::move(storage)), send_buf(data));
  CHECK(buf == nampi_test::staircase(comm.size()));
  CHECK(displs == nampi_test::triangle_displs(comm.size()));
  CHECK(counts == nampi_test::iota_counts(comm.size()));
}

TEST_CASE("structured bindings: scalar out-parameters") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto [buf, type, count] = comm.allgatherv(send_buf(data), send_type_out(), send_count_out());
  static_assert(std::is_same_v<decltype(type), MPI_Datatype>);
  static_assert(std::is_same_v<decltype(count), MPI_Count>);  // counts hold large values
  CHECK(buf == nampi_test::staircase(comm.size()));
  CHECK(type == MPI_INT);
  CHECK(count == comm.rank() + 1);
}

TEST_CASE("result object: tuple protocol") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  using result_t = decltype(comm.allgatherv(send_buf(data), recv_counts_out(), send_count_out()));
  static_assert(std::tuple_size_v<result_t> == 3);
  static_assert(std::is_same_v<std::tuple_element_t<0, result_t>, std::vector<int>>);
  static_assert(std::is_same_v<std::tuple_element_t<1, result_t>, std::vector<int>>);
  static_assert(std::is_same_v<std::tuple_element_t<2, result_t>, MPI_Count>);
  auto result = comm.allgatherv(send_buf(data), recv_counts_out(), send_count_out());
  CHECK(result.get<0>() == nampi_test::staircase(comm.size()));
  CHECK(result.get<1>() == nampi_test::iota_counts(comm.size()));
  CHECK(result.get<2>() == comm.rank() + 1);
  // Binding by reference refers into the result object.
  auto& [buf, counts, count] = result;
  buf.push_back(-1);
  CHECK(result.get<0>().back() == -1);
  CHECK(&counts == &result.get<1>());
  CHECK(count == comm.rank() + 1);
}

TEST_CASE("extract_recv_counts() and extract_recv_buf()") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto result = comm.allgatherv(send_buf(data), recv_counts_out());
  std::vector<int> counts = result.extract_recv_counts();
  std::vector<int> buf = result.extract_recv_buf();
  CHECK(counts == nampi_test::iota_counts(comm.size()));
  CHECK(buf == nampi_test::staircase(comm.size()));
}

TEST_CASE("extract_*() moves the value out") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto result = comm.allgatherv(send_buf(data), recv_displs_out());
  const int* address = result.get<0>().data();
  std::vector<int> buf = result.extract_recv_buf();
  CHECK(buf.data() == address);
  CHECK(buf == nampi_test::staircase(comm.size()));
  CHECK(result.extract_recv_displs() == nampi_test::triangle_displs(comm.size()));
}

TEST_CASE("a call that returns only the receive buffer returns it directly") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  auto buf = comm.allgatherv(send_buf(data));
  static_assert(std::is_same_v<decltype(buf), std::vector<int>>);
  CHECK(buf == nampi_test::staircase(comm.size()));
}

TEST_CASE("a call that returns only one out-parameter returns it directly") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  std::vector<int> out(nampi_test::staircase(comm.size()).size());
  auto counts = comm.allgatherv(send_buf(data), recv_buf(out), recv_counts_out());
  static_assert(std::is_same_v<decltype(counts), std::vector<int>>);
  CHECK(counts == nampi_test::iota_counts(comm.size()));
  CHECK(out == nampi_test::staircase(comm.size()));
}

TEST_CASE("a call with no returned value returns void") {
  nampi::Communicator comm;
  const auto data = my_data(comm);
  std::vector<int> out(nampi_test::staircase(comm.size()).size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size()));
  static_assert(std::is_void_v<decltype(comm.allgatherv(send_buf(data), recv_buf(out)))>);
  static_assert(std::is_void_v<decltype(comm.allgatherv(send_buf(data), recv_buf(out),
                                                        recv_counts_out(counts)))>);
  static_assert(std::is_void_v<decltype(comm.barrier())>);
  comm.allgatherv(send_buf(data), recv_buf(out), recv_counts_out(counts));
  CHECK(out == nampi_test::staircase(comm.size()));
  CHECK(counts == nampi_test::iota_counts(comm.size()));
  comm.barrier();
}

TEST_CASE("single-value calls return the value") {
  nampi::Communicator comm;
  auto sum = comm.allreduce_single(send_buf(comm.rank() + 1), op(std::plus<>{}));
  static_assert(std::is_same_v<decltype(sum), int>);
  CHECK(sum == comm.size() * (comm.size() + 1) / 2);

  auto value = comm.bcast_single(send_buf(comm.rank() == 0 ? 42.5 : -1.0));
  static_assert(std::is_same_v<decltype(value), double>);
  CHECK(value == 42.5);

  auto all = comm.allgather_single(send_buf(comm.rank() * 10));
  static_assert(std::is_same_v<decltype(all), std::vector<int>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == r * 10);
}

TEST_CASE("reduce returns the result at the root and an empty buffer elsewhere") {
  nampi::Communicator comm;
  const int root_rank = comm.size() / 2;
  const auto data = nampi_test::reduction_input(comm.rank(), 3);
  auto out = comm.reduce(send_buf(data), op(std::plus<>{}), root(root_rank));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  if (comm.rank() == root_rank)
    CHECK(out == nampi_test::sum_of_ranks_plus_one(comm.size(), 3));
  else
    CHECK(out.empty());
}
