// nampi::mpi data representations from C++ callables with captures: register_datarep takes
// read and write conversions (either may be absent) and an extent callable.
//
// MPI need not support user data representations, and none of the MPIs of nampi's test matrix
// does (MPICH's ROMIO refuses conversion functions and any view but "native"; Open MPI's OMPIO
// refuses the registration). So each MPI-level test first does the same with plain C functions
// and no nampi (the control): where the control fails, the MPI's refusal is reported (doctest
// MESSAGE) and the overload must fail with the same error class, leaving no state behind;
// where it succeeds, the overload must too, and a write/read round trip through a file in a
// temporary directory must run the callables. The last test calls the C callbacks the
// overload hands to MPI directly, as MPI would, so the conversions run on every MPI.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>
#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nampi/mpi/io.hpp>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace mpi = nampi::mpi;
namespace fs = std::filesystem;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

// The file representation of these tests: each int with its bytes in reverse order.
void reverse_ints(const void* from, void* to, std::size_t count) {
  const auto* in = static_cast<const unsigned char*>(from);
  auto* out = static_cast<unsigned char*>(to);
  for (std::size_t i = 0; i < count * sizeof(int); i += sizeof(int))
    for (std::size_t b = 0; b < sizeof(int); ++b) out[i + b] = in[i + sizeof(int) - 1 - b];
}

std::vector<unsigned char> reversed_bytes(const int* values, std::size_t count) {
  std::vector<unsigned char> bytes(count * sizeof(int));
  reverse_ints(values, bytes.data(), count);
  return bytes;
}

void require_int(mpi::datatype type) {
  if (type.get() != MPI_INT) throw std::invalid_argument("only MPI_INT has a file representation");
}

// The control: the same representation as plain C callbacks.
int c_read(void* userbuf, MPI_Datatype, int count, void* filebuf, MPI_Offset position, void*) {
  reverse_ints(filebuf, static_cast<int*>(userbuf) + position, static_cast<std::size_t>(count));
  return MPI_SUCCESS;
}
int c_write(void* userbuf, MPI_Datatype, int count, void* filebuf, MPI_Offset position, void*) {
  reverse_ints(static_cast<int*>(userbuf) + position, filebuf, static_cast<std::size_t>(count));
  return MPI_SUCCESS;
}
int c_extent(MPI_Datatype, MPI_Aint* extent, void*) {
  *extent = sizeof(int);
  return MPI_SUCCESS;
}

int error_class_of(int code) {
  int error_class = code;
  MPI_Error_class(code, &error_class);
  return error_class;
}

// A fresh directory of this rank (mkdtemp), removed with its contents at scope exit.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "nampi-datarep-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  fs::path file(const char* name) const { return path_ / name; }

 private:
  fs::path path_;
};

std::vector<unsigned char> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What the callables of one registration saw.
struct conversion_log {
  int reads = 0;
  int writes = 0;
  int extents = 0;
};

}  // namespace

TEST_CASE("register_datarep with conversion callables: a write/read round trip through a file") {
  conversion_log log;
  const auto alive = std::make_shared<int>(0);  // one more owner per callable the state holds
  nampi_pmpi_reset();
  const int control =
      MPI_Register_datarep("nampi_reversed_control", c_read, c_write, c_extent, nullptr);
  int typed_class = MPI_SUCCESS;
  std::string typed_error;
  try {
    mpi::register_datarep(
        "nampi_reversed",
        [&log, alive](void* userbuf, mpi::datatype type, int count, void* filebuf,
                      MPI_Offset position) {
          ++log.reads;
          require_int(type);
          reverse_ints(filebuf, static_cast<int*>(userbuf) + position,
                       static_cast<std::size_t>(count));
        },
        [&log, alive](void* userbuf, mpi::datatype type, int count, void* filebuf,
                      MPI_Offset position) {
          ++log.writes;
          require_int(type);
          reverse_ints(static_cast<const int*>(userbuf) + position, filebuf,
                       static_cast<std::size_t>(count));
        },
        [&log, alive](mpi::datatype type) -> MPI_Aint {
          ++log.extents;
          require_int(type);
          return sizeof(int);
        });
  } catch (const nampi::mpi_error& e) {
    typed_class = e.error_class();
    typed_error = e.what();
  }

  if (control != MPI_SUCCESS) {
    MESSAGE(
        "NOT SUPPORTED by this MPI: user data representations with conversion functions. "
        "MPI_Register_datarep of plain C functions failed: "
        << nampi::mpi_error::error_string(control) << " -- the typed overload: " << typed_error);
    CHECK(typed_class == error_class_of(control));
    CHECK(alive.use_count() == 1);  // MPI never saw the state: freed at once
    CHECK(log.reads + log.writes + log.extents == 0);
    // mpi_error of the overload, then the report of the control: a string and a class each.
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 2},
                                                {"MPI_Error_string", 2},
                                                {"MPI_Register_datarep", 2}});
    return;
  }
  REQUIRE_MESSAGE(typed_class == MPI_SUCCESS, typed_error);
  CHECK(alive.use_count() == 4);  // kept until MPI_Finalize has returned

  const temp_dir dir;
  const fs::path path = dir.file("reversed");
  const int values[3] = {1, -2, 0x01020304};
  int back[3] = {0, 0, 0};
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), path.c_str(),
                                         MPI_MODE_RDWR | MPI_MODE_CREATE, mpi::info());
    mpi::file_set_view(fh, 0, mpi::datatype(MPI_INT), mpi::datatype(MPI_INT), "nampi_reversed",
                       mpi::info());
    mpi::file_write_at(fh, 0, values, 3, mpi::datatype(MPI_INT));
    mpi::file_sync(fh);
    mpi::file_read_at(fh, 0, back, 3, mpi::datatype(MPI_INT));
  }
  CHECK(std::vector<int>(back, back + 3) == std::vector<int>(values, values + 3));
  CHECK(file_bytes(path) == reversed_bytes(values, 3));  // the file holds its representation
  CHECK(log.writes >= 1);
  CHECK(log.reads >= 1);
  CHECK(log.extents >= 1);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_File_close", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_read_at", 1},
                                              {"MPI_File_set_view", 1},
                                              {"MPI_File_sync", 1},
                                              {"MPI_File_write_at", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Register_datarep", 2}});
}

