// nampi::mpi pack / unpack (native and "external32"): the bytes produced, the position
// advanced, the round trip, and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <cstdint>
#include <map>
#include <nampi/mpi/datatypes.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
const mpi::datatype mpi_int{MPI_INT};
}

TEST_CASE("pack a strided vector and an int, unpack them contiguously") {
  const std::array<int, 5> strided{10, 99, 11, 99, 12};  // every other int
  const int tail = 13;
  std::array<int, 4> out{};
  nampi_pmpi_reset();
  {
    mpi::unique_datatype every_other = mpi::type_vector(3, 1, 2, mpi_int);
    mpi::type_commit(every_other);
    const int upper = mpi::pack_size(1, every_other, mpi::comm_world()) +
                      mpi::pack_size(1, mpi_int, mpi::comm_world());
    CHECK(upper >= 4 * static_cast<int>(sizeof(int)));
    std::vector<char> buffer(static_cast<std::size_t>(upper));
    int position = 0;
    mpi::pack(strided.data(), 1, every_other, buffer.data(), upper, position, mpi::comm_world());
    mpi::pack(&tail, 1, mpi_int, buffer.data(), upper, position, mpi::comm_world());
    CHECK(position > 0);
    CHECK(position <= upper);
    const int packed = position;

    position = 0;
    mpi::unpack(buffer.data(), packed, position, out.data(), 4, mpi_int, mpi::comm_world());
    CHECK(position == packed);
  }
  CHECK(out == std::array<int, 4>{10, 11, 12, 13});
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Pack", 2},
                                              {"MPI_Pack_size", 2},
                                              {"MPI_Type_commit", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_vector", 1},
                                              {"MPI_Unpack", 1}});
}

TEST_CASE("pack_external(\"external32\") writes big-endian 4-byte ints on every platform") {
  const std::array<std::int32_t, 2> values{0x01020304, -2};
  char datarep[] = "external32";
  nampi_pmpi_reset();
  const MPI_Aint size = mpi::pack_external_size(datarep, 2, mpi_int);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
  MPI_Aint position = 0;
  mpi::pack_external(datarep, values.data(), 2, mpi_int, bytes.data(), size, position);
  std::array<std::int32_t, 2> back{};
  MPI_Aint read = 0;
  mpi::unpack_external(datarep, bytes.data(), size, read, back.data(), 2, mpi_int);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Pack_external", 1},
                                              {"MPI_Pack_external_size", 1},
                                              {"MPI_Unpack_external", 1}});
  CHECK(size == 8);
  CHECK(position == 8);
  CHECK(read == 8);
  CHECK(bytes == std::vector<unsigned char>{0x01, 0x02, 0x03, 0x04, 0xff, 0xff, 0xff, 0xfe});
  CHECK(back == values);
}
