// nampi::mpi environment state (thread level, initialized, finalized) and, where the MPI
// has them (MPI-4.0), sessions and process sets: values and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/environment.hpp>
#include <nampi/mpi/info.hpp>
#include <nampi/mpi/process.hpp>
#include <nampi_mpi_library.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

TEST_CASE("query_thread, is_thread_main, initialized, finalized inside the world model") {
  int provided = -1;
  MPI_Query_thread(&provided);
  nampi_pmpi_reset();
  const int level = mpi::query_thread();
  const bool main_thread = mpi::is_thread_main();
  const bool initialized = mpi::initialized();
  const bool finalized = mpi::finalized();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Initialized", 1},
                                              {"MPI_Is_thread_main", 1},
                                              {"MPI_Query_thread", 1}});
  CHECK(level == provided);
  CHECK(level >= MPI_THREAD_SINGLE);
  CHECK(level <= MPI_THREAD_MULTIPLE);
  CHECK(main_thread);  // doctest runs the cases on the thread that called MPI_Init
  CHECK(initialized);
  CHECK_FALSE(finalized);
}

#if defined(NAMPI_HAVE_MPI_SESSION_INIT)
namespace {
// The name of process set n, asked for in two steps: its length, then the text.
std::string nth_pset(mpi::session s, int n) {
  int length = 0;
  mpi::session_get_nth_pset(s, mpi::info(), n, length, nullptr);
  std::string name(static_cast<std::size_t>(length), '\0');  // length counts the NUL
  mpi::session_get_nth_pset(s, mpi::info(), n, length, name.data());
  name.resize(std::strlen(name.c_str()));
  return name;
}

int session_handled_code = MPI_SUCCESS;
void record_session_error(MPI_Session*, int* code, ...) { session_handled_code = *code; }
}  // namespace

TEST_CASE("session: process sets, pset info, a communicator from mpi://WORLD, finalize") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::string> names;
  std::string world_size;
  nampi_pmpi_reset();
  {
    mpi::unique_session s = mpi::session_init(mpi::info(), mpi::errhandler(MPI_ERRORS_RETURN));
    CHECK(s.owns());
    const int psets = mpi::session_get_num_psets(s, mpi::info());
    for (int i = 0; i < psets; ++i) names.push_back(nth_pset(s, i));

    mpi::unique_info pset_info = mpi::session_get_pset_info(s, "mpi://WORLD");
    char value[32] = {};
    int length = sizeof value;
    CHECK(mpi::info_get_string(pset_info, "mpi_size", length, value));
    world_size = value;

    mpi::unique_group group = mpi::group_from_session_pset(s, "mpi://WORLD");
    CHECK(mpi::group_size(group) == size);
    mpi::unique_comm comm = mpi::comm_create_from_group(group, "nampi.typed.session", mpi::info(),
                                                        mpi::errhandler(MPI_ERRORS_RETURN));
    CHECK(mpi::comm_size(comm) == size);
    CHECK(mpi::comm_rank(comm) == mpi::group_rank(group));

    comm.reset();  // everything derived from the session goes before the session
    group.reset();
    mpi::session_finalize(s);
    CHECK(s.is_null());
  }
  CHECK(names.size() >= 2);
  CHECK(std::count(names.begin(), names.end(), "mpi://WORLD") == 1);
  CHECK(std::count(names.begin(), names.end(), "mpi://SELF") == 1);
  CHECK(world_size == std::to_string(size));
  const unsigned long long psets = names.size();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_create_from_group", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_rank", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Finalized", 3},
                                              {"MPI_Group_free", 1},
                                              {"MPI_Group_from_session_pset", 1},
                                              {"MPI_Group_rank", 1},
                                              {"MPI_Group_size", 1},
                                              {"MPI_Info_free", 1},
                                              {"MPI_Info_get_string", 1},
                                              {"MPI_Session_finalize", 1},
                                              {"MPI_Session_get_nth_pset", 2 * psets},
                                              {"MPI_Session_get_num_psets", 1},
                                              {"MPI_Session_get_pset_info", 1},
                                              {"MPI_Session_init", 1}});
}

TEST_CASE("session error handler from a C function; session_get_info; the owner finalizes") {
  session_handled_code = MPI_SUCCESS;
  const bool mpich_4_0 = nampi_test::is_mpich_4_0();  // MPI calls before the counted part
  const std::string mpich_release = nampi_test::mpich_release();
  nampi_pmpi_reset();
  {
    mpi::unique_session s = mpi::session_init(mpi::info(), mpi::errhandler(MPI_ERRORS_RETURN));
    mpi::unique_errhandler initial = mpi::session_get_errhandler(s);
    // The errhandler passed to MPI_SESSION_INIT is the new session's error handler (MPI-4.0/4.1
    // section 11.3.1), which MPI_SESSION_GET_ERRHANDLER returns: "the error handler currently
    // associated with a session" (section 9.3.4). Known deviation, MPICH 4.0.x only: its
    // MPI_Session_init does not attach the argument, so the session keeps the default
    // MPI_ERRORS_ARE_FATAL (MPICH 5 and Open MPI return the handler given).
    if (mpich_4_0 && initial.get() == MPI_ERRORS_ARE_FATAL) {
      MESSAGE("MPICH " << mpich_release
                       << " deviates from the MPI standard: MPI_Session_init(info, "
                          "MPI_ERRORS_RETURN, &s) leaves MPI_ERRORS_ARE_FATAL on the session");
    } else {
      CHECK(initial.get() == MPI_ERRORS_RETURN);
    }
    mpi::unique_errhandler handler = mpi::session_create_errhandler(record_session_error);
    mpi::session_set_errhandler(s, handler);
    mpi::session_call_errhandler(s, MPI_ERR_ARG);
    CHECK(session_handled_code == MPI_ERR_ARG);
    mpi::unique_info info = mpi::session_get_info(s);
    CHECK(info.owns());
  }  // a session is not freed by MPI_Finalize: its owner calls MPI_Session_finalize
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Errhandler_free", 1},
                                              {"MPI_Finalized", 2},
                                              {"MPI_Info_free", 1},
                                              {"MPI_Session_call_errhandler", 1},
                                              {"MPI_Session_create_errhandler", 1},
                                              {"MPI_Session_finalize", 1},
                                              {"MPI_Session_get_errhandler", 1},
                                              {"MPI_Session_get_info", 1},
                                              {"MPI_Session_init", 1},
                                              {"MPI_Session_set_errhandler", 1}});
}
#endif
