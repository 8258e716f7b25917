// nampi::mpi info objects, environment queries and error strings: values and exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cstring>
#include <map>
#include <nampi/mpi/environment.hpp>
#include <nampi/mpi/info.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <string>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

TEST_CASE("info: create, set, get_string (length query, then value), nthkey, dup, free") {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string value = "value of rank " + std::to_string(rank);
  nampi_pmpi_reset();
  {
    mpi::unique_info info = mpi::info_create();
    CHECK(info.owns());
    mpi::info_set(info, "nampi_key", value.c_str());
    CHECK(mpi::info_get_nkeys(info) == 1);

#if defined(NAMPI_HAVE_MPI_INFO_GET_STRING)
    // Ask for the length first: MPI writes nothing into a 0-length buffer. The buffer is a real
    // one all the same: MPICH 4.0 rejects a null pointer even with length 0.
    char no_room = 0;
    int buflen = 0;
    CHECK(mpi::info_get_string(info, "nampi_key", buflen, &no_room));
    CHECK(buflen == static_cast<int>(value.size()) + 1);  // with the terminating NUL
    std::string got(static_cast<std::size_t>(buflen), '\0');
    CHECK(mpi::info_get_string(info, "nampi_key", buflen, got.data()));
    got.resize(std::strlen(got.c_str()));
    CHECK(got == value);

    int missing_len = 0;
    CHECK_FALSE(mpi::info_get_string(info, "nampi_absent", missing_len, &no_room));
#else
    // MPI before 4.0 (Open MPI 4.1): the deprecated length query and get.
    const auto length = mpi::info_get_valuelen(info, "nampi_key");
    CHECK(length.flag);
    CHECK(length.valuelen == static_cast<int>(value.size()));  // without the NUL
    std::string got(static_cast<std::size_t>(length.valuelen) + 1, '\0');
    CHECK(mpi::info_get(info, "nampi_key", length.valuelen, got.data()));
    got.resize(std::strlen(got.c_str()));
    CHECK(got == value);
    CHECK_FALSE(mpi::info_get_valuelen(info, "nampi_absent").flag);
#endif

    char key[MPI_MAX_INFO_KEY + 1] = {};
    mpi::info_get_nthkey(info, 0, key);
    CHECK(std::string(key) == "nampi_key");

    mpi::unique_info copy = mpi::info_dup(info);
    CHECK(mpi::info_get_nkeys(copy) == 1);
    mpi::info_delete(copy, "nampi_key");
    CHECK(mpi::info_get_nkeys(copy) == 0);
    CHECK(mpi::info_get_nkeys(info) == 1);
  }
  // The calls, with the value reads of this MPI (a directive inside CHECK's arguments is not
  // portable).
  const call_counts expected{{"MPI_Finalized", 2},       {"MPI_Info_create", 1},
                             {"MPI_Info_delete", 1},     {"MPI_Info_dup", 1},
                             {"MPI_Info_free", 2},       {"MPI_Info_get_nkeys", 4},
                             {"MPI_Info_get_nthkey", 1},
#if defined(NAMPI_HAVE_MPI_INFO_GET_STRING)
                             {"MPI_Info_get_string", 3},
#else
                             {"MPI_Info_get", 1},        {"MPI_Info_get_valuelen", 2},
#endif
                             {"MPI_Info_set", 1}};
  CHECK(nampi_pmpi::snapshot() == expected);
}

TEST_CASE("info_free through the owner's reference; MPI_INFO_ENV is never freed") {
  nampi_pmpi_reset();
  {
    mpi::unique_info info = mpi::info_create();
    mpi::info_free(info);
    CHECK(info.is_null());
    mpi::unique_info env(mpi::info(MPI_INFO_ENV));
    CHECK_FALSE(env.owns());
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Info_create", 1}, {"MPI_Info_free", 1}});
}

TEST_CASE("wtime and wtick return MPI's clock (functions that return a value: not counted)") {
  nampi_pmpi_reset();
  const double t0 = mpi::wtime();
  const double t1 = mpi::wtime();
  const double tick = mpi::wtick();
  CHECK(t1 >= t0);
  CHECK(tick > 0.0);
  CHECK(tick < 1.0);
  CHECK(nampi_pmpi::snapshot().empty());  // MPI_Wtime/MPI_Wtick return double: no counter
}

TEST_CASE("get_processor_name and get_library_version return std::string trimmed by resultlen") {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int name_len = 0;
  MPI_Get_processor_name(name, &name_len);
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int version_len = 0;
  MPI_Get_library_version(version, &version_len);

  nampi_pmpi_reset();
  const std::string got_name = mpi::get_processor_name();
  const std::string got_version = mpi::get_library_version();
  const mpi::get_version_result v = mpi::get_version();
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Get_library_version", 1},
                                              {"MPI_Get_processor_name", 1},
                                              {"MPI_Get_version", 1}});
  CHECK(got_name == std::string(name, strnlen(name, static_cast<std::size_t>(name_len))));
  CHECK_FALSE(got_name.empty());
  // Open MPI counts the terminating NUL in version_len, MPICH does not: the string stops before it.
  CHECK(got_version ==
        std::string(version, strnlen(version, static_cast<std::size_t>(version_len))));
  CHECK(got_version.find('\0') == std::string::npos);
  const bool known = got_version.find("MPICH") != std::string::npos ||
                     got_version.find("Open MPI") != std::string::npos;
  CHECK(known);
  CHECK(v.version == MPI_VERSION);
  CHECK(v.subversion == MPI_SUBVERSION);
}

TEST_CASE("error_string and error_class") {
  nampi_pmpi_reset();
  const std::string text = mpi::error_string(MPI_ERR_COUNT);
  const int cls = mpi::error_class(MPI_ERR_COUNT);
  const std::string success = mpi::error_string(MPI_SUCCESS);
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Error_class", 1}, {"MPI_Error_string", 2}});
  CHECK(cls == MPI_ERR_COUNT);
  CHECK_FALSE(text.empty());
  CHECK(text != success);
  CHECK(text == nampi::mpi_error::error_string(MPI_ERR_COUNT));
  CHECK(text.find('\0') == std::string::npos);
}

TEST_CASE("a negative count becomes nampi::mpi_error with MPI_ERR_COUNT from MPI_Send") {
  const int data = 7;
  bool thrown = false;
  try {
    mpi::send(&data, -1, mpi::datatype(MPI_INT), 0, 0, mpi::comm_world());
  } catch (const nampi::mpi_error& e) {
    thrown = true;
    CHECK(std::string(e.call()) == "MPI_Send");
    CHECK(e.error_class() == MPI_ERR_COUNT);
  }
  CHECK(thrown);
}
