// The ulfm plugin without a failure (tests/CMakeLists.txt runs it on 1..4 ranks where ULFM
// works): agree is the AND of the flags; shrink keeps every rank, in order, and returns
// errors as exceptions; revoke makes every later call on the communicator throw
// nampi::communicator_revoked (an mpi_error of class MPIX_ERR_REVOKED); no failure is
// acknowledged or known; iagree awaited in a nampi::task.
#include <doctest/doctest.h>

#include <functional>
#include <nampi/nampi.hpp>
#include <nampi/plugins/ulfm.hpp>
#include <nampi/task.hpp>
#include <optional>
#include <utility>

using namespace nampi::params;

namespace {
using comm_type = nampi::BasicCommunicator<nampi::plugins::ulfm>;
}

TEST_CASE("agree is the logical AND of every rank's flag") {
  const comm_type comm;
  CHECK(comm.agree(true));
  CHECK_FALSE(comm.agree(false));
  // One rank's false decides (rank 0's, then the last rank's).
  CHECK_FALSE(comm.agree(comm.rank() != 0));
  CHECK_FALSE(comm.agree(comm.rank() != comm.size() - 1));
  CHECK(comm.agree(comm.rank() >= 0));
}

#ifdef NAMPI_ULFM_HAS_IAGREE
TEST_CASE("iagree: the result owns the flag; wait and test return the AND") {
  const comm_type comm;
  auto pending = comm.iagree(comm.rank() != 0);
  CHECK(pending.valid());
  const bool all = pending.wait();
  CHECK_FALSE(all);
  CHECK_FALSE(pending.valid());
  // Moved, then completed by test() (which returns nothing until it is done).
  auto started = comm.iagree(true);
  auto moved = std::move(started);
  std::optional<bool> value;
  while (!(value = moved.test())) {
  }
  CHECK(*value);
  CHECK_FALSE(moved.valid());
  // A result nobody waits for completes in its destructor (no call left pending).
  {
    auto dropped = comm.iagree(true);
  }
  CHECK(comm.agree(true));
}
#endif

#ifdef NAMPI_ULFM_HAS_IAGREE
TEST_CASE("iagree awaited in a nampi::task (its request among the loop's), one after the other") {
  const comm_type comm;
  auto body = [](const comm_type& c) -> nampi::task<bool> {
    const bool some_false = co_await c.iagree(c.rank() != 0);
    CHECK_FALSE(some_false);
    co_return co_await c.iagree(true);
  };
  auto [all] = nampi::run(comm, body(comm));
  CHECK(all);
}
#endif

TEST_CASE("shrink without a failure keeps every rank, in order") {
  const comm_type comm;
  nampi::OwnedCommunicator shrunk = comm.shrink();
  CHECK(shrunk.size() == comm.size());
  CHECK(shrunk.rank() == comm.rank());
  CHECK(shrunk.allreduce_single(send_buf(comm.rank() + 1), op(std::plus<>{})) ==
        comm.size() * (comm.size() + 1) / 2);
  // Its errors are exceptions too (the error handler was copied): revoked, it throws. The
  // barrier is on another communicator: a rank that revoked early would fail a peer's call
  // still running on this one.
  comm.barrier();
  const comm_type view(shrunk);
  view.revoke();
  CHECK_THROWS_AS(shrunk.barrier(), nampi::communicator_revoked);
}

TEST_CASE("revoke: every later call throws communicator_revoked") {
  nampi::OwnedCommunicator dup = nampi::Communicator().dup();
  const comm_type comm(dup);
#ifdef NAMPI_ULFM_HAS_IS_REVOKED
  CHECK_FALSE(comm.is_revoked());
#endif
  nampi::Communicator().barrier();  // every rank is here before any revokes (see above)
  comm.revoke();
#ifdef NAMPI_ULFM_HAS_IS_REVOKED
  CHECK(comm.is_revoked());
#endif
  bool thrown = false;
  try {
    comm.allreduce_single(send_buf(1), op(std::plus<>{}));
  } catch (const nampi::communicator_revoked& e) {
    thrown = true;
    CHECK(e.error_class() == MPIX_ERR_REVOKED);
    CHECK(std::string(e.call()) == "MPI_Allreduce");
    const nampi::mpi_error& base = e;  // a communicator_revoked is an mpi_error
    CHECK(base.code() == e.code());
  }
  CHECK(thrown);
}

TEST_CASE("no failure: nothing acknowledged, nothing failed") {
  const comm_type comm;
  comm.failure_ack();
  CHECK(comm.failure_get_acked().size() == 0);
#ifdef NAMPI_ULFM_HAS_GET_FAILED
  CHECK(comm.get_failed().size() == 0);
#endif
#ifdef NAMPI_ULFM_HAS_ACK_FAILED
  CHECK(comm.ack_failed(0) == 0);
#endif
}

TEST_CASE("process_failed and communicator_revoked are mpi_errors") {
  static_assert(std::is_base_of_v<nampi::mpi_error, nampi::process_failed>);
  static_assert(std::is_base_of_v<nampi::mpi_error, nampi::communicator_revoked>);
  const nampi::process_failed e("MPI_Send", MPIX_ERR_PROC_FAILED);
  CHECK(e.error_class() == MPIX_ERR_PROC_FAILED);
  CHECK(std::string(e.what()).rfind("MPI_Send: ", 0) == 0);
}
