// Fixed-size buffers (C arrays, std::array, std::span) as receive and in-place buffers, in
// blocking, nonblocking and persistent calls: written where they are (a nonblocking or
// persistent call references them and returns nothing for them), never resized, and one too
// small is a usage_error before any MPI call.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <map>
#include <nampi/nampi.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"
#include "nampi_usage_error_check.hpp"

using namespace nampi::params;

namespace {

using call_counts = std::map<std::string, unsigned long long>;

// 1 + 2 + ... + size: the sum over the ranks of rank + 1.
int sum_of_ranks_plus_one(int size) { return size * (size + 1) / 2; }


}  // namespace

TEST_CASE("C array: send_recv_buf and recv_buf of blocking calls") {
  nampi::Communicator comm;
  const int me = comm.rank() + 1;
  const int sum = sum_of_ranks_plus_one(comm.size());

  int a[4] = {me, 2 * me, 3 * me, 4 * me};
  static_assert(std::is_void_v<decltype(comm.allreduce(send_recv_buf(a), op(std::plus<>{})))>);
  comm.allreduce(send_recv_buf(a), op(std::plus<>{}));
  CHECK(std::vector<int>(a, a + 4) == std::vector<int>{sum, 2 * sum, 3 * sum, 4 * sum});

  const std::vector<int> mine{me, me};
  int out[3] = {-1, -1, -1};
  comm.allreduce(send_buf(mine), recv_buf(out), op(std::plus<>{}));
  CHECK(std::vector<int>(out, out + 3) == std::vector<int>{sum, sum, -1});  // the rest untouched

  int b[3] = {-1, -1, -1};
  if (comm.rank() == 0) b[0] = 7, b[1] = 8, b[2] = 9;
  comm.bcast(send_recv_buf(b));  // the binding's resize_to_fit falls back to no_resize
  CHECK(std::vector<int>(b, b + 3) == std::vector<int>{7, 8, 9});

  int all[4] = {-1, -1, -1, -1};  // at most 4 ranks
  comm.allgather(send_buf(comm.rank()), recv_buf(all));
  for (int r = 0; r < comm.size(); ++r) CHECK(all[r] == r);
  for (int r = comm.size(); r < 4; ++r) CHECK(all[r] == -1);

  int in_place[4] = {-1, -1, -1, -1};
  in_place[comm.rank()] = 10 * comm.rank();
  comm.allgather(send_recv_buf(in_place), recv_count(1));
  for (int r = 0; r < comm.size(); ++r) CHECK(in_place[r] == 10 * r);
}

TEST_CASE("C array, std::array, std::span: recv_buf of recv, sized by a probe") {
  nampi::Communicator comm;
  if (comm.size() < 2 || comm.rank() > 1) return;
  if (comm.rank() == 0) {
    for (int i = 0; i < 3; ++i) comm.send(send_buf(std::vector<int>{i, i + 1}), dest(1), tag(i));
  } else {
    int a[3] = {-1, -1, -1};
    comm.recv(recv_buf(a), source(0), tag(0));
    CHECK(std::vector<int>(a, a + 3) == std::vector<int>{0, 1, -1});
    std::array<int, 2> s{-1, -1};
    comm.recv(recv_buf(s), source(0), tag(1));
    CHECK(s == std::array<int, 2>{1, 2});
    std::vector<int> storage(4, -1);
    std::span<int> view(storage.data() + 1, 2);
    comm.recv(recv_buf(view), source(0), tag(2));
    CHECK(storage == std::vector<int>{-1, 2, 3, -1});
  }
}

TEST_CASE("std::array and std::span in place: allreduce, bcast, sendrecv_replace") {
  nampi::Communicator comm;
  const int me = comm.rank() + 1;
  const int sum = sum_of_ranks_plus_one(comm.size());
  std::array<int, 2> s{me, -me};
  comm.allreduce(send_recv_buf(s), op(std::plus<>{}));
  CHECK(s == std::array<int, 2>{sum, -sum});

  std::vector<int> storage{-1, me, me, -1};
  std::span<int> middle(storage.data() + 1, 2);
  comm.allreduce(send_recv_buf(middle), op(nampi::ops::max<>{}));
  CHECK(storage == std::vector<int>{-1, comm.size(), comm.size(), -1});

  std::vector<int> room(3, -1);
  if (comm.rank() == 0) room = {4, 5, 6};
  std::span<int> whole(room);
  comm.bcast(send_recv_buf(whole));
  CHECK(room == std::vector<int>{4, 5, 6});

  const int right = (comm.rank() + 1) % comm.size(),
            left = (comm.rank() + comm.size() - 1) % comm.size();
  int ring[2] = {comm.rank(), comm.rank()};
  comm.sendrecv_replace(send_recv_buf(ring), dest(right), source(left));
  CHECK(ring[0] == left);
  CHECK(ring[1] == left);
}

