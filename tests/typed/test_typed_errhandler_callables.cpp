// nampi::mpi callables as error handlers of windows, files and sessions: a capture-free
// lambda is created, set and triggered with *_call_errhandler; it sees the handle and the code.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nampi/mpi/environment.hpp>
#include <nampi/mpi/io.hpp>
#include <nampi/mpi/process.hpp>
#include <nampi/mpi/rma.hpp>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

#if defined(NAMPI_HAVE_MPI_WIN_CREATE_ERRHANDLER) && defined(NAMPI_HAVE_MPI_WIN_CALL_ERRHANDLER)
namespace {
// The test's record of what the handler saw (the handler itself is stateless).
MPI_Win seen_win = MPI_WIN_NULL;
int seen_win_code = MPI_SUCCESS;
}  // namespace

TEST_CASE("win_create_errhandler from a capture-free lambda") {
  int slot = 0;
  nampi_pmpi_reset();
  {
    mpi::unique_win win = mpi::win_create(&slot, sizeof(int), static_cast<int>(sizeof(int)),
                                          mpi::info(), mpi::comm_world());
    mpi::unique_errhandler handler = mpi::win_create_errhandler([](mpi::win w, int code) {
      seen_win = w.get();
      seen_win_code = code;
    });
    mpi::win_set_errhandler(win, handler);
    mpi::win_call_errhandler(win, MPI_ERR_RANK);
    CHECK(seen_win == win.get());
    CHECK(seen_win_code == MPI_ERR_RANK);
  }
  // One owner check of MPI_Finalized each for the window and the handler.
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Errhandler_free", 1},
                                              {"MPI_Finalized", 2},
                                              {"MPI_Win_call_errhandler", 1},
                                              {"MPI_Win_create", 1},
                                              {"MPI_Win_create_errhandler", 1},
                                              {"MPI_Win_free", 1},
                                              {"MPI_Win_set_errhandler", 1}});
}
#endif

#if defined(NAMPI_HAVE_MPI_FILE_CREATE_ERRHANDLER) && defined(NAMPI_HAVE_MPI_FILE_CALL_ERRHANDLER)
namespace {
MPI_File seen_file = MPI_FILE_NULL;
int seen_file_code = MPI_SUCCESS;
}  // namespace

TEST_CASE("file_create_errhandler from a capture-free lambda") {
  // A unique name per rank (mkstemp); MPI deletes the file when it is closed.
  std::string name = (std::filesystem::temp_directory_path() / "nampi-errh-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  REQUIRE(fd >= 0);
  ::close(fd);
  nampi_pmpi_reset();
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), name.c_str(),
                                         MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, mpi::info());
    mpi::unique_errhandler handler = mpi::file_create_errhandler([](mpi::file f, int code) {
      seen_file = f.get();
      seen_file_code = code;
    });
    mpi::file_set_errhandler(fh, handler);
    mpi::file_call_errhandler(fh, MPI_ERR_IO);
    CHECK(seen_file == fh.get());
    CHECK(seen_file_code == MPI_ERR_IO);
  }
  CHECK_FALSE(std::filesystem::exists(name));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Errhandler_free", 1},
                                              {"MPI_File_call_errhandler", 1},
                                              {"MPI_File_close", 1},
                                              {"MPI_File_create_errhandler", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_set_errhandler", 1},
                                              {"MPI_Finalized", 2}});
}
#endif

#if defined(NAMPI_HAVE_MPI_SESSION_CREATE_ERRHANDLER) && \
    defined(NAMPI_HAVE_MPI_SESSION_CALL_ERRHANDLER) && defined(NAMPI_HAVE_MPI_SESSION_INIT)
namespace {
MPI_Session seen_session = MPI_SESSION_NULL;
int seen_session_code = MPI_SUCCESS;
}  // namespace

TEST_CASE("session_create_errhandler from a capture-free lambda") {
  nampi_pmpi_reset();
  {
    mpi::unique_session s = mpi::session_init(mpi::info(), mpi::errhandler(MPI_ERRORS_RETURN));
    mpi::unique_errhandler handler = mpi::session_create_errhandler([](mpi::session h, int code) {
      seen_session = h.get();
      seen_session_code = code;
    });
    mpi::session_set_errhandler(s, handler);
    mpi::session_call_errhandler(s, MPI_ERR_ARG);
    CHECK(seen_session == s.get());
    CHECK(seen_session_code == MPI_ERR_ARG);
  }  // the session's owner calls MPI_Session_finalize
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Errhandler_free", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Session_call_errhandler", 1},
                                              {"MPI_Session_create_errhandler", 1},
                                              {"MPI_Session_finalize", 1},
                                              {"MPI_Session_init", 1},
                                              {"MPI_Session_set_errhandler", 1}});
}
#endif
