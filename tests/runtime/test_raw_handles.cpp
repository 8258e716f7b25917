// mpi_handle(): every nampi type that holds an MPI handle gives it by that one member, for C
// libraries (PETSc, HDF5, ...). Each case hands it to a plain C function, as such a library
// would take it, that asks MPI's C API about the handle; the answers are checked against what
// nampi says of the same object.
#include <doctest/doctest.h>

#include <functional>
#include <nampi/nampi.hpp>
#include <nampi/plugins/sort.hpp>
#include <nampi/session.hpp>
#include <nampi_test_support.hpp>
#include <vector>

using namespace nampi::params;

// What a C library's functions look like: MPI handles in, MPI's C API inside.
extern "C" {

int c_comm_size(MPI_Comm comm) {
  int size = -1;
  MPI_Comm_size(comm, &size);
  return size;
}

int c_comm_rank(MPI_Comm comm) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

int c_type_size(MPI_Datatype type) {
  int size = -1;
  MPI_Type_size(type, &size);
  return size;
}

int c_window_group_size(MPI_Win win) {
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Win_get_group(win, &group);
  int size = -1;
  MPI_Group_size(group, &size);
  MPI_Group_free(&group);
  return size;
}

long long c_file_size(MPI_File file) {
  MPI_Offset size = -1;
  MPI_File_get_size(file, &size);
  return static_cast<long long>(size);
}

int c_group_size(MPI_Group group) {
  int size = -1;
  MPI_Group_size(group, &size);
  return size;
}

int c_op_commutative(MPI_Op op) {
  int commutes = -1;
  MPI_Op_commutative(op, &commutes);
  return commutes;
}

// Completes a request by polling it, as a library with its own progress loop would; returns
// the status's source.
int c_complete(MPI_Request* request) {
  int done = 0;
  MPI_Status status;
  while (!done) MPI_Test(request, &done, &status);
  return status.MPI_SOURCE;
}

int c_request_done(MPI_Request request) {
  int done = 0;
  MPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
  return done;
}

// Receives a matched message of ints into `out`; returns the count received.
int c_mrecv_ints(MPI_Message message, int* out, int capacity) {
  MPI_Status status;
  MPI_Mrecv(out, capacity, MPI_INT, &message, &status);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  return count;
}

#if defined(NAMPI_HAVE_SESSIONS)
int c_session_pset_count(MPI_Session session) {
  int n = -1;
  MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n);
  return n;
}
#endif

}  // extern "C"

TEST_CASE("communicators of every kind give their MPI_Comm") {
  nampi::Communicator world;
  CHECK(world.mpi_handle() == MPI_COMM_WORLD);
  CHECK(c_comm_size(world.mpi_handle()) == world.size());

  // A split: halves of even and odd ranks, each rank at its position there.
  nampi::OwnedCommunicator half = world.split(color(world.rank() % 2));
  CHECK(c_comm_size(half.mpi_handle()) == (world.size() + 1 - world.rank() % 2) / 2);
  CHECK(c_comm_rank(half.mpi_handle()) == world.rank() / 2);
  CHECK(half.mpi_handle() == half.mpi_communicator());

  // With plugins, and what their calls create.
  nampi::BasicCommunicator<nampi::plugins::sort> with_plugin;
  CHECK(c_comm_size(with_plugin.mpi_handle()) == world.size());
  auto dup = with_plugin.dup();
  static_assert(std::is_same_v<decltype(dup), nampi::OwnedBasicCommunicator<nampi::plugins::sort>>);
  CHECK(dup.mpi_handle() != MPI_COMM_WORLD);
  CHECK(c_comm_size(dup.mpi_handle()) == world.size());
  CHECK(c_comm_rank(dup.mpi_handle()) == world.rank());

  // The typed layer's handles too.
  const nampi::mpi::comm typed(MPI_COMM_WORLD);
  CHECK(c_comm_size(typed.mpi_handle()) == world.size());
}

TEST_CASE("a range communicator gives its parent's MPI_Comm") {
  nampi::Communicator world;
  nampi::OwnedCommunicator parent = world.dup();
  auto range = parent.range(first(0), last(parent.size() - 1), stride(2));
  CHECK(range.mpi_handle() == parent.mpi_handle());
  CHECK(c_comm_size(range.mpi_handle()) == world.size());  // the parent's size, not the range's
  CHECK(range.size() == (world.size() + 1) / 2);
}

TEST_CASE("a datatype gives its MPI_Datatype") {
  const auto every_other = nampi::datatype::vector(3, 1, 2, MPI_INT);
  CHECK(c_type_size(every_other.mpi_handle()) == 3 * static_cast<int>(sizeof(int)));
  CHECK(every_other.mpi_handle() == every_other.get());
  const auto pairs = nampi::datatype::contiguous(2, every_other);
  CHECK(c_type_size(pairs.mpi_handle()) == 6 * static_cast<int>(sizeof(int)));
}

