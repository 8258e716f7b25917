// Partitioned calls (partitioned.hpp): psend_init / precv_init set up once,
// started several times; the sender marks partitions ready one by one, by
// range and by list; the receiver polls parrived() per partition and reads
// each partition as it arrives. Exact MPI call counts (PMPI counter). Rank 0
// sends to rank 1; other ranks take no part.
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

// The value of element j of partition p in round r.
int value(int round, int p, int j) { return 1000 * round + 10 * p + j; }

void fill_partition(std::vector<double>& buf, int round, int p) {
  for (int j = 0; j < per_part; ++j)
    buf[static_cast<std::size_t>(p * per_part + j)] = value(round, p, j);
}

bool partition_holds(const std::vector<double>& buf, int round, int p) {
  for (int j = 0; j < per_part; ++j)
    if (buf[static_cast<std::size_t>(p * per_part + j)] != value(round, p, j)) return false;
  return true;
}

}  // namespace

TEST_CASE(
    "psend_init / precv_init: three starts, partitions marked one by one, by range, by list") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;  // needs a partner
  std::vector<double> buf(parts * per_part, -1.0);
  nampi_pmpi_reset();
  if (comm.rank() == 0) {
    {
      auto send = comm.psend_init(send_buf(buf), partitions(parts), dest(1), tag(3));
      static_assert(std::is_same_v<decltype(send.start()), decltype(send)&>);
      for (int round = 0; round < rounds; ++round) {
        send.start();
        CHECK(send.started());
        if (round == 0) {
          // Each partition's data is written, then that partition is marked ready.
          for (int p = parts - 1; p >= 0; --p) {
            fill_partition(buf, round, p);
            send.pready(p);
          }
        } else if (round == 1) {
          for (int p = 0; p < parts; ++p) fill_partition(buf, round, p);
          send.pready_range(0, 1).pready_range(2, parts - 1);
        } else {
          for (int p = 0; p < parts; ++p) fill_partition(buf, round, p);
          const std::array<int, 2> odd{3, 1};
          send.pready_list({2, 0}).pready_list(std::span<const int>(odd));
        }
        send.wait();
        CHECK_FALSE(send.started());
      }
    }
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Pready", 4},
                                                {"MPI_Pready_list", 2},
                                                {"MPI_Pready_range", 2},
                                                {"MPI_Psend_init", 1},
                                                {"MPI_Request_free", 1},
                                                {"MPI_Start", 3},
                                                {"MPI_Wait", 3}});
  } else if (comm.rank() == 1) {
    unsigned long long polls = 0;
    {
      auto recv = comm.precv_init(recv_buf(buf), partitions(parts), source(0), tag(3));
      for (int round = 0; round < rounds; ++round) {
        recv.start();
        std::array<bool, parts> seen{};
        int arrived = 0;
        while (arrived < parts) {
          for (int p = 0; p < parts; ++p) {
            if (seen[static_cast<std::size_t>(p)]) continue;
            ++polls;
            if (recv.parrived(p)) {
              // Readable before wait(): this partition's values of this round.
              CHECK(partition_holds(buf, round, p));
              seen[static_cast<std::size_t>(p)] = true;
              ++arrived;
            }
          }
        }
        recv.wait();
        for (int p = 0; p < parts; ++p) CHECK(partition_holds(buf, round, p));
      }
    }
    auto calls = nampi_pmpi::snapshot();
    CHECK(calls["MPI_Parrived"] == polls);
    CHECK(polls >= static_cast<unsigned long long>(parts * rounds));
    calls.erase("MPI_Parrived");
    CHECK(calls ==
          call_counts{
              {"MPI_Precv_init", 1}, {"MPI_Request_free", 1}, {"MPI_Start", 3}, {"MPI_Wait", 3}});
  }
}

