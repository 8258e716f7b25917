// nampi::Session (MPI-4 sessions) next to the world model the test main runs:
// the process sets MPI offers, what it says about them, a group from one and a
// communicator from that group that carries named calls.
#include <doctest/doctest.h>

#include <algorithm>
#include <nampi/nampi.hpp>
#include <nampi/session.hpp>  // sessions are opt-in: their typed-layer calls cost every unit otherwise
#include <string>
#include <vector>

using namespace nampi::params;

#if defined(NAMPI_HAVE_SESSIONS)

namespace {
bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

TEST_CASE("a session lists mpi://WORLD and mpi://SELF, with their sizes") {
  nampi::Communicator world;
  nampi::Session session;
  const std::vector<std::string> names = session.pset_names();
  CHECK(contains(names, "mpi://WORLD"));
  CHECK(contains(names, "mpi://SELF"));

  std::string size_of_world;
  for (const auto& [key, value] : session.pset_info("mpi://WORLD"))
    if (key == "mpi_size") size_of_world = value;
  CHECK(size_of_world == std::to_string(world.size()));
}

TEST_CASE("a group from a process set, and a communicator from the group") {
  nampi::Communicator world;
  nampi::Session session;
  const nampi::group everyone = session.group_of("mpi://WORLD");
  CHECK(everyone.size() == world.size());
  CHECK(everyone.rank() == world.rank());
  CHECK(session.group_of("mpi://SELF").size() == 1);
  {
    nampi::OwnedCommunicator comm = session.communicator_of(everyone, "nampi.test.session");
    CHECK(comm.size() == world.size());
    CHECK(comm.rank() == world.rank());
    CHECK(comm.allreduce_single(send_buf(1), op(std::plus<>{})) == world.size());
  }  // freed before the session ends
}

#else

TEST_CASE("sessions") { MESSAGE("this MPI has no MPI-4 sessions: nampi::Session not tested"); }

#endif