TEST_CASE("a window gives its MPI_Win") {
  nampi::Communicator comm;
  auto win = comm.win_allocate<int>(nampi::params::size(4));
  CHECK(c_window_group_size(win.mpi_handle()) == comm.size());
  CHECK(win.mpi_handle() == win.mpi_window());
}

TEST_CASE("a file gives its MPI_File") {
  nampi::Communicator comm;
  const nampi_test::scratch_path path(comm, "raw_handles");
  auto file = comm.file_open(filename(path.name()), amode(MPI_MODE_CREATE | MPI_MODE_RDWR));
  const std::vector<int> block{1, 2, 3};
  file.write_at_all(offset(comm.rank() * 3 * static_cast<MPI_Offset>(sizeof(int))), send_buf(block));
  file.sync();
  comm.barrier();
  CHECK(c_file_size(file.mpi_handle()) == comm.size() * 3 * static_cast<long long>(sizeof(int)));
}

TEST_CASE("a group gives its MPI_Group") {
  nampi::Communicator comm;
  const nampi::group everyone = comm.group();
  CHECK(c_group_size(everyone.mpi_handle()) == comm.size());
  const nampi::group first_only = everyone.incl({0});
  CHECK(c_group_size(first_only.mpi_handle()) == 1);
  CHECK(first_only.mpi_handle() == first_only.mpi_group());
}

TEST_CASE("an op gives its MPI_Op") {
  // The op of one call (what op(...) becomes inside it): a builtin one, and a user op that
  // MPI may not reorder unless marked commutative.
  nampi::detail::op_lease lease;
  const auto sum = nampi::detail::mpi_op<int>(std::plus<>{}, lease);
  CHECK(sum.mpi_handle() == MPI_SUM);
  CHECK(c_op_commutative(sum.mpi_handle()) == 1);
  const auto first_wins = [](int a, int) { return a; };
  const auto ordered = nampi::detail::mpi_op<int>(first_wins, lease);
  CHECK(c_op_commutative(ordered.mpi_handle()) == 0);
  const auto marked = nampi::detail::mpi_op<int>(nampi::commutative(first_wins), lease);
  CHECK(c_op_commutative(marked.mpi_handle()) == 1);
}

TEST_CASE("a nonblocking result and a matched message give their MPI handles") {
  nampi::Communicator comm;
  const int me = comm.rank();
  const std::vector<int> out{me, me + 1, me + 2};
  auto receive = comm.irecv<int>(source(me), tag(7), recv_count(3));
  auto send = comm.isend(send_buf(out), dest(me), tag(7));
  c_complete(&send.mpi_handle());
  CHECK(send.mpi_handle() == MPI_REQUEST_NULL);  // completed there, as MPI_Test leaves it
  send.take_completed(MPI_STATUS_IGNORE);
  CHECK(c_complete(&receive.mpi_handle()) == me);
  CHECK(receive.take_completed(MPI_STATUS_IGNORE) == out);

  // A matched message, received by the C function.
  auto again = comm.isend(send_buf(out), dest(me), tag(8));
  const nampi::message m = comm.mprobe(source(me), tag(8));
  int in[3] = {};
  CHECK(c_mrecv_ints(m.mpi_handle(), in, 3) == 3);
  CHECK(std::vector<int>(in, in + 3) == out);
  again.wait();
}

#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT)  // MPI 4.0 (not Open MPI 4.1)
TEST_CASE("a persistent call gives its MPI_Request") {
  nampi::Communicator comm;
  int x = comm.rank() + 1;
  auto step = comm.allreduce_single_init(send_buf(x), op(std::plus<>{}));
  // Inactive: the standard says MPI_Request_get_status reports it complete. Debian's MPICH
  // 4.0.2 reports 0 for a persistent request of its own as well, so a plain MPI request of
  // the same call says what this MPI answers, and nampi's must answer the same.
  int y = x, sum = 0;
  MPI_Request plain = MPI_REQUEST_NULL;
  MPI_Allreduce_init(&y, &sum, 1, MPI_INT, MPI_SUM, comm.mpi_handle(), MPI_INFO_NULL, &plain);
  const int mpi_says = c_request_done(plain);
  MPI_Request_free(&plain);
  if (mpi_says != 1) MESSAGE("this MPI reports an inactive persistent request as not complete");
  CHECK(c_request_done(step.mpi_handle()) == mpi_says);
  for (int round = 1; round <= 2; ++round) {
    x = round * (comm.rank() + 1);
    step.start();
    c_complete(&step.mpi_handle());
    step.mark_started(false);
    CHECK(step.value() == round * comm.size() * (comm.size() + 1) / 2);
  }
}
#endif

#if defined(NAMPI_HAVE_SESSIONS)
TEST_CASE("a session gives its MPI_Session") {
  nampi::Session session;
  CHECK(c_session_pset_count(session.mpi_handle()) ==
        static_cast<int>(session.pset_names().size()));
  CHECK(session.mpi_handle() == session.mpi_session());
}
#endif
