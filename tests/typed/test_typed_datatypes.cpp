// nampi::mpi datatypes and large counts: values, owners and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <map>
#include <nampi/mpi/datatypes.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
const mpi::datatype mpi_int{MPI_INT};
}

TEST_CASE("type_contiguous, commit, size, extent; the owner frees with MPI_Type_free") {
  nampi_pmpi_reset();
  {
    mpi::unique_datatype triple = mpi::type_contiguous(3, mpi_int);
    mpi::type_commit(triple);  // takes datatype&: the owner binds to it
    CHECK(mpi::type_size(triple) == 3 * static_cast<int>(sizeof(int)));
    const mpi::type_get_extent_result extent = mpi::type_get_extent(triple);
    CHECK(extent.lb == 0);
    CHECK(extent.extent == static_cast<MPI_Aint>(3 * sizeof(int)));

    // Two triples to myself on MPI_COMM_SELF: the data arrives in order.
    const std::array<int, 6> out{1, 2, 3, 4, 5, 6};
    std::array<int, 6> in{};
    const MPI_Status status =
        mpi::sendrecv(out.data(), 2, triple, 0, 7, in.data(), 2, triple, 0, 7, mpi::comm_self());
    CHECK(in == out);
    CHECK(status.MPI_TAG == 7);
    CHECK(mpi::get_count(status, triple) == 2);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Get_count", 1},
                                              {"MPI_Sendrecv", 1},
                                              {"MPI_Type_commit", 1},
                                              {"MPI_Type_contiguous", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_extent", 1},
                                              {"MPI_Type_size", 1}});
}

TEST_CASE("type_free through the reference; adopting a predefined datatype frees nothing") {
  nampi_pmpi_reset();
  {
    mpi::unique_datatype t = mpi::type_contiguous(2, mpi_int);
    mpi::type_free(t);
    CHECK(t.is_null());
    mpi::unique_datatype builtin(mpi_int);  // asks MPI once whether it is predefined
    CHECK_FALSE(builtin.owns());
    CHECK(builtin.get() == MPI_INT);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Type_contiguous", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_envelope", 1}});
}

TEST_CASE("type_create_struct: spans give the count; a span of another size is refused") {
  const std::vector<int> blocklengths{1, 2};
  const std::vector<MPI_Aint> displacements{0, static_cast<MPI_Aint>(sizeof(int))};
  const std::vector<mpi::datatype> types{mpi_int, mpi_int};
  nampi_pmpi_reset();
  {
    mpi::unique_datatype t = mpi::type_create_struct(blocklengths, displacements, types);
    CHECK(mpi::type_size(t) == 3 * static_cast<int>(sizeof(int)));
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Type_create_struct", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_size", 1}});
#if NAMPI_ASSERTION_LEVEL > 0
  const std::vector<mpi::datatype> one_type{mpi_int};
  nampi_pmpi_reset();
  CHECK_THROWS_WITH_AS(mpi::type_create_struct(blocklengths, displacements, one_type),
                       "nampi: MPI_Type_create_struct: array_of_types has 1 elements, "
                       "array_of_blocklengths has 2",
                       nampi::usage_error);
  CHECK(nampi_pmpi::snapshot().empty());
#endif
}

TEST_CASE("large count: the MPI_Count overload calls the _c function, or narrows with a check") {
  const MPI_Count small = 5;
  nampi_pmpi_reset();
  {
    mpi::unique_datatype t = mpi::type_contiguous(small, mpi_int);
    CHECK(mpi::type_size(t) == 5 * static_cast<int>(sizeof(int)));
  }
#if defined(NAMPI_HAVE_MPI_TYPE_CONTIGUOUS_C)
  const char* expected_call = "MPI_Type_contiguous_c";
#else
  const char* expected_call = "MPI_Type_contiguous";
#endif
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{
            {expected_call, 1}, {"MPI_Finalized", 1}, {"MPI_Type_free", 1}, {"MPI_Type_size", 1}});

  const MPI_Count huge = MPI_Count{1} << 33;  // does not fit int
  nampi_pmpi_reset();
#if defined(NAMPI_HAVE_MPI_TYPE_CONTIGUOUS_C) && defined(NAMPI_HAVE_MPI_TYPE_SIZE_C)
  {
    mpi::unique_datatype t = mpi::type_contiguous(huge, mpi::datatype(MPI_BYTE));
    CHECK(mpi::type_size_c(t) == huge);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Type_contiguous_c", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_size_c", 1}});
#else
  CHECK_THROWS_WITH_AS(
      mpi::type_contiguous(huge, mpi::datatype(MPI_BYTE)),
      "nampi: MPI_Type_contiguous_c: 'count' (8589934592) does not fit the function without _c "
      "that this MPI offers instead",
      mpi::count_error);
  CHECK(nampi_pmpi::snapshot().empty());  // refused before any MPI call
#endif
}

TEST_CASE("narrowing reports the function, the parameter and the value") {
  const auto send_count = [](MPI_Count count) {
    return nampi::detail::narrow<int, mpi::count_error>(count, "MPI_Send_c", "count",
                                                        mpi::detail::without_c);
  };
  CHECK(send_count(42) == 42);
  CHECK_THROWS_WITH_AS(
      send_count(-3000000000LL),
      "nampi: MPI_Send_c: 'count' (-3000000000) does not fit the function without _c "
      "that this MPI offers instead",
      mpi::count_error);
  // The named calls throw usage_error, with the same message.
  CHECK_THROWS_WITH_AS(nampi::detail::narrow<short>(40000, "send", "count", "a short"),
                       "nampi: send: 'count' (40000) does not fit a short", nampi::usage_error);
  CHECK_THROWS_WITH_AS(nampi::detail::narrow<unsigned>(-1, "send", "count", "an unsigned"),
                       "nampi: send: 'count' (-1) does not fit an unsigned", nampi::usage_error);
}
