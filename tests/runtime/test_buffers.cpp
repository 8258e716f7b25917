// Buffers: referenced vs moved-in receive buffers, resize policies, and the
// containers accepted as send and receive buffers (vector, array, span, C arrays).
//
// Every rank runs every collective; rank r contributes r + 1 copies of r, so
// allgatherv delivers nampi_test::staircase(size) everywhere.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <memory_resource>
#include <nampi/nampi.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

std::size_t total_of(int size) {
  return static_cast<std::size_t>(size) * static_cast<std::size_t>(size + 1) / 2;
}

// {0, 0, 1, 1, ..., size-1, size-1}-style results: k copies of every rank.
std::vector<int> k_each(int size, int k) { return nampi_test::repeat_each(size, k); }

// Runs f and returns the message of the usage_error it throws ("" if none).
template <typename F>
std::string usage_error_message(F&& f) {
  try {
    std::forward<F>(f)();
  } catch (const nampi::usage_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("lvalue recv_buf is written in place and not returned") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  std::vector<int> out(total_of(comm.size()), -1);
  const int* before = out.data();
  static_assert(std::is_void_v<decltype(comm.allgatherv(send_buf(data), recv_buf(out)))>);
  comm.allgatherv(send_buf(data), recv_buf(out));
  CHECK(out == nampi_test::staircase(comm.size()));
  CHECK(out.data() == before);
  // The send buffer is untouched.
  CHECK(data == std::vector<int>(comm.rank() + 1, comm.rank()));
}

TEST_CASE("rvalue recv_buf is moved in and returned") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  std::vector<int> storage(total_of(comm.size()), -1);
  const int* before = storage.data();
  auto out = comm.allgatherv(send_buf(data), recv_buf(std::move(storage)));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == nampi_test::staircase(comm.size()));
  // The very same allocation came back: moved, never copied.
  CHECK(out.data() == before);
}

TEST_CASE("rvalue recv_buf with resize_to_fit is resized and returned") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  auto out = comm.allgatherv(send_buf(data), recv_buf<nampi::resize_to_fit>(std::vector<int>{}));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == nampi_test::staircase(comm.size()));
}

TEST_CASE("rvalue recv_buf: a std::pmr::vector resized to fit keeps its memory resource") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  std::pmr::monotonic_buffer_resource arena;
  std::pmr::vector<int> storage(&arena);
  auto out = comm.allgatherv(send_buf(data), recv_buf<nampi::resize_to_fit>(std::move(storage)));
  static_assert(std::is_same_v<decltype(out), std::pmr::vector<int>>);
  CHECK(std::vector<int>(out.begin(), out.end()) == nampi_test::staircase(comm.size()));
  // The resize kept the caller's allocator: the elements live in the arena.
  CHECK(out.get_allocator().resource() == &arena);
}

TEST_CASE("omitted recv_buf is created with the send element type and returned") {
  nampi::Communicator comm;
  std::vector<double> data(comm.rank() + 1, comm.rank() + 0.5);
  auto out = comm.allgatherv(send_buf(data));
  static_assert(std::is_same_v<decltype(out), std::vector<double>>);
  REQUIRE(out.size() == total_of(comm.size()));
  std::size_t i = 0;
  for (int r = 0; r < comm.size(); ++r)
    for (int k = 0; k <= r; ++k) CHECK(out[i++] == doctest::Approx(r + 0.5));
}

TEST_CASE("no_resize: a too small buffer throws usage_error naming the call and the parameter") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const std::size_t total = total_of(comm.size());

  SUBCASE("explicit no_resize") {
    std::vector<int> out(total - 1, -1);
    const std::string message = usage_error_message(
        [&] { comm.allgatherv(send_buf(data), recv_buf<nampi::no_resize>(out)); });
    CHECK(message.find("allgatherv") != std::string::npos);
    CHECK(message.find("recv_buf") != std::string::npos);
    CHECK(message.find(std::to_string(total)) != std::string::npos);
    CHECK(out.size() == total - 1);
  }
  SUBCASE("the binding's default policy for a caller's buffer is no_resize") {
    std::vector<int> out;
    const std::string message =
        usage_error_message([&] { comm.allgatherv(send_buf(data), recv_buf(out)); });
    CHECK(message.find("allgatherv") != std::string::npos);
    CHECK(message.find("recv_buf") != std::string::npos);
    CHECK(out.empty());
  }
  SUBCASE("the same for an out-parameter such as recv_counts_out(x)") {
    std::vector<int> counts(comm.size() - 1);
    const std::string message = usage_error_message(
        [&] { comm.allgatherv(send_buf(data), recv_counts_out<nampi::no_resize>(counts)); });
    CHECK(message.find("allgatherv") != std::string::npos);
    CHECK(message.find("recv_counts") != std::string::npos);
  }
}