TEST_CASE("register_datarep with absent conversions (nullptr, MPI_CONVERSION_FN_NULL)") {
  int extents = 0;
  const auto alive = std::make_shared<int>(0);
  nampi_pmpi_reset();
  const int control = MPI_Register_datarep("nampi_native_control", MPI_CONVERSION_FN_NULL,
                                           MPI_CONVERSION_FN_NULL, c_extent, nullptr);
  int typed_class = MPI_SUCCESS;
  std::string typed_error;
  try {
    mpi::register_datarep("nampi_native", nullptr, MPI_CONVERSION_FN_NULL,
                          [&extents, alive](mpi::datatype type) -> MPI_Aint {
                            ++extents;
                            require_int(type);
                            return sizeof(int);
                          });
  } catch (const nampi::mpi_error& e) {
    typed_class = e.error_class();
    typed_error = e.what();
  }

  if (control != MPI_SUCCESS) {
    MESSAGE(
        "NOT SUPPORTED by this MPI: user data representations, even without conversions. "
        "MPI_Register_datarep of a plain C extent function failed: "
        << nampi::mpi_error::error_string(control) << " -- the typed overload: " << typed_error);
    CHECK(typed_class == error_class_of(control));
    CHECK(alive.use_count() == 1);  // MPI never saw the state: freed at once
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 2},
                                                {"MPI_Error_string", 2},
                                                {"MPI_Register_datarep", 2}});
    return;
  }
  REQUIRE_MESSAGE(typed_class == MPI_SUCCESS, typed_error);
  CHECK(alive.use_count() == 2);  // only the extent callable has state to keep

  // Without conversions, the file holds the native representation.
  const temp_dir dir;
  const fs::path path = dir.file("native");
  const int values[3] = {7, -8, 0x0a0b0c0d};
  int back[3] = {0, 0, 0};
  bool viewed = false;
  {
    mpi::unique_file fh = mpi::file_open(mpi::comm_self(), path.c_str(),
                                         MPI_MODE_RDWR | MPI_MODE_CREATE, mpi::info());
    int view_class = MPI_SUCCESS;
    std::string view_error;
    try {
      mpi::file_set_view(fh, 0, mpi::datatype(MPI_INT), mpi::datatype(MPI_INT), "nampi_native",
                         mpi::info());
      viewed = true;
    } catch (const nampi::mpi_error& e) {
      view_class = e.error_class();
      view_error = e.what();
    }
    if (!viewed) {
      const int control_view =
          MPI_File_set_view(fh.get(), 0, MPI_INT, MPI_INT, "nampi_native_control", MPI_INFO_NULL);
      MESSAGE(
          "NOT SUPPORTED by this MPI: a view with a user data representation. It registers "
          "one, but MPI_File_set_view refuses it: "
          << view_error << " -- the control: " << nampi::mpi_error::error_string(control_view));
      CHECK(control_view != MPI_SUCCESS);
      CHECK(view_class == error_class_of(control_view));
    } else {
      mpi::file_write_at(fh, 0, values, 3, mpi::datatype(MPI_INT));
      mpi::file_sync(fh);
      mpi::file_read_at(fh, 0, back, 3, mpi::datatype(MPI_INT));
    }
  }
  if (!viewed) {
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 2},
                                                {"MPI_Error_string", 2},
                                                {"MPI_File_close", 1},
                                                {"MPI_File_open", 1},
                                                {"MPI_File_set_view", 2},
                                                {"MPI_Finalized", 1},
                                                {"MPI_Register_datarep", 2}});
    return;
  }
  CHECK(std::vector<int>(back, back + 3) == std::vector<int>(values, values + 3));
  const auto* native = reinterpret_cast<const unsigned char*>(values);
  CHECK(file_bytes(path) == std::vector<unsigned char>(native, native + sizeof values));
  CHECK(extents >= 1);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_File_close", 1},
                                              {"MPI_File_open", 1},
                                              {"MPI_File_read_at", 1},
                                              {"MPI_File_set_view", 1},
                                              {"MPI_File_sync", 1},
                                              {"MPI_File_write_at", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Register_datarep", 2}});
}

