// sendrecv without source or recv_tag (any, as recv): with the size exchanged
// first, the data must come from the peer whose count was received. And tags
// outside 0..MPI_TAG_UB are usage errors before any MPI call.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

// What rank r sends in the fan-in test: its length and values tell the
// receiver which rank's message it got.
std::vector<int> payload(int r) {
  return std::vector<int>(static_cast<std::size_t>(r) + 1, 100 + r);
}

// Wildcard receives could take a later test case's message: each test case
// that receives from any source ends once all of its messages are received.
struct fence {
  ~fence() { MPI_Barrier(MPI_COMM_WORLD); }
};

unsigned long long calls_of(const char* name) {
  const int i = nampi_pmpi_index(name);
  return i < 0 ? 0 : nampi_pmpi_count(i);
}

}  // namespace

// Ranks 1 and 2 send to rank 0, which receives both with sendrecv from any
// source and any tag (sending to MPI_PROC_NULL); the senders receive from
// MPI_PROC_NULL. Each message is a count exchange, then the data.
TEST_CASE("sendrecv without source: two senders to one receiver, each message matched") {
  const fence done;
  nampi::Communicator comm;
  if (comm.size() < 3) return;
  if (comm.rank() == 0) {
    std::vector<int> seen;
    for (int i = 0; i < 2; ++i) {
      auto [got, st] = comm.sendrecv(send_buf(payload(0)), dest(MPI_PROC_NULL), status_out());
      const int from = st.MPI_SOURCE;
      REQUIRE((from == 1 || from == 2));
      CHECK(got == payload(from));  // count and data from the same peer
      CHECK(st.MPI_TAG == 10 + from);
      seen.push_back(from);
    }
    CHECK(nampi_test::sorted(seen) == std::vector<int>{1, 2});
  } else if (comm.rank() <= 2) {
    auto got = comm.sendrecv(send_buf(payload(comm.rank())), dest(0), send_tag(10 + comm.rank()),
                             source(MPI_PROC_NULL));
    CHECK(got.empty());
  }
}

TEST_CASE("isendrecv without source or recv_tag pins both to the count message") {
#if !defined(NAMPI_HAVE_MPI_ISENDRECV)
  MESSAGE("this MPI has no MPI_Isendrecv (MPI 4.0)");
#else
  const fence done;
  nampi::Communicator comm;
  if (comm.size() < 3) return;
  if (comm.rank() == 0) {
    const std::vector<int> mine = payload(0);
    for (int i = 0; i < 2; ++i) {
      auto [got, st] = comm.isendrecv(send_buf(mine), dest(MPI_PROC_NULL), status_out()).wait();
      const int from = st.MPI_SOURCE;
      REQUIRE((from == 1 || from == 2));
      CHECK(got == payload(from));
      CHECK(st.MPI_TAG == 20 + from);
    }
  } else if (comm.rank() <= 2) {
    const std::vector<int> mine = payload(comm.rank());
    auto got =
        comm.isendrecv(send_buf(mine), dest(0), send_tag(20 + comm.rank()), source(MPI_PROC_NULL))
            .wait();
    CHECK(got.empty());
  }
#endif
}

TEST_CASE("sendrecv with recv_count given and no source receives from any rank") {
  const fence done;
  nampi::Communicator comm;
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  auto got = comm.sendrecv(send_buf(payload(comm.rank())), dest(right),
                           recv_count(static_cast<int>(payload(left).size())));
  CHECK(got == payload(left));
}

TEST_CASE("recv_single takes one value from any source") {
  const fence done;
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 1) comm.send(send_buf(41), dest(0), tag(3));
  if (comm.rank() == 0) {
    nampi_pmpi_reset();
    auto [x, st] = comm.recv_single<int>(status_out());
    CHECK(x == 41);
    CHECK(st.MPI_SOURCE == 1);
    CHECK(calls_of("MPI_Probe") == 0);  // one value: no probe
    CHECK(calls_of("MPI_Recv") == 1);
  }
}