TEST_CASE("no_resize: a big enough buffer keeps its size") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const std::size_t total = total_of(comm.size());
  std::vector<int> out(total + 5, -1);
  comm.allgatherv(send_buf(data), recv_buf<nampi::no_resize>(out));
  CHECK(out.size() == total + 5);
  CHECK(std::vector<int>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(total)) ==
        nampi_test::staircase(comm.size()));
  CHECK(std::vector<int>(out.begin() + static_cast<std::ptrdiff_t>(total), out.end()) ==
        std::vector<int>(5, -1));
}

TEST_CASE("grow_only grows a small buffer") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  std::vector<int> out;
  comm.allgatherv(send_buf(data), recv_buf<nampi::grow_only>(out));
  CHECK(out == nampi_test::staircase(comm.size()));
}

TEST_CASE("grow_only does not shrink a big buffer") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const std::size_t total = total_of(comm.size());
  std::vector<int> out(total + 3, -1);
  comm.allgatherv(send_buf(data), recv_buf<nampi::grow_only>(out));
  REQUIRE(out.size() == total + 3);
  CHECK(std::vector<int>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(total)) ==
        nampi_test::staircase(comm.size()));
  CHECK(std::vector<int>(out.begin() + static_cast<std::ptrdiff_t>(total), out.end()) ==
        std::vector<int>(3, -1));
}

TEST_CASE("resize_to_fit resizes to exactly the received size") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  SUBCASE("from empty") {
    std::vector<int> out;
    comm.allgatherv(send_buf(data), recv_buf<nampi::resize_to_fit>(out));
    CHECK(out == nampi_test::staircase(comm.size()));
  }
  SUBCASE("from too big") {
    std::vector<int> out(total_of(comm.size()) + 7, -1);
    comm.allgatherv(send_buf(data), recv_buf<nampi::resize_to_fit>(out));
    CHECK(out == nampi_test::staircase(comm.size()));
  }
  SUBCASE("out-parameters too: recv_counts_out(x) and recv_displs_out(x)") {
    std::vector<int> counts(17, -1);
    std::vector<int> displs;
    auto out = comm.allgatherv(send_buf(data), recv_counts_out<nampi::resize_to_fit>(counts),
                               recv_displs_out<nampi::resize_to_fit>(displs));
    static_assert(std::is_same_v<decltype(out), std::vector<int>>);
    CHECK(out == nampi_test::staircase(comm.size()));
    CHECK(counts == nampi_test::iota_counts(comm.size()));
    CHECK(displs == nampi_test::triangle_displs(comm.size()));
  }
}

TEST_CASE("std::array as send_buf") {
  nampi::Communicator comm;
  const std::array<int, 2> data{comm.rank(), comm.rank()};
  auto out = comm.allgatherv(send_buf(data));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == k_each(comm.size(), 2));
}

TEST_CASE("std::span as send_buf") {
  nampi::Communicator comm;
  // Only the middle of the vector is sent.
  std::vector<int> storage{-1, comm.rank(), comm.rank(), comm.rank(), -1};
  std::span<const int> middle(storage.data() + 1, 3);
  auto out = comm.allgatherv(send_buf(middle));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == k_each(comm.size(), 3));
}

TEST_CASE("C array as send_buf") {
  nampi::Communicator comm;
  int data[3] = {comm.rank(), comm.rank(), comm.rank()};
  auto out = comm.allgatherv(send_buf(data));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == k_each(comm.size(), 3));
}

TEST_CASE("send_count selects a prefix of the send buffer") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  data.push_back(-1);  // not sent
  auto out = comm.allgatherv(send_buf(data), send_count(comm.rank() + 1));
  CHECK(out == nampi_test::staircase(comm.size()));
}

TEST_CASE("std::span as recv_buf (no_resize)") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  const std::size_t total = total_of(comm.size());

  SUBCASE("exactly large enough") {
    std::vector<int> storage(total, -1);
    std::span<int> view(storage);
    comm.allgatherv(send_buf(data), recv_buf(view));
    CHECK(storage == nampi_test::staircase(comm.size()));
  }
  SUBCASE("larger: the tail is untouched") {
    std::vector<int> storage(total + 2, -1);
    std::span<int> view(storage);
    comm.allgatherv(send_buf(data), recv_buf<nampi::no_resize>(view));
    CHECK(view.size() == total + 2);
    CHECK(storage.back() == -1);
    CHECK(std::vector<int>(storage.begin(), storage.begin() + static_cast<std::ptrdiff_t>(total)) ==
          nampi_test::staircase(comm.size()));
  }
  SUBCASE("too small: usage_error") {
    std::vector<int> storage(total - 1, -1);
    std::span<int> view(storage);
    const std::string message =
        usage_error_message([&] { comm.allgatherv(send_buf(data), recv_buf(view)); });
    CHECK(message.find("allgatherv") != std::string::npos);
    CHECK(message.find("recv_buf") != std::string::npos);
  }
}

TEST_CASE("std::array as recv_buf") {
  nampi::Communicator comm;
  const int data[1] = {comm.rank()};
  std::array<int, 4> out{-1, -1, -1, -1};  // at most 4 ranks
  comm.allgatherv(send_buf(data), recv_buf(out));
  for (int r = 0; r < comm.size(); ++r) CHECK(out[static_cast<std::size_t>(r)] == r);
  for (std::size_t i = static_cast<std::size_t>(comm.size()); i < out.size(); ++i)
    CHECK(out[i] == -1);
}

