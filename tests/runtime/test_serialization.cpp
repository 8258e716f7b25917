// Serialized buffers (nampi/serialization.hpp) in the blocking calls: send,
// ssend and recv between pairs (0, 1), (2, 3), bcast on every rank. Each case
// checks the values received and the exact MPI calls: a serialized message is
// bytes, so a receiver probes for its size (recv) or the root broadcasts it
// first (bcast: two MPI_Bcast).
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

int partner(const nampi::Communicator& comm) {
  const int other = comm.rank() ^ 1;
  return other < comm.size() ? other : -1;
}

bool sends(const nampi::Communicator& comm) { return comm.rank() % 2 == 0; }

// Different for every rank, with entries of different lengths.
dict dict_of(int rank) {
  dict d;
  for (int i = 0; i <= rank + 1; ++i)
    d["key" + std::to_string(i)] =
        std::vector<int>(static_cast<std::size_t>(i + rank), 10 * rank + i);
  return d;
}

record record_of(int rank) {
  return {"rank " + std::to_string(rank) + std::string(static_cast<std::size_t>(rank) * 7, '*'),
          std::vector<double>(static_cast<std::size_t>(rank) + 3, 0.5 * rank), 100 + rank};
}

using xml_archive = nampi::archive<cereal::XMLOutputArchive, cereal::XMLInputArchive>;

}  // namespace

TEST_CASE("send a serialized map, recv it as_deserializable: probe, get_count, recv") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    const dict d = dict_of(comm.rank());
    nampi_pmpi_reset();
    comm.send(send_buf(nampi::as_serialized(d)), dest(other), tag(5));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Send", 1}});
  } else {
    nampi_pmpi_reset();
    auto got = comm.recv(recv_buf(nampi::as_deserializable<dict>()), source(other), tag(5));
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Get_count", 1}, {"MPI_Probe", 1}, {"MPI_Recv", 1}});
    static_assert(std::is_same_v<decltype(got), dict>);
    CHECK(got == dict_of(other));
  }
}

TEST_CASE("the message is the archive's bytes, sent as MPI_BYTE") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  const record r = record_of(comm.rank());
  if (sends(comm)) {
    comm.send(send_buf(nampi::as_serialized(r)), dest(other));
  } else {
    MPI_Status status;
    MPI_Probe(other, 0, MPI_COMM_WORLD, &status);
    int bytes = -1;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    // cereal's binary archive: an 8-byte size before each string and vector.
    const record expected = record_of(other);
    CHECK(bytes == static_cast<int>(8 + expected.name.size() + 8 +
                                    expected.values.size() * sizeof(double) + sizeof(int)));
    auto got = comm.recv(recv_buf(nampi::as_deserializable<record>()), source(other));
    CHECK(got == expected);
  }
}

TEST_CASE("ssend a temporary; recv into the caller's object, which the call writes") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    nampi_pmpi_reset();
    comm.ssend(send_buf(nampi::as_serialized(record_of(comm.rank()))), dest(other));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Ssend", 1}});
  } else {
    record mine = record_of(comm.rank());
    nampi_pmpi_reset();
    comm.recv(recv_buf(nampi::as_serialized(mine)), source(other));
    static_assert(std::is_void_v<decltype(comm.recv(recv_buf(nampi::as_serialized(mine))))>);
    CHECK(nampi_pmpi::snapshot() ==
          call_counts{{"MPI_Get_count", 1}, {"MPI_Probe", 1}, {"MPI_Recv", 1}});
    CHECK(mine == record_of(other));
  }
}

TEST_CASE("a vector of structs and an empty map travel too, with their status") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    const std::vector<record> records{record_of(0), record_of(3), record_of(1)};
    comm.send(send_buf(nampi::as_serialized(records)), dest(other), tag(1));
    comm.send(send_buf(nampi::as_serialized(dict{})), dest(other), tag(2));
  } else {
    // Any tag: the messages from one source arrive in order.
    auto [records, first] = comm.recv(recv_buf(nampi::as_deserializable<std::vector<record>>()),
                                      source(other), status_out());
    CHECK(first.MPI_TAG == 1);
    CHECK(records == std::vector<record>{record_of(0), record_of(3), record_of(1)});
    dict d = dict_of(5);
    auto second = comm.recv(recv_buf(nampi::as_serialized(d)), source(other), status_out());
    static_assert(std::is_same_v<decltype(second), MPI_Status>);
    CHECK(d.empty());
    CHECK(second.MPI_TAG == 2);
    int bytes = -1;
    MPI_Get_count(&second, MPI_BYTE, &bytes);
    CHECK(bytes == 8);  // an empty map: only its size
  }
}