TEST_CASE("recv and sendrecv given MPI_ANY_SOURCE pin it to the probed message") {
  // Several messages of different sizes are pending at rank 0 (one from itself): the
  // receive after the probe must take the message whose size was probed, whichever one a
  // wildcard receive would match first (Open MPI's need not be the probed one).
  const fence done;
  nampi::Communicator comm;
  const int size = comm.size();
  MPI_Request to_self = MPI_REQUEST_NULL;
  const std::vector<int> mine = payload(0);
  if (comm.rank() == 0) MPI_Isend(mine.data(), 1, MPI_INT, 0, 9, comm.mpi_communicator(), &to_self);
  if (comm.rank() > 0) comm.send(send_buf(payload(comm.rank())), dest(0), tag(9));
  if (comm.rank() == 0) {
    std::vector<int> seen;
    for (int i = 0; i < size; ++i) {
      MPI_Status st;
      auto got = comm.recv<int>(source(MPI_ANY_SOURCE), tag(MPI_ANY_TAG), status_out(st));
      CHECK(got == payload(st.MPI_SOURCE));
      CHECK(st.MPI_TAG == 9);
      seen.push_back(st.MPI_SOURCE);
    }
    CHECK(nampi_test::sorted(seen) == nampi_test::sorted(nampi_test::reversed_ranks(size)));
    MPI_Wait(&to_self, MPI_STATUS_IGNORE);
  }
  comm.barrier();  // (rank 0's wildcard tag must not see the messages below)
  // The same with sendrecv: each peer sends its payload to rank 0, which names no peer.
  if (comm.rank() == 0) {
    for (int i = 1; i < size; ++i) {
      auto [got, st] = comm.sendrecv(send_buf(payload(0)), dest(MPI_PROC_NULL),
                                     source(MPI_ANY_SOURCE), recv_tag(MPI_ANY_TAG), status_out());
      CHECK(got == payload(st.MPI_SOURCE));
    }
  } else {
    comm.sendrecv(send_buf(payload(comm.rank())), dest(0), source(MPI_PROC_NULL));
  }
}

TEST_CASE("nampi::any_source and nampi::any_tag are MPI's wildcards") {
  const fence done;
  static_assert(nampi::any_source == MPI_ANY_SOURCE);
  static_assert(nampi::any_tag == MPI_ANY_TAG);
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 1) comm.send(send_buf(7), dest(0), tag(32767));
  if (comm.rank() == 0)
    CHECK(comm.recv_single<int>(source(nampi::any_source), tag(nampi::any_tag)) == 7);
}

#if NAMPI_ASSERTION_LEVEL > 0
TEST_CASE("a tag outside 0..MPI_TAG_UB is a usage_error before any MPI call") {
  nampi::Communicator comm;
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  REQUIRE(flag != 0);
  const long long too_big = static_cast<long long>(*ub) + 1;
  const int big = too_big > 2147483647LL ? -5 : static_cast<int>(too_big);  // ub may be INT_MAX
  std::vector<int> v{1, 2, 3};
  int x = 0;
  // A negative tag that is not MPI_ANY_TAG (-1 in MPICH's and Open MPI's mpi.h, -2 in the MPI 5
  // ABI's mpi_abi.h).
  for (const int bad : {MPI_ANY_TAG - 1, big}) {
    nampi_pmpi_reset();
    CHECK_THROWS_AS(comm.send(send_buf(v), dest(comm.rank()), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS(comm.isend(send_buf(v), dest(comm.rank()), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS(comm.ssend_init(send_buf(v), dest(comm.rank()), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS(comm.bsend(send_buf(v), dest(comm.rank()), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS(comm.rsend(send_buf(v), dest(comm.rank()), tag(bad)), nampi::usage_error);
    // A receive or probe with a bad tag would wait forever for a message; the
    // count-probing recv would issue MPI_Probe first.
    CHECK_THROWS_AS((void)comm.recv<int>(tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.recv_single<int>(source(0), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.irecv(recv_buf(x), tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.probe(tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.iprobe(tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.mprobe(tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.improbe(tag(bad)), nampi::usage_error);
    CHECK_THROWS_AS((void)comm.sendrecv(send_buf(v), dest(comm.rank()), recv_tag(bad)),
                    nampi::usage_error);
    CHECK_THROWS_AS((void)comm.sendrecv(send_buf(v), dest(comm.rank()), send_tag(bad)),
                    nampi::usage_error);
    CHECK_THROWS_AS((void)comm.sendrecv_replace(send_recv_buf(v), dest(comm.rank()),
                                                source(comm.rank()), send_tag(bad)),
                    nampi::usage_error);
    // Not one MPI call (but the one-time query of MPI_TAG_UB for a large tag).
    auto calls = nampi_pmpi::snapshot();
    calls.erase("MPI_Comm_get_attr");
    CHECK(calls.empty());
  }
  // MPI_ANY_TAG is a receive's wildcard, never a tag to send.
  CHECK_THROWS_AS((void)comm.sendrecv(send_buf(v), dest(comm.rank()), send_tag(nampi::any_tag)),
                  nampi::usage_error);
}

TEST_CASE("a tag up to 32767 needs no query of MPI_TAG_UB; a larger one asks once") {
  nampi::Communicator comm;
  std::vector<int> v{4, 5};
  nampi_pmpi_reset();
  auto got = comm.sendrecv(send_buf(v), dest(comm.rank()), send_tag(32767), source(comm.rank()),
                           recv_tag(32767));
  CHECK(got == v);
  CHECK(calls_of("MPI_Comm_get_attr") == 0);
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (*ub > 32767) {
    nampi_pmpi_reset();
    for (int i = 0; i < 2; ++i) {
      auto again = comm.sendrecv(send_buf(v), dest(comm.rank()), send_tag(32768),
                                 source(comm.rank()), recv_tag(32768));
      CHECK(again == v);
    }
    CHECK(calls_of("MPI_Comm_get_attr") <= 1);  // cached per process
  }
}
#endif