TEST_CASE("psend_init / precv_init: counts per partition, inferred or given, asked back") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 0) {
    const std::vector<int> data{1, 2, 3, 4, 5, 6, 7, 8};
    nampi_pmpi_reset();
    {
      auto send = comm.psend_init(send_buf(data), partitions(2), send_count_out(), dest(1), tag(4));
      send.start().pready_range(0, 1);
      const int& count = send.wait();  // the view of what was asked back
      CHECK(count == 4);
    }
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Pready_range", 1},
                                                {"MPI_Psend_init", 1},
                                                {"MPI_Request_free", 1},
                                                {"MPI_Start", 1},
                                                {"MPI_Wait", 1}});
  } else if (comm.rank() == 1) {
    std::vector<int> got(8);
    nampi_pmpi_reset();
    {
      // Given explicitly: 8 partitions of one int (MPI's counts per partition).
      auto recv = comm.precv_init(recv_buf(got), partitions(8), recv_count(1), recv_type(MPI_INT),
                                  source(0), tag(4));
      recv.start();
      recv.wait();
    }
    CHECK(got == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{
              {"MPI_Precv_init", 1}, {"MPI_Request_free", 1}, {"MPI_Start", 1}, {"MPI_Wait", 1}});
  }
}

TEST_CASE("psend_init / precv_init: misuse is reported before any MPI call") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  std::vector<long> buf(6, 0);
  if (comm.rank() == 0) {
    nampi_pmpi_reset();
    // 6 elements do not split into 4 partitions: no MPI_Psend_init.
    CHECK_THROWS_WITH_AS((void)comm.psend_init(send_buf(buf), partitions(4), dest(1)),
                         "nampi: psend_init: the buffer size 6 is not a multiple of partitions (4)",
                         nampi::usage_error);
    CHECK_THROWS_WITH_AS((void)comm.psend_init(send_buf(buf), partitions(0), dest(1)),
                         "nampi: psend_init: partitions must be positive, got 0",
                         nampi::usage_error);
    CHECK(nampi_pmpi::snapshot().empty());
    for (long i = 0; i < 6; ++i) buf[static_cast<std::size_t>(i)] = 7 * i;
    auto send = comm.psend_init(send_buf(buf), partitions(3), dest(1), tag(5));
    // Partitions can only be marked in a started round.
    CHECK_THROWS_WITH_AS(send.pready(0),
                         "nampi: psend_init: pready() needs a started call (start first)",
                         nampi::usage_error);
    CHECK_THROWS_AS(send.pready_range(0, 2), nampi::usage_error);
    CHECK_THROWS_AS(send.pready_list({0, 1, 2}), nampi::usage_error);
    send.start();
    CHECK_THROWS_AS(send.start(), nampi::usage_error);  // one round at a time
    send.pready_range(0, 2);
    send.wait();
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{
              {"MPI_Pready_range", 1}, {"MPI_Psend_init", 1}, {"MPI_Start", 1}, {"MPI_Wait", 1}});
  } else if (comm.rank() == 1) {
    std::vector<long> short_buf(5);
    CHECK_THROWS_WITH_AS(
        (void)comm.precv_init(recv_buf(short_buf), partitions(3), source(0), tag(5)),
        "nampi: precv_init: the buffer size 5 is not a multiple of partitions (3)",
        nampi::usage_error);
    auto recv = comm.precv_init(recv_buf(buf), partitions(3), source(0), tag(5));
    CHECK_THROWS_WITH_AS((void)recv.parrived(0),
                         "nampi: precv_init: parrived() needs a started call (start first)",
                         nampi::usage_error);
    recv.start();
    recv.wait();
    CHECK(buf == std::vector<long>{0, 7, 14, 21, 28, 35});
  }
}

#else

TEST_CASE("partitioned calls: not provided by this MPI") {
  MESSAGE(
      "MPI_Psend_init, MPI_Precv_init, MPI_Pready* or MPI_Parrived is not provided: "
      "partitioned calls not tested");
}

#endif
