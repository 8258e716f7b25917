// nampi::mpi MPI-IO in a temporary directory (removed afterwards): explicit offsets,
// individual file pointers, views, sizes, collective writes and file error handlers.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>
#include <stdlib.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <nampi/mpi/collectives.hpp>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/environment.hpp>
#include <nampi/mpi/io.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
namespace fs = std::filesystem;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
const mpi::datatype mpi_int{MPI_INT};
constexpr MPI_Offset int_bytes = sizeof(int);

// A fresh directory (mkdtemp) that is removed with everything in it at scope exit.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "nampi-io-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  explicit temp_dir(fs::path existing) : path_(std::move(existing)) {}
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};
}  // namespace

TEST_CASE("file_open on MPI_COMM_SELF: write_at, read_at, sizes, sync, close, delete") {
  const temp_dir dir;
  const std::string name = (dir.path() / "self.bin").string();
  const std::array<int, 3> out{7, 8, 9};
  std::array<int, 4> in{-1, -1, -1, -1};
  MPI_Offset size_after_write = -1, size_after_truncate = -1, size_after_prealloc = -1;
  int amode = 0;
  nampi_pmpi_reset();
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), name.c_str(),
                                         MPI_MODE_CREATE | MPI_MODE_RDWR, mpi::info());
    amode = mpi::file_get_amode(fh);
    // Ints 1..3 of the file: int 0 stays a hole of zeros.
    const MPI_Status written = mpi::file_write_at(fh, int_bytes, out.data(), 3, mpi_int);
    CHECK(mpi::get_count(written, mpi_int) == 3);
    mpi::file_sync(fh);
    size_after_write = mpi::file_get_size(fh);
    const MPI_Status read = mpi::file_read_at(fh, 0, in.data(), 4, mpi_int);
    CHECK(mpi::get_count(read, mpi_int) == 4);
    mpi::file_set_size(fh, 2 * int_bytes);
    size_after_truncate = mpi::file_get_size(fh);
    mpi::file_preallocate(fh, 6 * int_bytes);
    size_after_prealloc = mpi::file_get_size(fh);
    mpi::file_close(fh);  // through the reference: the owner has nothing left to close
    CHECK(fh.is_null());
  }
  CHECK(fs::exists(name));
  mpi::file_delete(name.c_str(), mpi::info());
  CHECK_FALSE(fs::exists(name));
  CHECK((amode & MPI_MODE_RDWR) != 0);
  CHECK((amode & MPI_MODE_CREATE) != 0);
  CHECK(size_after_write == 4 * int_bytes);
  CHECK(in == std::array<int, 4>{0, 7, 8, 9});
  CHECK(size_after_truncate == 2 * int_bytes);
  CHECK(size_after_prealloc == 6 * int_bytes);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_File_close", 1},
                                              {"MPI_File_delete", 1},
                                              {"MPI_File_get_amode", 1},
                                              {"MPI_File_get_size", 3},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_preallocate", 1},
                                              {"MPI_File_read_at", 1},
                                              {"MPI_File_set_size", 1},
                                              {"MPI_File_sync", 1},
                                              {"MPI_File_write_at", 1},
                                              {"MPI_Get_count", 2}});
}

TEST_CASE("individual file pointer and a view that skips a header; group, info, atomicity") {
  const temp_dir dir;
  const std::string name = (dir.path() / "view.bin").string();
  const std::array<int, 4> out{1, 2, 3, 4};
  std::array<int, 2> in{};
  char datarep[MPI_MAX_DATAREP_STRING] = {};
  nampi_pmpi_reset();
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), name.c_str(),
                                         MPI_MODE_CREATE | MPI_MODE_RDWR, mpi::info());
    // The view starts after an 8-byte header and counts in ints.
    mpi::file_set_view(fh, 8, mpi_int, mpi_int, "native", mpi::info());
    const mpi::file_get_view_result view = mpi::file_get_view(fh, datarep);
    CHECK(view.disp == 8);
    CHECK(view.etype.get() == MPI_INT);
    CHECK(view.filetype.get() == MPI_INT);
    CHECK(mpi::file_get_type_extent(fh, mpi_int) == int_bytes);

    mpi::file_write(fh, out.data(), 4, mpi_int);
    CHECK(mpi::file_get_position(fh) == 4);  // in etypes of the view
    CHECK(mpi::file_get_byte_offset(fh, 4) == 8 + 4 * int_bytes);
    mpi::file_seek(fh, 1, MPI_SEEK_SET);
    mpi::file_read(fh, in.data(), 2, mpi_int);
    CHECK(mpi::file_get_position(fh) == 3);

    mpi::unique_group group = mpi::file_get_group(fh);
    mpi::unique_group self = mpi::comm_group(mpi::comm_self());
    CHECK(mpi::group_compare(group, self) == MPI_IDENT);
    mpi::unique_info info = mpi::file_get_info(fh);
    CHECK(info.owns());
    mpi::file_set_atomicity(fh, true);
    CHECK(mpi::file_get_atomicity(fh));
  }
  CHECK(std::string(datarep) == "native");
  CHECK(in == std::array<int, 2>{2, 3});
  CHECK(fs::file_size(name) == 8 + 4 * sizeof(int));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_group", 1},
                                              {"MPI_File_close", 1},
                                              {"MPI_File_get_atomicity", 1},
                                              {"MPI_File_get_byte_offset", 1},
                                              {"MPI_File_get_group", 1},
                                              {"MPI_File_get_info", 1},
                                              {"MPI_File_get_position", 2},
                                              {"MPI_File_get_type_extent", 1},
                                              {"MPI_File_get_view", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_read", 1},
                                              {"MPI_File_seek", 1},
                                              {"MPI_File_set_atomicity", 1},
                                              {"MPI_File_set_view", 1},
                                              {"MPI_File_write", 1},
                                              {"MPI_Finalized", 4},
                                              {"MPI_Group_compare", 1},
                                              {"MPI_Group_free", 2},
                                              {"MPI_Info_free", 1}});
}

