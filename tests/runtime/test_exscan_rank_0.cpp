// exscan at rank 0: values_on_rank_0 when given, else the op's identity for
// builtin ops (MPI leaves rank 0's result undefined), in every form.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

// Each rank's prefix of op over the values f(0), ..., f(rank - 1); the identity at rank 0.
template <typename T, typename F, typename Op>
T prefix(int rank, F f, Op combine, T identity) {
  T acc = identity;
  for (int r = 0; r < rank; ++r) acc = combine(acc, f(r));
  return acc;
}

template <typename T, typename Op>
void check_single(Op op_value, T identity) {
  nampi::Communicator comm;
  const auto value_of = [](int r) { return static_cast<T>(r % 3 + 1); };
  const T got = comm.exscan_single(send_buf(value_of(comm.rank())), op(op_value));
  CHECK(got == prefix<T>(comm.rank(), value_of, op_value, identity));
}

}  // namespace

TEST_CASE("exscan_single gives rank 0 the identity of each builtin op") {
  check_single<int>(std::plus<>{}, 0);
  check_single<int>(std::multiplies<>{}, 1);
  check_single<int>(nampi::ops::max<>{}, INT_MIN);
  check_single<int>(nampi::ops::min<>{}, INT_MAX);
  check_single<double>(nampi::ops::max<>{}, std::numeric_limits<double>::lowest());
  check_single<double>(nampi::ops::min<>{}, std::numeric_limits<double>::max());
  check_single<double>(std::plus<>{}, 0.0);
  check_single<int>(std::logical_and<>{}, 1);
  check_single<int>(std::logical_or<>{}, 0);
  check_single<int>(nampi::ops::logical_xor<>{}, 0);
  check_single<unsigned>(std::bit_and<>{}, ~0u);
  check_single<unsigned>(std::bit_or<>{}, 0u);
  check_single<unsigned>(std::bit_xor<>{}, 0u);
}

TEST_CASE("exscan_single with an MPI_Op handle, and with values_on_rank_0") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  CHECK(comm.exscan_single(send_buf(rank + 1), op(MPI_SUM)) == rank * (rank + 1) / 2);
  CHECK(comm.exscan_single(send_buf(rank + 1), op(MPI_PROD)) ==
        prefix<int>(rank, [](int r) { return r + 1; }, std::multiplies<>{}, 1));
  const int got = comm.exscan_single(send_buf(rank + 1), op(std::plus<>{}), values_on_rank_0(-7));
  CHECK(got == (rank == 0 ? -7 : rank * (rank + 1) / 2));
  // A user op has no known identity, but values_on_rank_0 still sets rank 0's result.
  const auto add = [](int a, int b) { return a + b; };
  const int user = comm.exscan_single(send_buf(rank + 1), op(add), values_on_rank_0(5));
  CHECK(user == (rank == 0 ? 5 : rank * (rank + 1) / 2));
}

TEST_CASE("exscan of a buffer: identity, one value for all, or a buffer at rank 0") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const std::vector<int> data = nampi_test::reduction_input(rank, 3);
  const std::vector<int> others =
      rank == 0 ? std::vector<int>{} : nampi_test::scan_of_inputs(rank - 1, 3);
  const auto expect = [&](std::vector<int> at_0) { return rank == 0 ? at_0 : others; };

  CHECK(comm.exscan(send_buf(data), op(std::plus<>{})) == expect({0, 0, 0}));
  const std::vector<int> max_functor = comm.exscan(send_buf(data), op(nampi::ops::max<>{}));
  const std::vector<int> max_handle = comm.exscan(send_buf(data), op(MPI_MAX));
  CHECK(max_functor == max_handle);
  if (rank == 0) CHECK(max_functor == std::vector<int>(3, INT_MIN));
  CHECK(comm.exscan(send_buf(data), op(std::plus<>{}), values_on_rank_0(9)) == expect({9, 9, 9}));
  CHECK(comm.exscan(send_buf(data), op(std::plus<>{}),
                    values_on_rank_0(std::vector<int>{1, 2, 3})) == expect({1, 2, 3}));
  // A braced list, as send_buf({1, 2, 3}) (what KaMPIng's users write): moved in as a vector.
  CHECK(comm.exscan(send_buf(data), op(std::plus<>{}), values_on_rank_0({4, 5, 6})) ==
        expect({4, 5, 6}));
  // A receive buffer the caller gives, with garbage in it.
  std::vector<int> out(3, -1);
  comm.exscan(send_buf(data), recv_buf(out), op(std::plus<>{}));
  CHECK(out == expect({0, 0, 0}));
  // A values buffer too short is a usage error on every rank, before the call communicates
  // (checked in every build: nampi reads it), so no rank is left waiting in MPI_Exscan.
  CHECK_THROWS_WITH_AS((void)comm.exscan(send_buf(data), op(std::plus<>{}),
                                         values_on_rank_0(std::vector<int>{1, 2}), recv_buf(out)),
                       "nampi: exscan: 'values_on_rank_0' holds 2 values, 3 needed (rank 0's "
                       "result, laid out like 'recv_buf')",
                       nampi::usage_error);
  // A longer one is read only as far as the result reaches.
  CHECK(comm.exscan(send_buf(data), op(std::plus<>{}),
                    values_on_rank_0(std::vector<int>{4, 5, 6, 7})) == expect({4, 5, 6}));
}

// A sum on the padded type below (MPICH reduces with builtin ops on builtin datatypes only):
// the first int of each element of three.
static void padded_sum(void* in, void* inout, int* length, MPI_Datatype*) {
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *length; ++i) b[3 * i] += a[3 * i];
}