TEST_CASE("datarep callables: the C callbacks given to MPI convert, and report what they throw") {
  conversion_log log;
  auto state = mpi::callable::make_state<mpi::callable::datarep_conversion_function,
                                         mpi::callable::datarep_conversion_function,
                                         mpi::callable::datarep_extent_function>(
      [&log](void* userbuf, mpi::datatype type, int count, void* filebuf, MPI_Offset position) {
        ++log.reads;
        if (count < 0) throw nampi::mpi_error("read conversion", MPI_ERR_CONVERSION);
        require_int(type);
        reverse_ints(filebuf, static_cast<int*>(userbuf) + position,
                     static_cast<std::size_t>(count));
      },
      [&log](void* userbuf, mpi::datatype type, int count, void* filebuf, MPI_Offset position) {
        ++log.writes;
        require_int(type);
        reverse_ints(static_cast<const int*>(userbuf) + position, filebuf,
                     static_cast<std::size_t>(count));
      },
      [&log](mpi::datatype type) -> MPI_Aint {
        ++log.extents;
        require_int(type);
        return sizeof(int);
      });
  MPI_Datarep_conversion_function* const read = state->c_function<0>();
  MPI_Datarep_conversion_function* const write = state->c_function<1>();
  MPI_Datarep_extent_function* const extent = state->c_function<2>();
  void* const extra_state = state->extra_state();

  int values[3] = {1, -2, 0x01020304};
  std::vector<unsigned char> file(sizeof values);
  int back[3] = {0, 0, 0};
  nampi_pmpi_reset();
  CHECK(write(values, MPI_INT, 3, file.data(), 0, extra_state) == MPI_SUCCESS);
  CHECK(file == reversed_bytes(values, 3));
  // Two elements from the file into the user buffer, starting one element in.
  CHECK(read(back, MPI_INT, 2, file.data() + sizeof(int), 1, extra_state) == MPI_SUCCESS);
  CHECK(back[0] == 0);
  CHECK(back[1] == -2);
  CHECK(back[2] == 0x01020304);
  MPI_Aint file_extent = 0;
  CHECK(extent(MPI_INT, &file_extent, extra_state) == MPI_SUCCESS);
  CHECK(file_extent == static_cast<MPI_Aint>(sizeof(int)));
  // What a callable throws becomes its callback's return code: MPI_ERR_OTHER, or the code of an
  // mpi_error (whose constructor asks MPI for its string and class).
  CHECK(extent(MPI_DOUBLE, &file_extent, extra_state) == MPI_ERR_OTHER);
  CHECK(write(values, MPI_DOUBLE, 1, file.data(), 0, extra_state) == MPI_ERR_OTHER);
  CHECK(read(back, MPI_INT, -1, file.data(), 0, extra_state) == MPI_ERR_CONVERSION);
  CHECK(log.reads == 2);
  CHECK(log.writes == 2);
  CHECK(log.extents == 2);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 1}, {"MPI_Error_string", 1}});

  // Absent conversions stay null pointers (MPI_CONVERSION_FN_NULL) with no trampoline.
  auto absent = mpi::callable::make_state<mpi::callable::datarep_conversion_function,
                                          mpi::callable::datarep_conversion_function,
                                          mpi::callable::datarep_extent_function>(
      nullptr, MPI_CONVERSION_FN_NULL, c_extent);
  // (Function pointers compared outside CHECK: doctest cannot print them.)
  const bool read_absent = absent->c_function<0>() == nullptr;
  const bool write_absent = absent->c_function<1>() == nullptr;
  const bool extent_passed_through = absent->c_function<2>() == &c_extent;
  CHECK(read_absent);
  CHECK(write_absent);
  CHECK(extent_passed_through);
}
