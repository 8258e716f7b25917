// Partitioned calls (partitioned.hpp): psend_init / precv_init set up once,
// started several times; the sender marks partitions ready one by one, by
// range and by list; the receiver polls parrived() per partition and reads
// each partition as it arrives. Exact MPI call counts (PMPI counter). Every
// rank sends to its right neighbour and receives from its left one.
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

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

#if defined(NAMPI_HAVE_MPI_PSEND_INIT) && defined(NAMPI_HAVE_MPI_PRECV_INIT) && \
    defined(NAMPI_HAVE_MPI_PREADY) && defined(NAMPI_HAVE_MPI_PREADY_RANGE) &&   \
    defined(NAMPI_HAVE_MPI_PREADY_LIST) && defined(NAMPI_HAVE_MPI_PARRIVED)

namespace {

constexpr int parts = 4;
constexpr int per_part = 3;
constexpr int rounds = 3;

// The value of element j of partition p that rank `from` sends in round r.
double value(int from, int round, int p, int j) { return 10000 * from + 1000 * round + 10 * p + j; }

void fill_partition(std::vector<double>& buf, int from, int round, int p) {
  for (int j = 0; j < per_part; ++j)
    buf[static_cast<std::size_t>(p * per_part + j)] = value(from, round, p, j);
}

bool partition_holds(const std::vector<double>& buf, int from, int round, int p) {
  for (int j = 0; j < per_part; ++j)
    if (buf[static_cast<std::size_t>(p * per_part + j)] != value(from, round, p, j)) return false;
  return true;
}

struct ring {
  nampi::Communicator comm;
  int rank = comm.rank();
  int right = (comm.rank() + 1) % comm.size();
  int left = (comm.rank() + comm.size() - 1) % comm.size();
};

}  // namespace

// Every rank sends to its right and receives from its left (on one rank, from
// itself): Open MPI 5 sets partitioned communication up, on its first use, with
// a duplicate of MPI_COMM_WORLD that completes only once every rank uses it.
TEST_CASE(
    "psend_init / precv_init on a ring: three starts, partitions marked one by one, by range, by "
    "list; parrived polled per partition") {
  ring r;
  std::vector<double> out(parts * per_part, -1.0);
  std::vector<double> in(parts * per_part, -1.0);
  unsigned long long polls = 0;
  nampi_pmpi_reset();
  {
    auto send = r.comm.psend_init(send_buf(out), partitions(parts), dest(r.right), tag(3));
    auto recv = r.comm.precv_init(recv_buf(in), partitions(parts), source(r.left), tag(3));
    static_assert(std::is_same_v<decltype(send.start()), decltype(send)&>);
    static_assert(decltype(send)::side == nampi::partition_side::send);
    static_assert(decltype(recv)::side == nampi::partition_side::recv);
    for (int round = 0; round < rounds; ++round) {
      send.start();
      recv.start();
      CHECK(send.started());
      CHECK(recv.started());
      if (round == 0) {
        // Each partition's data is written, then that partition is marked ready.
        for (int p = parts - 1; p >= 0; --p) {
          fill_partition(out, r.rank, round, p);
          send.pready(p);
        }
      } else if (round == 1) {
        for (int p = 0; p < parts; ++p) fill_partition(out, r.rank, round, p);
        send.pready_range(0, 1).pready_range(2, parts - 1);
      } else {
        for (int p = 0; p < parts; ++p) fill_partition(out, r.rank, round, p);
        const std::array<int, 2> odd{3, 1};
        send.pready_list({2, 0}).pready_list(std::span<const int>(odd));
      }
      std::array<bool, parts> seen{};
      int arrived = 0;
      while (arrived < parts) {
        for (int p = 0; p < parts; ++p) {
          if (seen[static_cast<std::size_t>(p)]) continue;
          ++polls;
          if (recv.parrived(p)) {
            // Readable before wait(): this partition's values of this round.
            CHECK(partition_holds(in, r.left, round, p));
            seen[static_cast<std::size_t>(p)] = true;
            ++arrived;
          }
        }
      }
      send.wait();
      recv.wait();
      CHECK_FALSE(send.started());
      CHECK_FALSE(recv.started());
      for (int p = 0; p < parts; ++p) CHECK(partition_holds(in, r.left, round, p));
    }
  }
  auto calls = nampi_pmpi::snapshot();
  CHECK(calls["MPI_Parrived"] == polls);
  CHECK(polls >= static_cast<unsigned long long>(parts * rounds));
  calls.erase("MPI_Parrived");
  CHECK(calls == call_counts{{"MPI_Pready", 4},
                             {"MPI_Pready_list", 2},
                             {"MPI_Pready_range", 2},
                             {"MPI_Precv_init", 1},
                             {"MPI_Psend_init", 1},
                             {"MPI_Request_free", 2},
                             {"MPI_Start", 6},
                             {"MPI_Wait", 6}});
}

