// Sizes the caller gives are checked against the buffers nampi sees in every build (issue 32,
// item 3): built with -O2 -DNDEBUG and AddressSanitizer (tests/CMakeLists.txt), each case
// read or wrote past its buffer before. Each now throws nampi::usage_error before the
// call's first MPI call, on every rank that makes the mistake (so no rank waits inside a
// collective for one that threw), or runs where a rank alone decides (a root-only value)
// on a communicator of one process.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "nampi_usage_error_check.hpp"

using namespace nampi::params;

#ifndef NDEBUG
#error "the safety tests check a release build: compile them with -DNDEBUG"
#endif
static_assert(nampi::detail::check_given_sizes,
              "sizes the caller gives are checked in a release build too");

TEST_CASE("send: a given count past the send buffer (a READ of 400 bytes before)") {
  nampi::Communicator comm;
  const std::vector<int> two{1, 2};
  CHECK_USAGE_ERROR(comm.send(send_buf(two), send_count(100), dest(0)),
                    "send: 100 elements of 'send_type' span bytes [0, 400), but 'send_buf' "
                    "holds 8 bytes");
  CHECK_USAGE_ERROR(comm.send_init(send_buf(two), send_count(3), dest(0)), "send_init: 3 elements");
  // A datatype the caller gives is measured by its extent: two doubles are 16 bytes.
  CHECK_USAGE_ERROR(comm.send(send_buf(two), send_count(2), send_type(MPI_DOUBLE), dest(0)),
                    "span bytes [0, 16), but 'send_buf' holds 8 bytes");
}

TEST_CASE("sendrecv and irecv: a given receive count past the receive buffer (WRITEs before)") {
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  const std::vector<int> v{1, 2};
  std::vector<int> two(2);
  CHECK_USAGE_ERROR(
      comm.sendrecv(send_buf(v), dest(right), recv_buf(two), recv_count(100), source(left)),
      "sendrecv: 'recv_buf' holds 2 elements, 100 needed");
  CHECK_USAGE_ERROR(comm.irecv(recv_buf(two), recv_count(50), source(left)),
                    "irecv: 'recv_buf' holds 2 elements, 50 needed");
  CHECK_USAGE_ERROR(comm.recv_init(recv_buf(two), recv_count(3), source(left)),
                    "recv_init: 'recv_buf' holds 2 elements, 3 needed");
  // Nothing was sent or posted: the ring still exchanges in step.
  CHECK(comm.sendrecv(send_buf(v), dest(right), source(left), recv_count(2)) == v);
}

TEST_CASE("gatherv and scatter: root-only values at the root (a WRITE and a READ before)") {
  // One process: the root alone decides, and no other rank waits for it.
  const nampi::Communicator self(MPI_COMM_SELF);
  const std::vector<int> v{7, 8};
  std::vector<int> out(3);
  const std::vector<int> count{2}, past_end{2}, inside{1};
  CHECK_USAGE_ERROR(
      self.gatherv(send_buf(v), recv_buf(out), recv_counts(count), recv_displs(past_end)),
      "gatherv: 'recv_buf' holds 3 elements, 4 needed");
  CHECK_USAGE_ERROR(
      self.igatherv(send_buf(v), recv_buf(out), recv_counts(count), recv_displs(past_end)),
      "igatherv: 'recv_buf' holds 3 elements, 4 needed");
  CHECK_USAGE_ERROR(self.scatter(send_buf(v), send_count(3), recv_count(3)),
                    "scatter: 3 elements of 'send_type' span bytes [0, 12), but 'send_buf' holds "
                    "8 bytes");
  self.gatherv(send_buf(v), recv_buf(out), recv_counts(count), recv_displs(inside));
  CHECK(out == std::vector<int>{0, 7, 8});
}

TEST_CASE("alltoall: a per-rank count is counted once per rank (every rank makes the mistake)") {
  nampi::Communicator comm;
  const int p = comm.size();
  const std::vector<int> two{1, 2};
  if (p >= 2)  // two per rank: 2p elements, of 2
    CHECK_USAGE_ERROR(comm.alltoall(send_buf(two), send_count(2), recv_count(2)),
                      "alltoall: " + std::to_string(2 * p) + " elements of 'send_type'");
  std::vector<int> small(static_cast<std::size_t>(p));
  const std::vector<int> enough(static_cast<std::size_t>(2 * p), 1);
  CHECK_USAGE_ERROR(comm.alltoall(send_buf(enough), recv_buf(std::span<int>(small)),
                                  send_count(2), recv_count(2)),
                    "'recv_buf' holds " + std::to_string(p));
}

TEST_CASE("alltoallv and scatterv: given displacements past the send buffer (READs before)") {
  nampi::Communicator comm;
  const int p = comm.size();
  const std::vector<int> v(static_cast<std::size_t>(p), comm.rank());
  const std::vector<int> ones(static_cast<std::size_t>(p), 1);
  std::vector<int> displs(static_cast<std::size_t>(p));
  std::iota(displs.begin(), displs.end(), 0);
  displs.back() = p;  // the last rank's block starts at the end
  CHECK_USAGE_ERROR(comm.alltoallv(send_buf(v), send_counts(ones), send_displs(displs)),
                    "alltoallv: the block of rank " + std::to_string(p - 1) +
                        " in 'send_buf' (1 elements at displacement " + std::to_string(p) + ")");
  CHECK_USAGE_ERROR(comm.ialltoallv(send_buf(v), send_counts(ones), send_displs(displs)),
                    "ialltoallv: the block of rank");
  // Counts alone (displacements scanned from them) past the buffer.
  std::vector<int> twos(static_cast<std::size_t>(p), 2);
  CHECK_USAGE_ERROR(comm.alltoallv(send_buf(v), send_counts(twos)), "alltoallv: the block of rank");
  const nampi::Communicator self(MPI_COMM_SELF);
  const std::vector<int> one{1}, at_end{p};
  CHECK_USAGE_ERROR(self.scatterv(send_buf(v), send_counts(one), send_displs(at_end), recv_count(1)),
                    "scatterv: the block of rank 0 in 'send_buf'");
  // Inside the buffer: the exchange runs.
  displs.back() = p - 1;
  const auto got = comm.alltoallv(send_buf(v), send_counts(ones), send_displs(displs));
  std::vector<int> expected(static_cast<std::size_t>(p));
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(got == expected);
}
