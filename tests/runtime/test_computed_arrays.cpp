// The loops over counts and displacements arrays that the calls' instances share rather than
// each compiling its own (bench/README.md): the exclusive scan of the counts
// (detail::scan_counts), the check that each send block lies inside the buffer
// (detail::check_blocks_inside) and the int arrays widened for a `_c` twin
// (detail::to_mpi_large_array). Built twice: header-only, and on nampi::compiled, whose
// library compiles the instances for int arrays (NAMPI_LIBRARY_INSTANCE).
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <string>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("alltoallv with the displacements computed on both sides") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  // To rank r: r + 1 values of 100 * rank + r.
  std::vector<int> counts(size);
  std::vector<int> data;
  for (int r = 0; r < size; ++r) {
    counts[r] = r + 1;
    data.insert(data.end(), r + 1, 100 * rank + r);
  }
  std::vector<int> recv_counts_seen;
  std::vector<int> recv_displs_seen;
  const auto got = comm.alltoallv(send_buf(data), send_counts(counts),
                                  recv_counts_out<nampi::resize_to_fit>(recv_counts_seen),
                                  recv_displs_out<nampi::resize_to_fit>(recv_displs_seen));
  REQUIRE(got.size() == static_cast<std::size_t>(size * (rank + 1)));
  REQUIRE(recv_displs_seen.size() == static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    CHECK(recv_counts_seen[r] == rank + 1);
    CHECK(recv_displs_seen[r] == r * (rank + 1));
    for (int i = 0; i < rank + 1; ++i) CHECK(got[r * (rank + 1) + i] == 100 * r + rank);
  }
}

TEST_CASE("alltoallv refuses send counts beyond send_buf, before any rank calls MPI") {
  nampi::Communicator comm;
  const int size = comm.size();
  const std::vector<int> data(size);  // one element per rank
  const std::vector<int> counts(size, 1);
  std::vector<int> too_many = counts;
  too_many.back() = 2;  // the last block ends one past the buffer
  try {
    (void)comm.alltoallv(send_buf(data), send_counts(too_many));
    FAIL("no usage_error");
  } catch (const nampi::usage_error& e) {
    const std::string what = e.what();
    CHECK(what.find("alltoallv") != std::string::npos);
    CHECK(what.find("send_buf") != std::string::npos);
  }
  // The communicator is still usable: no rank entered the collective.
  CHECK(comm.alltoallv(send_buf(data), send_counts(counts)).size() ==
        static_cast<std::size_t>(size));
}

TEST_CASE("alltoallv refuses a negative send count") {
  nampi::Communicator comm;
  const int size = comm.size();
  const std::vector<int> data(size + 1);
  std::vector<int> counts(size, 1);
  counts.front() = -1;
  if (size > 1) counts[1] = 2;  // the prefixes stay non-negative: only the count tells
  try {
    (void)comm.alltoallv(send_buf(data), send_counts(counts));
    FAIL("no usage_error");
  } catch (const nampi::usage_error& e) {
    CHECK(std::string(e.what()).find("negative count") != std::string::npos);
  }
}

TEST_CASE("int counts widened for a _c twin keep their values") {
  const std::vector<int> counts{3, 0, 2147483647, 7};
  const nampi::detail::input_slot<nampi::param_id::recv_counts, std::vector<int>> slot(counts);
  const auto as_count = nampi::detail::to_mpi_large_array<MPI_Count>(slot);
  const auto as_aint = nampi::detail::to_mpi_large_array<MPI_Aint>(slot);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    CHECK(as_count.data()[i] == static_cast<MPI_Count>(counts[i]));
    CHECK(as_aint.data()[i] == static_cast<MPI_Aint>(counts[i]));
  }
  // An empty array still has an address (some MPIs reject a null array).
  const std::vector<int> none;
  const nampi::detail::input_slot<nampi::param_id::recv_counts, std::vector<int>> empty(none);
  CHECK(nampi::detail::to_mpi_large_array<MPI_Count>(empty).data() != nullptr);
}

TEST_CASE("a computed count that does not fit the caller's type throws, signed or unsigned") {
  // The two throws the library compiles (detail::throw_does_not_fit_wide of usage_error): a
  // buffer's size (std::size_t) into send_recv_count_out, an MPI_Count into recv_count_out.
  nampi::Communicator comm;
  const std::vector<char> data(300, 'x');
  std::vector<char> copy = data;
  signed char count = 0;
  CHECK_THROWS_WITH_AS(comm.bcast(send_recv_buf(copy), send_recv_count_out(count)),
                       doctest::Contains("bcast: 'send_recv_count' (300) does not fit"),
                       nampi::usage_error);
  CHECK_THROWS_WITH_AS(comm.allgather(send_buf(data), recv_count_out(count)),
                       doctest::Contains("allgather: 'recv_count' (300) does not fit"),
                       nampi::usage_error);
  CHECK(count == 0);
}