TEST_CASE(
    "psend_init / precv_init: counts per partition, inferred or given, asked back; start_all") {
  ring r;
  const std::vector<int> data{r.rank, 2, 3, 4, 5, 6, 7, 8};
  std::vector<int> got(8);
  nampi_pmpi_reset();
  {
    auto send =
        r.comm.psend_init(send_buf(data), partitions(2), send_count_out(), dest(r.right), tag(4));
    // Given explicitly: 8 partitions of one int (MPI's counts are per partition).
    auto recv = r.comm.precv_init(recv_buf(got), partitions(8), recv_count(1), recv_type(MPI_INT),
                                  source(r.left), tag(4));
    nampi::start_all(send, recv);
    send.pready_range(0, 1);
    const int& count = send.wait();  // the view of what was asked back
    CHECK(count == 4);
    recv.wait();
  }
  CHECK(got == std::vector<int>{r.left, 2, 3, 4, 5, 6, 7, 8});
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Pready_range", 1},
                                              {"MPI_Precv_init", 1},
                                              {"MPI_Psend_init", 1},
                                              {"MPI_Request_free", 2},
                                              {"MPI_Startall", 1},
                                              {"MPI_Wait", 2}});
}

TEST_CASE("psend_init / precv_init: misuse is reported before any MPI call") {
  ring r;
  std::vector<long> out(6, 0);
  std::vector<long> in(6, -1);
  std::vector<long> short_buf(5);
  nampi_pmpi_reset();
  // No partitions at all: checked in every build (nampi divides the buffer by it).
  CHECK_THROWS_WITH_AS((void)r.comm.psend_init(send_buf(out), partitions(0), dest(r.right)),
                       "nampi: psend_init: partitions must be positive, got 0", nampi::usage_error);
#if NAMPI_ASSERTION_LEVEL > 0  // checks of the caller's values and of the call's state (off with NDEBUG)
  // 6 elements do not split into 4 partitions, 5 not into 3: no MPI call.
  CHECK_THROWS_WITH_AS((void)r.comm.psend_init(send_buf(out), partitions(4), dest(r.right)),
                       "nampi: psend_init: the buffer size 6 is not a multiple of partitions (4)",
                       nampi::usage_error);
  CHECK_THROWS_WITH_AS((void)r.comm.precv_init(recv_buf(short_buf), partitions(3), source(r.left)),
                       "nampi: precv_init: the buffer size 5 is not a multiple of partitions (3)",
                       nampi::usage_error);
#endif
  CHECK(nampi_pmpi::snapshot().empty());
  for (long i = 0; i < 6; ++i) out[static_cast<std::size_t>(i)] = 7 * i + r.rank;
  {
    auto send = r.comm.psend_init(send_buf(out), partitions(3), dest(r.right), tag(5));
    auto recv = r.comm.precv_init(recv_buf(in), partitions(3), source(r.left), tag(5));
#if NAMPI_ASSERTION_LEVEL > 0
    // Partitions can only be marked or polled in a started round.
    CHECK_THROWS_WITH_AS(send.pready(0),
                         "nampi: psend_init: pready() needs a started call (start first)",
                         nampi::usage_error);
    CHECK_THROWS_AS(send.pready_range(0, 2), nampi::usage_error);
    CHECK_THROWS_AS(send.pready_list({0, 1, 2}), nampi::usage_error);
    CHECK_THROWS_WITH_AS((void)recv.parrived(0),
                         "nampi: precv_init: parrived() needs a started call (start first)",
                         nampi::usage_error);
#endif
    send.start();
#if NAMPI_ASSERTION_LEVEL > 0
    CHECK_THROWS_AS(send.start(), nampi::usage_error);  // one round at a time
#endif
    recv.start();
    send.pready_range(0, 2);
    send.wait();
    recv.wait();
  }
  std::vector<long> expected(6);
  for (long i = 0; i < 6; ++i) expected[static_cast<std::size_t>(i)] = 7 * i + r.left;
  CHECK(in == expected);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Pready_range", 1},
                                              {"MPI_Precv_init", 1},
                                              {"MPI_Psend_init", 1},
                                              {"MPI_Request_free", 2},
                                              {"MPI_Start", 2},
                                              {"MPI_Wait", 2}});
}

#else

TEST_CASE("partitioned calls: not provided by this MPI") {
  MESSAGE(
      "MPI_Psend_init, MPI_Precv_init, MPI_Pready* or MPI_Parrived is not provided: "
      "partitioned calls not tested");
}

#endif
