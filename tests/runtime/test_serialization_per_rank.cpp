// Serialized buffers with one value per rank (nampi/serialization.hpp):
// scatter(v) sends the root's value i to rank i, alltoall(v) every rank's value
// j to rank j. Each value is serialized on its own; the byte counts come from
// the values. Each case checks the values received and the exact MPI calls:
// scatterv is one MPI_Scatter of the byte counts and one MPI_Scatterv of the
// bytes, alltoallv one MPI_Alltoall and one MPI_Alltoallv; scatter and
// alltoall are served by them.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cereal/archives/xml.hpp>
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
  return {"from " + std::to_string(from) + std::string(static_cast<std::size_t>(to) * 5, '>'),
          std::vector<double>(static_cast<std::size_t>(from + 2 * to), 0.25 * from + to),
          10 * from + to};
}

dict dict_for(int from, int to) {
  dict d;
  for (int i = 0; i < from + to; ++i)
    d["k" + std::to_string(i)] = std::vector<int>(static_cast<std::size_t>(i + to), from - i);
  return d;  // empty from 0 to 0
}

// The root's values: one per rank.
template <typename F>
auto values_from(int from, int size, F make) {
  std::vector<decltype(make(0, 0))> out;
  for (int to = 0; to < size; ++to) out.push_back(make(from, to));
  return out;
}

using xml_archive = nampi::archive<cereal::XMLOutputArchive, cereal::XMLInputArchive>;

}  // namespace

TEST_CASE("scatterv of serialized structs from every root: MPI_Scatter, MPI_Scatterv") {
  nampi::Communicator comm;
  for (int root_rank = 0; root_rank < comm.size(); ++root_rank) {
    // Every rank makes the same call; the others' values are not sent (empty here).
    std::vector<record> values;
    if (comm.rank() == root_rank) values = values_from(root_rank, comm.size(), record_for);
    nampi_pmpi_reset();
    auto mine = comm.scatterv(send_buf(nampi::as_serialized(values)), root(root_rank));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Scatter", 1}, {"MPI_Scatterv", 1}});
    static_assert(std::is_same_v<decltype(mine), record>);
    CHECK(mine == record_for(root_rank, comm.rank()));
  }
}

TEST_CASE("scatter of serialized maps is served by scatterv; default root 0") {
  nampi::Communicator comm;
  std::vector<dict> values;
  if (comm.rank() == 0) values = values_from(0, comm.size(), dict_for);
  nampi_pmpi_reset();
  auto mine = comm.scatter(send_buf(nampi::as_serialized(values)));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Scatter", 1}, {"MPI_Scatterv", 1}});
  static_assert(std::is_same_v<decltype(mine), dict>);
  CHECK(mine == dict_for(0, comm.rank()));
}

TEST_CASE("scatter into as_deserializable (returned) and into the caller's object (written)") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  std::vector<record> values;
  if (comm.rank() == last) values = values_from(last, comm.size(), record_for);

  auto got = comm.scatter(send_buf(nampi::as_serialized(values)),
                          recv_buf(nampi::as_deserializable<record>()), root(last));
  static_assert(std::is_same_v<decltype(got), record>);
  CHECK(got == record_for(last, comm.rank()));

  record into = record_for(99, 99);
  nampi_pmpi_reset();
  comm.scatterv(send_buf(nampi::as_serialized(values)), recv_buf(nampi::as_serialized(into)),
                root(last));
  static_assert(std::is_void_v<decltype(comm.scatterv(send_buf(nampi::as_serialized(values)),
                                                      recv_buf(nampi::as_serialized(into))))>);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Scatter", 1}, {"MPI_Scatterv", 1}});
  CHECK(into == record_for(last, comm.rank()));
}

TEST_CASE("scatterv of moved-in strings with the XML archive, the byte counts asked back") {
  nampi::Communicator comm;
  std::vector<std::string> words;
  if (comm.rank() == 0)
    for (int to = 0; to < comm.size(); ++to)
      words.push_back(std::string(static_cast<std::size_t>(to) * 3, 'w'));
  auto [mine, bytes] = comm.scatterv(send_buf(nampi::as_serialized<xml_archive>(std::move(words))),
                                     recv_count_out());
  static_assert(std::is_same_v<decltype(mine), std::string>);
  CHECK(mine == std::string(static_cast<std::size_t>(comm.rank()) * 3, 'w'));
  CHECK(bytes > static_cast<MPI_Count>(mine.size()));  // XML text around the string
}

