// Serialized buffers with one value per rank in the nonblocking calls:
// iscatter(v) and ialltoall(v) serialize when they start (the result owns the
// bytes, so the values may change at once), exchange the byte counts with a
// blocking MPI_Scatter / MPI_Alltoall, then start MPI_Iscatterv /
// MPI_Ialltoallv, and deserialize in wait()/test(). Each case checks values and
// the exact MPI calls.

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "serialization_test_types.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;
using nampi_test::dict;
using nampi_test::record;

namespace {

// What `from` sends to `to`: sizes differ with both.
record record_for(int from, int to) {
  return {std::string(static_cast<std::size_t>(from) + 1, static_cast<char>('a' + to)),
          std::vector<double>(static_cast<std::size_t>(from * 50 + to), from - to), 10 * from + to};
}

dict dict_for(int from, int to) {
  dict d;
  for (int i = 0; i <= from; ++i)
    d["k" + std::to_string(i)] = std::vector<int>(static_cast<std::size_t>(to), i);
  return d;
}

std::vector<record> records_from(int from, int size) {
  std::vector<record> out;
  for (int to = 0; to < size; ++to) out.push_back(record_for(from, to));
  return out;
}

}  // namespace

TEST_CASE("iscatterv: blocking MPI_Scatter of the sizes, MPI_Iscatterv; the values may change") {
  nampi::Communicator comm;
  for (int root_rank = 0; root_rank < comm.size(); ++root_rank) {
    std::vector<record> values;
    if (comm.rank() == root_rank) values = records_from(root_rank, comm.size());
    nampi_pmpi_reset();
    auto r = comm.iscatterv(send_buf(nampi::as_serialized(values)), root(root_rank));
    values.assign(values.size(), record{});  // serialized when the call started
    auto mine = r.wait();
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Iscatterv", 1}, {"MPI_Scatter", 1}, {"MPI_Wait", 1}});
    static_assert(std::is_same_v<decltype(mine), record>);
    CHECK(mine == record_for(root_rank, comm.rank()));
  }
}

TEST_CASE("iscatter is served by iscatterv; into the caller's object, written by test()") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  std::vector<dict> values;
  if (comm.rank() == last)
    for (int to = 0; to < comm.size(); ++to) values.push_back(dict_for(last, to));
  dict into = dict_for(7, 7);
  nampi_pmpi_reset();
  auto r = comm.iscatter(send_buf(nampi::as_serialized(std::move(values))),
                         recv_buf(nampi::as_serialized(into)), root(last));
  CHECK(into == dict_for(7, 7));  // nothing is written before completion
  unsigned long long polls = 1;
  while (!r.test()) ++polls;
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Iscatterv", 1}, {"MPI_Scatter", 1}, {"MPI_Test", polls}});
  CHECK(into == dict_for(last, comm.rank()));
}

TEST_CASE("ialltoallv: blocking MPI_Alltoall of the sizes, MPI_Ialltoallv; wait() deserializes") {
  nampi::Communicator comm;
  std::vector<record> values = records_from(comm.rank(), comm.size());
  nampi_pmpi_reset();
  auto r = comm.ialltoallv(send_buf(nampi::as_serialized(values)));
  values.clear();  // serialized when the call started
  auto got = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Alltoall", 1}, {"MPI_Ialltoallv", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(got), std::vector<record>>);
  REQUIRE(got.size() == static_cast<std::size_t>(comm.size()));
  for (int from = 0; from < comm.size(); ++from)
    CHECK(got[static_cast<std::size_t>(from)] == record_for(from, comm.rank()));
}

TEST_CASE("ialltoall of moved-in maps is served by ialltoallv") {
  nampi::Communicator comm;
  std::vector<dict> values;
  for (int to = 0; to < comm.size(); ++to) values.push_back(dict_for(comm.rank(), to));
  nampi_pmpi_reset();
  auto r = comm.ialltoall(send_buf(nampi::as_serialized(std::move(values))));
  auto got = r.wait();
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Alltoall", 1}, {"MPI_Ialltoallv", 1}, {"MPI_Wait", 1}});
  static_assert(std::is_same_v<decltype(got), std::vector<dict>>);
  REQUIRE(got.size() == static_cast<std::size_t>(comm.size()));
  for (int from = 0; from < comm.size(); ++from)
    CHECK(got[static_cast<std::size_t>(from)] == dict_for(from, comm.rank()));
}