TEST_CASE("exscan with a derived datatype: rank 0's result at the datatype's positions") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  // An int and two ints of padding: 2 elements span 4 ints, at 0 and 3.
  const auto padded = nampi::datatype::resized(MPI_INT, 0, 3 * sizeof(int));
  MPI_Op sum = MPI_OP_NULL;
  MPI_Op_create(&padded_sum, 1, &sum);
  const std::vector<int> data{rank + 1, -100, -100, 10 * (rank + 1), -100, -100};
  const int prefix = rank * (rank + 1) / 2;  // 1 + 2 + ... + rank
  const auto expect = [&](int first, int second) {
    return rank == 0 ? std::vector<int>{first, -1, -1, second, -1, -1}
                     : std::vector<int>{prefix, -1, -1, 10 * prefix, -1, -1};
  };
  const auto scan = [&](auto... more) {
    std::vector<int> out(6, -1);  // the padding is not the result: it stays as it was
    comm.exscan(send_buf(data), send_count(2), send_type(padded), recv_buf(out), op(sum), more...);
    return out;
  };
  // values_on_rank_0 laid out like recv_buf (its padding is not copied either).
  CHECK(scan(values_on_rank_0(std::vector<int>{5, -7, -7, 6, -7, -7})) == expect(5, 6));
  CHECK(scan(values_on_rank_0(std::vector<int>{5, -7, -7, 6})) == expect(5, 6));
  CHECK(scan(values_on_rank_0(9)) == expect(9, 9));
  CHECK(scan() == expect(-1, -1));  // a user op: no identity, rank 0's buffer as it was
  // As a C handle too (its extent asked of MPI).
  std::vector<int> out(6, -1);
  comm.exscan(send_buf(data), send_count(2), send_type(padded.get()), recv_buf(out), op(sum),
              values_on_rank_0(std::vector<int>{5, -7, -7, 6}));
  CHECK(out == expect(5, 6));
  // Two values are not laid out like recv_buf (2 elements span 4 ints): an error on every rank
  // before the call, so the next collective finds every rank in step.
  CHECK_THROWS_WITH_AS(scan(values_on_rank_0(std::vector<int>{5, 6})),
                       "nampi: exscan: 'values_on_rank_0' holds 2 values, 4 needed (rank 0's "
                       "result, laid out like 'recv_buf')",
                       nampi::usage_error);
  CHECK(scan(values_on_rank_0(std::vector<int>{1, 0, 0, 2})) == expect(1, 2));
  MPI_Op_free(&sum);
}

TEST_CASE("iexscan and iexscan_single set rank 0's result too") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const std::vector<int> data = nampi_test::reduction_input(rank, 3);
  auto pending = comm.iexscan(send_buf(data), op(std::multiplies<>{}));
  const std::vector<int> got = pending.wait();
  if (rank == 0) CHECK(got == std::vector<int>(3, 1));
  const int mine = rank + 1;
  auto single = comm.iexscan_single(send_buf(mine), op(nampi::ops::min<>{}));
  const int m = single.wait();
  CHECK(m == (rank == 0 ? INT_MAX : 1));
  // A `_single` call's wait() returns its one value alone (the value moved in is not handed back).
  auto given = comm.iexscan_single(send_buf(rank + 1), op(std::plus<>{}), values_on_rank_0(4));
  CHECK(given.wait() == (rank == 0 ? 4 : rank * (rank + 1) / 2));
}

TEST_CASE("exscan in place: rank 0's buffer becomes the identity once the call completes") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const std::vector<int> others =
      rank == 0 ? std::vector<int>{} : nampi_test::scan_of_inputs(rank - 1, 3);
  std::vector<int> data = nampi_test::reduction_input(rank, 3);
  comm.exscan(send_recv_buf(data), op(std::plus<>{}));
  CHECK(data == (rank == 0 ? std::vector<int>(3, 0) : others));

  data = nampi_test::reduction_input(rank, 3);
  auto pending = comm.iexscan(send_recv_buf(std::move(data)), op(std::plus<>{}));
  const std::vector<int> got = pending.wait();
  CHECK(got == (rank == 0 ? std::vector<int>(3, 0) : others));

  // Only the first send_recv_count elements are the result.
  std::vector<int> longer = nampi_test::reduction_input(rank, 3);
  longer.push_back(-5);
  comm.exscan(send_recv_buf(longer), send_recv_count(3), op(nampi::ops::max<>{}));
  if (rank == 0) CHECK(longer == std::vector<int>{INT_MIN, INT_MIN, INT_MIN, -5});
}

#if defined(NAMPI_HAVE_MPI_EXSCAN_INIT)
TEST_CASE("exscan_init: rank 0's receive buffer holds the identity at every start") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  std::vector<int> data = nampi_test::reduction_input(rank, 3);
  auto scan = comm.exscan_init(send_buf(data), op(std::plus<>{}));
  for (int round = 0; round < 2; ++round) {
    for (int& x : data) x += round;  // read again at each start
    scan.start();
    const std::vector<int>& got = scan.wait();
    if (rank == 0) {
      CHECK(got == std::vector<int>(3, 0));
    } else {
      std::vector<int> expected = nampi_test::scan_of_inputs(rank - 1, 3);
      for (int& x : expected) x += rank * (round == 0 ? 0 : 1);
      CHECK(got == expected);
    }
  }
}

TEST_CASE("exscan_init in place: rank 0's buffer becomes the identity at each completion") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  std::vector<int> data(3);
  auto scan = comm.exscan_init(send_recv_buf(data), op(std::multiplies<>{}));
  for (int round = 0; round < 2; ++round) {
    std::fill(data.begin(), data.end(), rank + 1 + round);  // the results replaced the input
    scan.start();
    scan.wait();
    int expected = 1;
    for (int r = 0; r < rank; ++r) expected *= r + 1 + round;
    CHECK(data == std::vector<int>(3, expected));
  }
}
#endif