TEST_CASE("scatter: a root range that does not hold one value per rank is a usage_error") {
  // On MPI_COMM_SELF: the root throws before any MPI call, with no rank left waiting.
  nampi::Communicator self(MPI_COMM_SELF);
  const std::vector<int> two{1, 2};
  nampi_pmpi_reset();
  CHECK_THROWS_WITH_AS(self.scatter(send_buf(nampi::as_serialized(two))),
                       "nampi: scatterv: serialized 'send_buf' holds 2 values, one per rank (1) "
                       "needed",
                       nampi::usage_error);
  CHECK(nampi_pmpi::snapshot() == call_counts{});
}

TEST_CASE("alltoallv of serialized structs: MPI_Alltoall of the sizes, MPI_Alltoallv") {
  nampi::Communicator comm;
  const std::vector<record> values = values_from(comm.rank(), comm.size(), record_for);
  nampi_pmpi_reset();
  auto got = comm.alltoallv(send_buf(nampi::as_serialized(values)));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Alltoall", 1}, {"MPI_Alltoallv", 1}});
  static_assert(std::is_same_v<decltype(got), std::vector<record>>);
  REQUIRE(got.size() == static_cast<std::size_t>(comm.size()));
  for (int from = 0; from < comm.size(); ++from)
    CHECK(got[static_cast<std::size_t>(from)] == record_for(from, comm.rank()));
}

TEST_CASE("alltoall of moved-in serialized maps is served by alltoallv") {
  nampi::Communicator comm;
  nampi_pmpi_reset();
  auto got = comm.alltoall(send_buf(nampi::as_serialized<nampi::portable_binary_archive>(
      values_from(comm.rank(), comm.size(), dict_for))));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Alltoall", 1}, {"MPI_Alltoallv", 1}});
  static_assert(std::is_same_v<decltype(got), std::vector<dict>>);
  REQUIRE(got.size() == static_cast<std::size_t>(comm.size()));
  for (int from = 0; from < comm.size(); ++from)
    CHECK(got[static_cast<std::size_t>(from)] == dict_for(from, comm.rank()));
}

TEST_CASE("alltoallv with the byte counts asked back: one serialized size per rank") {
  nampi::Communicator comm;
  const auto values = values_from(comm.rank(), comm.size(), record_for);
  auto [got, received, sent] =
      comm.alltoallv(send_buf(nampi::as_serialized(values)), recv_counts_out(), send_counts_out());
  REQUIRE(got.size() == static_cast<std::size_t>(comm.size()));
  REQUIRE(received.size() == static_cast<std::size_t>(comm.size()));
  REQUIRE(sent.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    CHECK(got[i] == record_for(r, comm.rank()));
    // cereal's binary archive: an 8-byte size before the string and the vector.
    const auto size_of = [](const record& x) {
      return static_cast<int>(8 + x.name.size() + 8 + x.values.size() * sizeof(double) +
                              sizeof(int));
    };
    CHECK(received[i] == size_of(record_for(r, comm.rank())));
    CHECK(sent[i] == size_of(record_for(comm.rank(), r)));
  }
}

TEST_CASE("alltoall: a range that does not hold one value per rank is a usage_error") {
  // Every rank's range is wrong: each throws before any MPI call.
  nampi::Communicator comm;
  const std::vector<std::string> words(static_cast<std::size_t>(comm.size()) + 1, "w");
  nampi_pmpi_reset();
  CHECK_THROWS_WITH_AS(
      comm.alltoall(send_buf(nampi::as_serialized(words))),
      ("nampi: alltoallv: serialized 'send_buf' holds " + std::to_string(comm.size() + 1) +
       " values, one per rank (" + std::to_string(comm.size()) + ") needed")
          .c_str(),
      nampi::usage_error);
  CHECK(nampi_pmpi::snapshot() == call_counts{});
}