TEST_CASE("archive selection: portable binary, and XML (the bytes are XML text)") {
  nampi::Communicator comm;
  const int other = partner(comm);
  if (other < 0) return;
  if (sends(comm)) {
    const dict d = dict_of(comm.rank());
    comm.send(send_buf(nampi::as_serialized<nampi::portable_binary_archive>(d)), dest(other),
              tag(1));
    comm.send(send_buf(nampi::as_serialized<xml_archive>(d)), dest(other), tag(2));
    comm.send(send_buf(nampi::as_serialized<xml_archive>(record_of(comm.rank()))), dest(other),
              tag(3));
  } else {
    auto portable =
        comm.recv(recv_buf(nampi::as_deserializable<dict, nampi::portable_binary_archive>()),
                  source(other), tag(1));
    CHECK(portable == dict_of(other));
    // Read as plain characters: the sender's archive wrote XML.
    auto text = comm.recv<char>(source(other), tag(2));
    const std::string xml(text.begin(), text.end());
    CHECK(xml.find("<?xml") == 0);
    CHECK(xml.find("key1") != std::string::npos);
    auto r =
        comm.recv(recv_buf(nampi::as_deserializable<record, xml_archive>()), source(other), tag(3));
    CHECK(r == record_of(other));
  }
}

TEST_CASE("bcast of a serialized map into every rank's object: exactly two MPI_Bcast") {
  nampi::Communicator comm;
  for (int root_rank = 0; root_rank < comm.size(); ++root_rank) {
    dict d = dict_of(comm.rank());  // each rank starts with its own value
    nampi_pmpi_reset();
    comm.bcast(send_recv_buf(nampi::as_serialized(d)), root(root_rank));
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Bcast", 2}});
    CHECK(d == dict_of(root_rank));
  }
}

TEST_CASE("bcast of a moved-in serialized struct returns the root's value") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  nampi_pmpi_reset();
  auto got = comm.bcast(send_recv_buf(nampi::as_serialized(record_of(comm.rank()))), root(last));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Bcast", 2}});
  static_assert(std::is_same_v<decltype(got), record>);
  CHECK(got == record_of(last));
}

TEST_CASE("bcast with the XML archive, default root 0") {
  nampi::Communicator comm;
  std::vector<record> records;
  if (comm.rank() == 0) records = {record_of(2), record_of(0)};
  comm.bcast(send_recv_buf(nampi::as_serialized<xml_archive>(records)));
  CHECK(records == std::vector<record>{record_of(2), record_of(0)});
}

TEST_CASE("allgatherv of serialized maps: allgather of the sizes, allgatherv of the bytes") {
  nampi::Communicator comm;
  const dict mine = dict_of(comm.rank());
  nampi_pmpi_reset();
  auto all = comm.allgatherv(send_buf(nampi::as_serialized(mine)));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Allgather", 1}, {"MPI_Allgatherv", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<dict>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == dict_of(r));
}

TEST_CASE("allgatherv with the byte counts asked back: each rank's serialized size") {
  nampi::Communicator comm;
  auto [all, sizes] = comm.allgatherv(
      send_buf(nampi::as_serialized<nampi::portable_binary_archive>(record_of(comm.rank()))),
      recv_counts_out());
  static_assert(std::is_same_v<decltype(all), std::vector<record>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  REQUIRE(sizes.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    const record expected = record_of(r);
    CHECK(all[static_cast<std::size_t>(r)] == expected);
    // portable binary: a 1-byte endianness flag, then the binary layout.
    CHECK(sizes[static_cast<std::size_t>(r)] ==
          static_cast<int>(1 + 8 + expected.name.size() + 8 +
                           expected.values.size() * sizeof(double) + sizeof(int)));
  }
}

TEST_CASE("gatherv of serialized structs at the root: gather of the sizes, gatherv of the bytes") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  nampi_pmpi_reset();
  auto all = comm.gatherv(send_buf(nampi::as_serialized(record_of(comm.rank()))), root(last));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Gather", 1}, {"MPI_Gatherv", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<record>>);
  if (comm.rank() == last) {
    REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == record_of(r));
  } else {
    CHECK(all.empty());
  }
}

TEST_CASE("allgather of a serialized value is served by allgatherv: one value per rank") {
  nampi::Communicator comm;
  const record mine = record_of(comm.rank());
  nampi_pmpi_reset();
  auto all = comm.allgather(send_buf(nampi::as_serialized(mine)));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Allgather", 1}, {"MPI_Allgatherv", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<record>>);
  REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == record_of(r));
}

TEST_CASE("gather of a serialized value is served by gatherv: the root gets one per rank") {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  nampi_pmpi_reset();
  auto all = comm.gather(send_buf(nampi::as_serialized(dict_of(comm.rank()))), root(last));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Gather", 1}, {"MPI_Gatherv", 1}});
  static_assert(std::is_same_v<decltype(all), std::vector<dict>>);
  if (comm.rank() == last) {
    REQUIRE(all.size() == static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == dict_of(r));
  } else {
    CHECK(all.empty());
  }
}
