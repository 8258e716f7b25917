// The programs of issue 32 that hung, gave a silently wrong result or did not compile, as a
// user wrote them, in the release + AddressSanitizer build of the safety tests (the given
// sizes, case 3, are test_given_sizes.cpp; case 5, an op taking another type, is the
// compile-fail case allreduce_single_op_takes_other_type).
#include <doctest/doctest.h>

#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

TEST_CASE("case 1: a wildcard receive on the parent never takes a range collective's message") {
  // Before: on 3 ranks rank 0's receive took the broadcast's message (tag 32754), and the
  // broadcast hung. The receive is posted first and completed by the program's own message.
  nampi::Communicator world;
  const int rank = world.rank(), size = world.size();
  auto r = world.range(first(0), last(size - 1));
  auto user = world.irecv<int>(recv_count(1), status_out());  // any source, any tag
  const int root_rank = size > 1 ? 1 : 0;
  const int x = r.bcast_single(send_buf(rank == root_rank ? 17 : -1), root(root_rank));
  CHECK(x == 17);
  CHECK_FALSE(user.test());
  world.barrier();
  world.send(send_buf(100 + rank), dest((rank + 1) % size), tag(32754));
  auto [value, status] = user.wait();
  const int left = (rank + size - 1) % size;
  CHECK(value == std::vector<int>{100 + left});
  CHECK(status.MPI_SOURCE == left);
  CHECK(status.MPI_TAG == 32754);
}

TEST_CASE("case 2: two collectives in flight on overlapping ranges, waited in reverse order") {
  // Before: on 3 ranks a = 5 and b = 4 instead of 3 and 6, without an error.
  nampi::Communicator world;
  const int rank = world.rank(), size = world.size();
  auto all = world.range(first(0), last(size - 1));
  auto same = world.range(first(0), last(size - 1));
  auto a = all.iallreduce_single(send_buf(rank), op(std::plus<>{}));
  auto b = same.iallreduce_single(send_buf(2 * rank), op(std::plus<>{}));
  const int got_b = b.wait();
  const int got_a = a.wait();
  CHECK(got_a == size * (size - 1) / 2);
  CHECK(got_b == size * (size - 1));
  // Three in flight, on the whole range and on two that overlap it.
  auto c1 = all.iallreduce_single(send_buf(1), op(std::plus<>{}));
  auto c2 = same.iallreduce_single(send_buf(10), op(std::plus<>{}));
  auto c3 = all.iallreduce_single(send_buf(100), op(std::plus<>{}));
  CHECK(c3.wait() == 100 * size);
  CHECK(c1.wait() == size);
  CHECK(c2.wait() == 10 * size);
}

TEST_CASE("case 4: a C array as the buffer a call writes") {
  // Before: did not compile (slot.hpp: function returning an array).
  nampi::Communicator comm;
  const int size = comm.size();
  int a[4] = {1, 2, 3, 4};
  comm.allreduce(send_recv_buf(a), op(std::plus<>{}));
  CHECK(a[0] == size);
  CHECK(a[3] == 4 * size);
  int out[4] = {0, 0, 0, 0};
  const int in[4] = {1, 2, 3, 4};
  comm.allreduce(send_buf(in), recv_buf(out), op(std::plus<>{}));
  CHECK(out[1] == 2 * size);
  // Its fixed size is checked: four ints cannot hold what 8 ranks' gather brings.
  if (size > 4)
    CHECK_THROWS_AS(comm.allgather(send_buf(in[0]), recv_buf(out)), nampi::usage_error);
}
