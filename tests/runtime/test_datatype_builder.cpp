// Dynamic datatypes: every builder constructor used in a real transfer, the
// owner frees exactly once, and a count that overruns the buffer is a usage error.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <nampi/nampi.hpp>
#include <numeric>
#include <vector>

using namespace nampi::params;

namespace {

constexpr int n = 4;  // matrices are n x n, row-major
constexpr MPI_Aint d = sizeof(double);

std::vector<double> matrix(int rank) {
  std::vector<double> m(n * n);
  std::iota(m.begin(), m.end(), 100.0 * rank);
  return m;
}

unsigned long long count_of(const char* name) {
  const int index = nampi_pmpi_index(name);
  REQUIRE(index >= 0);
  return nampi_pmpi_count(index);
}

// Rank 0 sends `count` elements of `type` from its matrix; the last rank
// receives them as plain doubles; returns what arrived (empty elsewhere).
std::vector<double> send_with(const nampi::datatype& type, int count, std::size_t doubles) {
  nampi::Communicator comm;
  const int last = comm.size() - 1;
  std::vector<double> received;
  if (comm.rank() == 0) {
    const auto m = matrix(0);
    if (last == 0) {
      received.resize(doubles);
      comm.sendrecv(send_buf(m), send_count(count), send_type(type), dest(0), source(0),
                    recv_buf<nampi::no_resize>(received), recv_count(static_cast<int>(doubles)),
                    recv_type(MPI_DOUBLE));
      return received;
    }
    comm.send(send_buf(m), send_count(count), send_type(type), dest(last));
  }
  if (comm.rank() == last) received = comm.recv<double>(source(0));
  return received;
}

bool sender_or_receiver() {
  nampi::Communicator comm;
  return comm.rank() == comm.size() - 1;
}

}  // namespace

TEST_CASE("vector: a matrix column") {
  const auto column = nampi::datatype::vector(n, 1, n, MPI_DOUBLE);
  CHECK(column.extent() == static_cast<MPI_Aint>(((n - 1) * n + 1) * sizeof(double)));
  const auto got = send_with(column, 1, n);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 4, 8, 12});
}

TEST_CASE("contiguous, hvector, indexed, hindexed, indexed_block") {
  const auto pair = nampi::datatype::contiguous(2, MPI_DOUBLE);
  auto got = send_with(pair, 3, 6);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 1, 2, 3, 4, 5});

  // Every other row's first two elements, stride in bytes; built from a nampi::datatype.
  const auto rows = nampi::datatype::hvector(2, 1, 2 * n * sizeof(double), pair);
  got = send_with(rows, 1, 4);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 1, 8, 9});

  const auto diagonal = nampi::datatype::indexed({1, 1, 1, 1}, {0, 5, 10, 15}, MPI_DOUBLE);
  got = send_with(diagonal, 1, 4);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 5, 10, 15});

  const auto blocks = nampi::datatype::hindexed({2, 1}, {0, 12 * d}, MPI_DOUBLE);
  got = send_with(blocks, 1, 3);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 1, 12});

  const auto corners =
      nampi::datatype::indexed_block(1, {0, n - 1, n * (n - 1), n * n - 1}, MPI_DOUBLE);
  got = send_with(corners, 1, 4);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 3, 12, 15});
}

TEST_CASE("structure and resized: columns one after another") {
  // A struct of two columns' heads: {m[1], m[n + 2]}.
  const auto heads = nampi::datatype::structure({1, 1}, {d, (n + 2) * d}, {MPI_DOUBLE, MPI_DOUBLE});
  auto got = send_with(heads, 1, 2);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{1, 6});

  // A column resized to one double: count 2 sends columns 0 and 1.
  const auto column = nampi::datatype::vector(n, 1, n, MPI_DOUBLE);
  const auto column_step = nampi::datatype::resized(column, 0, sizeof(double));
  CHECK(column_step.extent() == static_cast<MPI_Aint>(sizeof(double)));
  got = send_with(column_step, 2, 2 * n);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{0, 4, 8, 12, 1, 5, 9, 13});
}

TEST_CASE("subarray: a 2 x 2 block of the matrix, received into a block elsewhere") {
  const auto block = nampi::datatype::subarray({n, n}, {2, 2}, {1, 1}, MPI_DOUBLE);
  auto got = send_with(block, 1, 4);
  if (sender_or_receiver()) CHECK(got == std::vector<double>{5, 6, 9, 10});

  // The same type on both sides of a bcast: only the block changes.
  nampi::Communicator comm;
  std::vector<double> m = comm.rank() == 0 ? matrix(0) : std::vector<double>(n * n, -1.0);
  comm.bcast(send_recv_buf(m), send_recv_count(1), send_recv_type(block));
  if (comm.rank() != 0) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const bool inside = i >= 1 && i <= 2 && j >= 1 && j <= 2;
        CHECK(m[static_cast<std::size_t>(i * n + j)] == (inside ? i * n + j : -1.0));
      }
  }
}