TEST_CASE("one shared file on MPI_COMM_WORLD: each rank writes its slot, reads all slots") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Rank 0 makes the directory; everybody learns its name; rank 0 removes it at the end.
  std::array<char, 4096> shared{};
  std::unique_ptr<temp_dir> dir;
  if (rank == 0) {
    dir = std::make_unique<temp_dir>();
    const std::string p = dir->path().string();
    REQUIRE(p.size() < shared.size());
    std::memcpy(shared.data(), p.c_str(), p.size() + 1);
  }
  std::vector<int> all(static_cast<std::size_t>(size), -1);
  const int mine = 1000 + rank;
  nampi_pmpi_reset();
  {
    mpi::bcast(shared.data(), static_cast<int>(shared.size()), mpi::datatype(MPI_CHAR), 0,
               mpi::comm_world());
    const std::string name = (fs::path(shared.data()) / "world.bin").string();
    mpi::unique_file fh = mpi::file_open(mpi::comm_world(), name.c_str(),
                                         MPI_MODE_CREATE | MPI_MODE_RDWR, mpi::info());
    mpi::file_write_at_all(fh, rank * int_bytes, &mine, 1, mpi_int);
    // The standard's sync-barrier-sync (MPI 4.1, 14.6.1): without the barrier a rank may read
    // before another rank's write reached the file (seen on MPICH 4.0 with 3 ranks).
    mpi::file_sync(fh);
    mpi::barrier(mpi::comm_world());
    mpi::file_sync(fh);
    mpi::file_read_at(fh, 0, all.data(), size, mpi_int);
  }
  std::vector<int> expected(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) expected[static_cast<std::size_t>(i)] = 1000 + i;
  CHECK(all == expected);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Barrier", 1},
                                              {"MPI_Bcast", 1},
                                              {"MPI_File_close", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_read_at", 1},
                                              {"MPI_File_sync", 2},
                                              {"MPI_File_write_at_all", 1},
                                              {"MPI_Finalized", 1}});
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has closed the file before rank 0 removes it
}

namespace {
int file_handled_code = MPI_SUCCESS;
void record_file_error(MPI_File*, int* code, ...) { file_handled_code = *code; }
}  // namespace

TEST_CASE("file error handler from a C function: create, set, get, call") {
  const temp_dir dir;
  const std::string name = (dir.path() / "errors.bin").string();
  file_handled_code = MPI_SUCCESS;
  nampi_pmpi_reset();
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), name.c_str(),
                                         MPI_MODE_CREATE | MPI_MODE_WRONLY, mpi::info());
    // Files start with the default file handler, MPI_ERRORS_RETURN.
    mpi::unique_errhandler initial = mpi::file_get_errhandler(fh);
    CHECK(initial.get() == MPI_ERRORS_RETURN);
    mpi::unique_errhandler handler = mpi::file_create_errhandler(record_file_error);
    mpi::file_set_errhandler(fh, handler);
    mpi::file_call_errhandler(fh, MPI_ERR_IO);
    CHECK(file_handled_code == MPI_ERR_IO);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Errhandler_free", 1},
                                              {"MPI_File_call_errhandler", 1},
                                              {"MPI_File_close", 1},
                                              {"MPI_File_create_errhandler", 1},
                                              {"MPI_File_get_errhandler", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_set_errhandler", 1},
                                              {"MPI_Finalized", 2}});
}