TEST_CASE("nonblocking: the result references the caller's fixed-size buffer") {
  nampi::Communicator comm;
  const int me = comm.rank() + 1;
  const int sum = sum_of_ranks_plus_one(comm.size());

  int a[3] = {me, me, me};
  auto pending = comm.iallreduce(send_recv_buf(a), op(std::plus<>{}));
  static_assert(std::is_void_v<decltype(pending.wait())>);  // nothing returned, nothing copied
  pending.wait();
  CHECK(std::vector<int>(a, a + 3) == std::vector<int>(3, sum));

  int b[2] = {-1, -1};
  if (comm.rank() == 0) b[0] = 3, b[1] = 4;
  auto broadcast = comm.ibcast(send_recv_buf(b));
  static_assert(std::is_void_v<decltype(broadcast.wait())>);
  broadcast.wait();
  CHECK(std::vector<int>(b, b + 2) == std::vector<int>{3, 4});

  std::array<int, 2> s{-1, -1};
  const std::vector<int> mine{me, 2 * me};
  auto into_array = comm.iallreduce(send_buf(mine), recv_buf(s), op(std::plus<>{}));
  static_assert(std::is_void_v<decltype(into_array.wait())>);
  into_array.wait();
  CHECK(s == std::array<int, 2>{sum, 2 * sum});

  std::vector<int> storage(2, me);
  std::span<int> view(storage);
  auto into_span = comm.iallreduce(send_recv_buf(view), op(std::plus<>{}));
  into_span.wait();
  CHECK(storage == std::vector<int>(2, sum));

  // A std::array moved in is a value: the result owns it and hands it back.
  auto moved = comm.iallreduce(send_buf(mine), recv_buf(std::array<int, 2>{}), op(std::plus<>{}));
  const std::array<int, 2> back = moved.wait();
  CHECK(back == std::array<int, 2>{sum, 2 * sum});

  if (comm.size() >= 2 && comm.rank() < 2) {
    if (comm.rank() == 0) {
      comm.send(send_buf(std::vector<int>{5, 6}), dest(1));
    } else {
      int got[4] = {-1, -1, -1, -1};
      auto receive = comm.irecv(recv_buf(got), source(0));  // sized by a probe
      static_assert(std::is_void_v<decltype(receive.wait())>);
      receive.wait();
      CHECK(std::vector<int>(got, got + 4) == std::vector<int>{5, 6, -1, -1});
    }
  }
}

#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT) && defined(NAMPI_HAVE_MPI_BCAST_INIT)
TEST_CASE("persistent: fixed-size buffers are read and written at every start") {
  nampi::Communicator comm;
  const int me = comm.rank() + 1;
  const int sum = sum_of_ranks_plus_one(comm.size());

  int a[2] = {0, 0};
  auto step = comm.allreduce_init(send_recv_buf(a), op(std::plus<>{}));
  static_assert(std::is_void_v<decltype(step.wait())>);
  for (int round = 1; round <= 2; ++round) {
    a[0] = round * me;
    a[1] = -me;
    step.start();
    step.wait();
    CHECK(a[0] == round * sum);
    CHECK(a[1] == -sum);
  }

  std::array<int, 2> s{};
  auto broadcast = comm.bcast_init(send_recv_buf(s));
  for (int round = 1; round <= 2; ++round) {
    s = comm.rank() == 0 ? std::array<int, 2>{round, 2 * round} : std::array<int, 2>{-1, -1};
    broadcast.start();
    broadcast.wait();
    CHECK(s == std::array<int, 2>{round, 2 * round});
  }

  std::vector<int> storage(3, -1);
  std::span<int> view(storage.data(), 2);
  const std::vector<int> mine{me, me};
  auto into_span = comm.allreduce_init(send_buf(mine), recv_buf(view), op(std::plus<>{}));
  into_span.start();
  into_span.wait();
  CHECK(storage == std::vector<int>{sum, sum, -1});
}
#endif

TEST_CASE("a fixed-size buffer too small for what nampi computed: usage_error, no MPI call") {
  nampi::Communicator comm;
  const std::vector<int> four{1, 2, 3, 4};

  int two[2] = {-1, -1};
  nampi_pmpi_reset();
  std::string message = usage_error_message(
      [&] { comm.allreduce(send_buf(four), recv_buf(two), op(std::plus<>{})); });
  CHECK(message.find("allreduce: 'recv_buf' holds 2 elements, 4 needed") != std::string::npos);
  CHECK(nampi_pmpi::snapshot() == call_counts{});
  CHECK(std::vector<int>(two, two + 2) == std::vector<int>{-1, -1});

  std::array<int, 2> s{-1, -1};
  nampi_pmpi_reset();
  message = usage_error_message([&] {
    auto pending = comm.iallreduce(send_buf(four), recv_buf(s), op(std::plus<>{}));
    pending.wait();
  });
  CHECK(message.find("iallreduce: 'recv_buf' holds 2 elements, 4 needed") != std::string::npos);
  CHECK(nampi_pmpi::snapshot() == call_counts{});

  std::vector<int> storage(3, -1);
  std::span<int> view(storage);
  nampi_pmpi_reset();
  message = usage_error_message([&] { comm.allgather(send_buf(four), recv_buf(view)); });
  CHECK(message.find("allgather: 'recv_buf' holds 3 elements") != std::string::npos);
  CHECK(nampi_pmpi::snapshot() == call_counts{});
  CHECK(storage == std::vector<int>(3, -1));
}