TEST_CASE("given counts and displacements place the data") {
  nampi::Communicator comm;
  std::vector<int> data(comm.rank() + 1, comm.rank());
  // Reverse the blocks: rank r's data goes last for r = 0.
  const std::vector<int> counts = nampi_test::iota_counts(comm.size());
  std::vector<int> displs(comm.size());
  int offset = 0;
  for (int r = comm.size() - 1; r >= 0; --r) {
    displs[static_cast<std::size_t>(r)] = offset;
    offset += r + 1;
  }
  auto out = comm.allgatherv(send_buf(data), recv_counts(counts), recv_displs(displs));
  std::vector<int> expected;
  for (int r = comm.size() - 1; r >= 0; --r)
    expected.insert(expected.end(), static_cast<std::size_t>(r + 1), r);
  CHECK(out == expected);
}

TEST_CASE("bcast: send_recv_buf is resized at the receivers (binding default resize_to_fit)") {
  nampi::Communicator comm;
  const int root_rank = comm.size() - 1;
  std::vector<int> data =
      comm.rank() == root_rank ? nampi_test::staircase(comm.size()) : std::vector<int>(2, -1);
  static_assert(std::is_void_v<decltype(comm.bcast(send_recv_buf(data), root(root_rank)))>);
  comm.bcast(send_recv_buf(data), root(root_rank));
  CHECK(data == nampi_test::staircase(comm.size()));
}

TEST_CASE("bcast: a given send_recv_count grows a receiver's buffer, never shrinks it") {
  nampi::Communicator comm;
  // An int and two ints of padding: 2 elements span 4 ints, at 0 and 3.
  const auto padded = nampi::datatype::resized(MPI_INT, 0, 3 * sizeof(int));
  const bool at_root = comm.rank() == 0;
  std::vector<int> larger =
      at_root ? std::vector<int>{1, -2, -2, 4, -5, -6} : std::vector<int>(6, -1);
  comm.bcast(send_recv_buf(larger), send_recv_count(2), send_recv_type(padded));
  CHECK(larger == (at_root ? std::vector<int>{1, -2, -2, 4, -5, -6}
                           : std::vector<int>{1, -1, -1, 4, -1, -1}));
  std::vector<int> smaller = at_root ? std::vector<int>{1, -2, -2, 4} : std::vector<int>(1, -1);
  comm.bcast(send_recv_buf(smaller), send_recv_count(2), send_recv_type(padded));
  REQUIRE(smaller.size() == 4);
  CHECK(smaller[0] == 1);
  CHECK(smaller[3] == 4);
  // The count in the buffer's own elements: the same.
  std::vector<int> plain = at_root ? std::vector<int>{7, 8} : std::vector<int>(5, -1);
  comm.bcast(send_recv_buf(plain), send_recv_count(2));
  CHECK(plain == (at_root ? std::vector<int>{7, 8} : std::vector<int>{7, 8, -1, -1, -1}));
  // Without the count, the receivers take the root's size; asked for, resize_to_fit still shrinks.
  std::vector<int> inferred = at_root ? std::vector<int>{7, 8} : std::vector<int>(5, -1);
  comm.bcast(send_recv_buf(inferred));
  CHECK(inferred == std::vector<int>{7, 8});
  std::vector<int> exact = at_root ? std::vector<int>{7, 8} : std::vector<int>(5, -1);
  comm.bcast(send_recv_buf<nampi::resize_to_fit>(exact), send_recv_count(2));
  CHECK(exact == std::vector<int>{7, 8});
}

TEST_CASE("bcast: an rvalue send_recv_buf is returned") {
  nampi::Communicator comm;
  std::vector<int> data = comm.rank() == 0 ? std::vector<int>{7, 8, 9} : std::vector<int>{};
  auto out = comm.bcast(send_recv_buf(std::move(data)));
  static_assert(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == std::vector<int>{7, 8, 9});
}

TEST_CASE("bcast: std::array cannot be resized and is used as it is") {
  nampi::Communicator comm;
  std::array<int, 3> data{-1, -1, -1};
  if (comm.rank() == 0) data = {1, 2, 3};
  comm.bcast(send_recv_buf(data));
  CHECK(data == std::array<int, 3>{1, 2, 3});
}

TEST_CASE("allreduce in place: send_recv_buf is read and written") {
  nampi::Communicator comm;
  std::vector<int> data = nampi_test::reduction_input(comm.rank(), 3);
  const int* before = data.data();
  static_assert(std::is_void_v<decltype(comm.allreduce(send_recv_buf(data), op(std::plus<>{})))>);
  comm.allreduce(send_recv_buf(data), op(std::plus<>{}));
  CHECK(data == nampi_test::sum_of_ranks_plus_one(comm.size(), 3));
  CHECK(data.data() == before);
}