TEST_CASE("darray: each rank gathers its block-distributed rows") {
  nampi::Communicator comm;
  const int rows = 2 * comm.size();
  std::vector<int> global(static_cast<std::size_t>(rows * n));
  std::iota(global.begin(), global.end(), 0);
  // Rows block-distributed over the ranks, columns not distributed.
  const auto mine = nampi::datatype::darray(
      comm.size(), comm.rank(), {rows, n}, {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE},
      {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, {comm.size(), 1}, MPI_INT);
  // Send my part of the global array to myself as plain ints.
  std::vector<int> part(static_cast<std::size_t>(2 * n));
  comm.sendrecv(send_buf(global), send_count(1), send_type(mine), dest(comm.rank()),
                source(comm.rank()), recv_buf<nampi::no_resize>(part), recv_count(2 * n),
                recv_type(MPI_INT));
  std::vector<int> expected(static_cast<std::size_t>(2 * n));
  std::iota(expected.begin(), expected.end(), 2 * n * comm.rank());
  CHECK(part == expected);
}

TEST_CASE("a nampi::datatype is committed once and freed once, a predefined one never") {
  const auto commits = count_of("MPI_Type_commit");
  const auto frees = count_of("MPI_Type_free");
  {
    auto column = nampi::datatype::vector(n, 1, n, MPI_DOUBLE);
    CHECK(count_of("MPI_Type_commit") - commits == 1);
    nampi::datatype moved = std::move(column);
    CHECK(column.is_null());
    CHECK(!moved.is_null());
    CHECK(count_of("MPI_Type_free") == frees);
  }
  CHECK(count_of("MPI_Type_free") - frees == 1);
  {
    nampi::datatype predefined(nampi::mpi::unique_datatype(nampi::mpi::datatype(MPI_INT)), false);
    CHECK(predefined.get() == MPI_INT);
    CHECK(predefined.extent() == static_cast<MPI_Aint>(sizeof(int)));
  }
  CHECK(count_of("MPI_Type_free") - frees == 1);
}

TEST_CASE("a count of a derived type that overruns the buffer is a usage error") {
  nampi::Communicator comm;
  const auto column = nampi::datatype::vector(n, 1, n, MPI_DOUBLE);
  const std::vector<double> m = matrix(0);
#if NAMPI_ASSERTION_LEVEL > 0  // counts the caller gave: checked in debug builds (as plain MPI, trusted with NDEBUG)
  const std::vector<double> short_m(n * (n - 1));
  // Checked before MPI is called: no message is sent.
  CHECK_THROWS_AS(comm.send(send_buf(short_m), send_count(1), send_type(column), dest(0)),
                  nampi::usage_error);
  // Columns 0..3 fit, as a resized type; a fifth does not.
  const auto step = nampi::datatype::resized(column, 0, sizeof(double));
  CHECK_THROWS_AS(comm.send(send_buf(m), send_count(5), send_type(step), dest(0)),
                  nampi::usage_error);
  std::vector<double> into(n);
  CHECK_THROWS_AS(
      comm.recv(recv_buf<nampi::no_resize>(into), recv_count(1), recv_type(column), source(0)),
      nampi::usage_error);
#endif
  // With the count inferred from the buffer (16 columns): nampi's own count, checked in every
  // build.
  CHECK_THROWS_AS(comm.send(send_buf(m), send_type(column), dest(0)), nampi::usage_error);
}

// Last in the file: what this program created, it freed (the owners above,
// the registry for nampi's static types).
TEST_CASE("builders check that the arrays MPI reads with one count are as long") {
  // nampi passes blocklengths.size() as the count: a shorter displacements or types array
  // would be read past its end, so this is checked in every build, before any MPI call.
  const auto before = nampi_pmpi::snapshot();  // (no reset: the last test case counts types)
  CHECK_THROWS_WITH_AS(nampi::datatype::indexed({1, 1, 1}, {0, 2}, MPI_INT),
                       "nampi: datatype::indexed: 'displacements' holds 2 entries, 3 needed (one "
                       "per block)",
                       nampi::usage_error);
  CHECK_THROWS_AS(nampi::datatype::structure({1, 1}, {0, 8}, {MPI_INT}), nampi::usage_error);
  CHECK_THROWS_AS(nampi::datatype::subarray({4, 4}, {2}, {0, 0}, MPI_INT), nampi::usage_error);
  CHECK(nampi_pmpi::snapshot() == before);
}

TEST_CASE("zz: every datatype created was freed") {
  nampi::detail::type_registry().free_all();
  unsigned long long created = 0;
  for (const char* constructor :
       {"MPI_Type_contiguous", "MPI_Type_vector", "MPI_Type_create_hvector", "MPI_Type_indexed",
        "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block", "MPI_Type_create_struct",
        "MPI_Type_create_subarray", "MPI_Type_create_darray", "MPI_Type_create_resized",
        "MPI_Type_dup"})
    created += count_of(constructor);
  CHECK(created >= 11);
  CHECK(count_of("MPI_Type_free") == created);
}
