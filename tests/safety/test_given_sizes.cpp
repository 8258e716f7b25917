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

namespace {
// A ring of all ranks (a periodic grid of one dimension): every rank has two in- and two
// out-neighbours, left then right (the same process on one or two ranks).
nampi::OwnedCommunicator ring_of_all() {
  const int dims[1] = {nampi::Communicator().size()};
  const int periods[1] = {1};
  MPI_Comm ring = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  return nampi::OwnedCommunicator(ring);
}
}  // namespace

TEST_CASE("neighbourhood calls: given counts, displacements and arrays against the neighbours") {
  const nampi::OwnedCommunicator ring = ring_of_all();
  const std::vector<int> two{1, 2};
  // neighbor_allgather sends one block to every out-neighbour: 3 ints of a buffer of 2.
  CHECK_USAGE_ERROR(ring.neighbor_allgather(send_buf(two), send_count(3)),
                    "neighbor_allgather: 3 elements of 'send_type' span bytes [0, 12), but "
                    "'send_buf' holds 8 bytes");
  // neighbor_alltoall sends a block to each: 2 x 2 ints of a buffer of 2.
  CHECK_USAGE_ERROR(ring.neighbor_alltoall(send_buf(two), send_count(2)),
                    "neighbor_alltoall: 4 elements of 'send_type' span bytes [0, 16)");
  CHECK_USAGE_ERROR(ring.ineighbor_alltoall(send_buf(two), send_count(2)),
                    "ineighbor_alltoall: 4 elements");
  // The receive side: a block from each in-neighbour, 2 x 3 ints into a buffer of 2.
  std::vector<int> small(2);
  CHECK_USAGE_ERROR(ring.neighbor_allgather(send_buf(two), send_count(1),
                                            recv_buf<nampi::no_resize>(small), recv_count(3)),
                    "neighbor_allgather:");
  // neighbor_alltoallv: the second out-neighbour's block starts at the end of send_buf.
  const std::vector<int> ones{1, 1}, at_end{0, 2};
  CHECK_USAGE_ERROR(ring.neighbor_alltoallv(send_buf(two), send_counts(ones), send_displs(at_end)),
                    "neighbor_alltoallv: the block of out-neighbour 1 in 'send_buf' (1 elements at "
                    "displacement 2)");
  // Arrays shorter than the neighbours (MPI reads two entries of each).
  const std::vector<int> one{1}, zero{0};
  CHECK_USAGE_ERROR(ring.neighbor_alltoallv(send_buf(two), send_counts(one), send_displs(zero)),
                    "neighbor_alltoallv: 'send_counts' holds 1 entry, one per out-neighbour (2) "
                    "needed");
  std::vector<int> got(2);
  CHECK_USAGE_ERROR(ring.neighbor_allgatherv(send_buf(one), recv_buf<nampi::no_resize>(got),
                                             recv_counts(one), recv_displs(zero)),
                    "neighbor_allgatherv: 'recv_counts' holds 1 entry, one per in-neighbour (2) "
                    "needed");
  // Inside the buffers: the exchanges run (left's value first, then right's).
  const int rank = ring.rank(), size = ring.size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  const std::vector<int> mine{rank};
  CHECK(ring.neighbor_allgather(send_buf(mine), send_count(1)) == std::vector<int>{left, right});
  const std::vector<int> displs{0, 1}, both{rank, rank};
  CHECK(ring.neighbor_alltoallv(send_buf(both), send_counts(ones), send_displs(displs)) ==
        std::vector<int>{left, right});
}

TEST_CASE("alltoallw and neighbor_alltoallw: byte displacements and datatypes per peer") {
  nampi::Communicator comm;
  const int p = comm.size();
  const auto n = static_cast<std::size_t>(p);
  const std::vector<int> v(n, comm.rank());
  std::vector<int> got(n, -1);
  const std::vector<int> ones(n, 1);
  std::vector<int> bytes(n);
  for (int r = 0; r < p; ++r) bytes[static_cast<std::size_t>(r)] = r * static_cast<int>(sizeof(int));
  const std::vector<MPI_Datatype> ints(n, MPI_INT), doubles(n, MPI_DOUBLE);
  std::vector<int> past = bytes;
  past.back() = p * static_cast<int>(sizeof(int));  // the last block starts at the end
  CHECK_USAGE_ERROR(comm.alltoallw(send_buf(v), send_counts(ones), send_displs(past),
                                   send_types(ints), recv_buf(got), recv_counts(ones),
                                   recv_displs(bytes), recv_types(ints)),
                    "alltoallw: the block of rank " + std::to_string(p - 1) + " in 'send_buf'");
  CHECK_USAGE_ERROR(comm.ialltoallw(send_buf(v), send_counts(ones), send_displs(bytes),
                                    send_types(ints), recv_buf(got), recv_counts(ones),
                                    recv_displs(past), recv_types(ints)),
                    "ialltoallw: the block of rank " + std::to_string(p - 1) + " in 'recv_buf'");
  // A datatype wider than the element: the last rank's double reaches 4 bytes past the end.
  CHECK_USAGE_ERROR(comm.alltoallw(send_buf(v), send_counts(ones), send_displs(bytes),
                                   send_types(doubles), recv_buf(got), recv_counts(ones),
                                   recv_displs(bytes), recv_types(ints)),
                    "alltoallw: the block of rank " + std::to_string(p - 1) + " in 'send_buf'");
  // Inside the buffers: the exchange runs.
  comm.alltoallw(send_buf(v), send_counts(ones), send_displs(bytes), send_types(ints),
                 recv_buf(got), recv_counts(ones), recv_displs(bytes), recv_types(ints));
  std::vector<int> expected(n);
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(got == expected);

  const nampi::OwnedCommunicator ring = ring_of_all();
  const std::vector<int> two{1, 2}, twos{1, 1};
  const std::vector<MPI_Aint> at_end{0, 8}, in_order{0, 4};  // MPI_Neighbor_alltoallw's are MPI_Aint
  const std::vector<MPI_Datatype> two_ints(2, MPI_INT);
  std::vector<int> from_both(2, -1);
  CHECK_USAGE_ERROR(ring.neighbor_alltoallw(send_buf(two), send_counts(twos), send_displs(at_end),
                                            send_types(two_ints), recv_buf(from_both),
                                            recv_counts(twos), recv_displs(in_order),
                                            recv_types(two_ints)),
                    "neighbor_alltoallw: the block of out-neighbour 1 in 'send_buf'");
  CHECK_USAGE_ERROR(ring.neighbor_alltoallw(send_buf(two), send_counts(twos), send_displs(in_order),
                                            send_types(two_ints), recv_buf(from_both),
                                            recv_counts(twos), recv_displs(at_end),
                                            recv_types(two_ints)),
                    "neighbor_alltoallw: the block of in-neighbour 1 in 'recv_buf'");
}
