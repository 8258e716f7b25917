// nampi::mpi derived datatype constructors and queries (extent, true extent, envelope,
// contents, elements): the layout each constructor describes and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <nampi/mpi/datatypes.hpp>
#include <nampi/mpi/language.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
const mpi::datatype mpi_int{MPI_INT};
constexpr MPI_Aint int_bytes = sizeof(int);
}  // namespace

TEST_CASE("type_vector: size, extent, envelope and contents; get_elements after a transfer") {
  nampi_pmpi_reset();
  {
    // 3 blocks of 2 ints, 4 ints apart: x x . . x x . . x x
    mpi::unique_datatype v = mpi::type_vector(3, 2, 4, mpi_int);
    mpi::type_commit(v);
    CHECK(mpi::type_size(v) == 6 * int_bytes);
    const mpi::type_get_extent_result extent = mpi::type_get_extent(v);
    CHECK(extent.lb == 0);
    CHECK(extent.extent == 10 * int_bytes);
    const mpi::type_get_true_extent_result true_extent = mpi::type_get_true_extent(v);
    CHECK(true_extent.true_lb == 0);
    CHECK(true_extent.true_extent == 10 * int_bytes);

    const mpi::type_get_envelope_result envelope = mpi::type_get_envelope(v);
    CHECK(envelope.combiner == MPI_COMBINER_VECTOR);
    CHECK(envelope.num_integers == 3);
    CHECK(envelope.num_addresses == 0);
    CHECK(envelope.num_datatypes == 1);
    const mpi::type_get_contents_result contents = mpi::type_get_contents(
        v, envelope.num_integers, envelope.num_addresses, envelope.num_datatypes);
    CHECK(contents.array_of_integers == std::vector<int>{3, 2, 4});
    REQUIRE(contents.array_of_datatypes.size() == 1);
    CHECK(contents.array_of_datatypes[0].get() == MPI_INT);  // predefined: nothing to free

    // The vector's ints, sent to myself as 6 contiguous ints.
    std::array<int, 10> strided{0, 1, 99, 99, 2, 3, 99, 99, 4, 5};
    std::array<int, 6> packed{};
    const MPI_Status status = mpi::sendrecv(strided.data(), 1, v, 0, 3, packed.data(), 6, mpi_int,
                                            0, 3, mpi::comm_self());
    CHECK(packed == std::array<int, 6>{0, 1, 2, 3, 4, 5});
    CHECK(mpi::get_elements(status, mpi_int) == 6);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Get_elements", 1},
                                              {"MPI_Sendrecv", 1},
                                              {"MPI_Type_commit", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_contents", 1},
                                              {"MPI_Type_get_envelope", 1},
                                              {"MPI_Type_get_extent", 1},
                                              {"MPI_Type_get_true_extent", 1},
                                              {"MPI_Type_size", 1},
                                              {"MPI_Type_vector", 1}});
}

TEST_CASE("type_indexed, indexed_block, hvector, hindexed, hindexed_block: sizes and extents") {
  const std::vector<int> blocklengths{2, 1};
  const std::vector<int> displacements{0, 3};  // in ints: x x . x
  const std::vector<MPI_Aint> byte_displacements{0, 3 * int_bytes};
  nampi_pmpi_reset();
  {
    mpi::unique_datatype indexed = mpi::type_indexed(blocklengths, displacements, mpi_int);
    CHECK(mpi::type_size(indexed) == 3 * int_bytes);
    CHECK(mpi::type_get_extent(indexed).extent == 4 * int_bytes);

    mpi::unique_datatype block = mpi::type_create_indexed_block(2, displacements, mpi_int);
    CHECK(mpi::type_size(block) == 4 * int_bytes);  // x x . x x
    CHECK(mpi::type_get_extent(block).extent == 5 * int_bytes);

    mpi::unique_datatype hvector = mpi::type_create_hvector(2, 1, MPI_Aint{3} * int_bytes, mpi_int);
    CHECK(mpi::type_size(hvector) == 2 * int_bytes);  // x . . x
    CHECK(mpi::type_get_extent(hvector).extent == 4 * int_bytes);

    mpi::unique_datatype hindexed =
        mpi::type_create_hindexed(blocklengths, byte_displacements, mpi_int);
    CHECK(mpi::type_size(hindexed) == 3 * int_bytes);
    CHECK(mpi::type_get_extent(hindexed).extent == 4 * int_bytes);

    mpi::unique_datatype hblock = mpi::type_create_hindexed_block(1, byte_displacements, mpi_int);
    CHECK(mpi::type_size(hblock) == 2 * int_bytes);
    CHECK(mpi::type_get_envelope(hblock).combiner == MPI_COMBINER_HINDEXED_BLOCK);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 5},
                                              {"MPI_Type_create_hindexed", 1},
                                              {"MPI_Type_create_hindexed_block", 1},
                                              {"MPI_Type_create_hvector", 1},
                                              {"MPI_Type_create_indexed_block", 1},
                                              {"MPI_Type_free", 5},
                                              {"MPI_Type_get_envelope", 1},
                                              {"MPI_Type_get_extent", 4},
                                              {"MPI_Type_indexed", 1},
                                              {"MPI_Type_size", 5}});
}

TEST_CASE("type_create_resized moves lb and extent, not the data; type_dup records its origin") {
  nampi_pmpi_reset();
  {
    mpi::unique_datatype padded =
        mpi::type_create_resized(mpi_int, MPI_Aint{-int_bytes}, MPI_Aint{4} * int_bytes);
    const mpi::type_get_extent_result extent = mpi::type_get_extent(padded);
    CHECK(extent.lb == -int_bytes);
    CHECK(extent.extent == 4 * int_bytes);
    const mpi::type_get_true_extent_result true_extent = mpi::type_get_true_extent(padded);
    CHECK(true_extent.true_lb == 0);
    CHECK(true_extent.true_extent == int_bytes);

    mpi::unique_datatype copy = mpi::type_dup(padded);
    const mpi::type_get_envelope_result envelope = mpi::type_get_envelope(copy);
    CHECK(envelope.combiner == MPI_COMBINER_DUP);
    const mpi::type_get_contents_result contents = mpi::type_get_contents(copy, 0, 0, 1);
    REQUIRE(contents.array_of_datatypes.size() == 1);
    // A derived datatype from get_contents is a new handle the caller frees.
    mpi::unique_datatype origin(contents.array_of_datatypes[0]);
    CHECK(origin.owns());
    CHECK(mpi::type_get_extent(origin).extent == 4 * int_bytes);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 3},
                                              {"MPI_Type_create_resized", 1},
                                              {"MPI_Type_dup", 1},
                                              {"MPI_Type_free", 3},
                                              {"MPI_Type_get_contents", 1},
                                              {"MPI_Type_get_envelope", 2},
                                              {"MPI_Type_get_extent", 2},
                                              {"MPI_Type_get_true_extent", 1}});
}

TEST_CASE("type_create_subarray: a 2x3 block at (1,1) of a 4x5 C array") {
  const std::vector<int> sizes{4, 5};
  const std::vector<int> subsizes{2, 3};
  const std::vector<int> starts{1, 1};
  nampi_pmpi_reset();
  {
    mpi::unique_datatype sub =
        mpi::type_create_subarray(sizes, subsizes, starts, MPI_ORDER_C, mpi_int);
    CHECK(mpi::type_size(sub) == 6 * int_bytes);
    const mpi::type_get_extent_result extent = mpi::type_get_extent(sub);
    CHECK(extent.lb == 0);
    CHECK(extent.extent == 20 * int_bytes);  // the whole array
    const mpi::type_get_true_extent_result true_extent = mpi::type_get_true_extent(sub);
    CHECK(true_extent.true_lb == 6 * int_bytes);      // element (1,1)
    CHECK(true_extent.true_extent == 8 * int_bytes);  // (1,1) .. (2,3)
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Type_create_subarray", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_extent", 1},
                                              {"MPI_Type_get_true_extent", 1},
                                              {"MPI_Type_size", 1}});
}

TEST_CASE("type_create_darray: a block distribution of 8 ints over the world") {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::vector<int> gsizes{8};
  const std::vector<int> distribs{MPI_DISTRIBUTE_BLOCK};
  const std::vector<int> dargs{MPI_DISTRIBUTE_DFLT_DARG};
  const std::vector<int> psizes{size};
  const int block = (8 + size - 1) / size;
  const int mine = std::max(0, std::min(block, 8 - rank * block));
  nampi_pmpi_reset();
  {
    mpi::unique_datatype d =
        mpi::type_create_darray(size, rank, gsizes, distribs, dargs, psizes, MPI_ORDER_C, mpi_int);
    CHECK(mpi::type_size(d) == mine * int_bytes);
    CHECK(mpi::type_get_extent(d).extent == 8 * int_bytes);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Finalized", 1},
                                              {"MPI_Type_create_darray", 1},
                                              {"MPI_Type_free", 1},
                                              {"MPI_Type_get_extent", 1},
                                              {"MPI_Type_size", 1}});
}

TEST_CASE("get_address gives the struct's displacements; type_match_size finds a 4-byte integer") {
  struct pair {
    int i;
    double d;
  } p{};
  nampi_pmpi_reset();
  const MPI_Aint base = mpi::get_address(&p);
  const MPI_Aint of_d = mpi::get_address(&p.d);
  const mpi::datatype int4 = mpi::type_match_size(MPI_TYPECLASS_INTEGER, 4);
  const int int4_size = mpi::type_size(int4);
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Get_address", 2}, {"MPI_Type_match_size", 1}, {"MPI_Type_size", 1}});
  // Open MPI 5 defines MPI_Aint_diff/add as macros only: the typed layer has no wrapper there.
#if defined(NAMPI_HAVE_MPI_AINT_DIFF) && defined(NAMPI_HAVE_MPI_AINT_ADD)
  CHECK(mpi::aint_diff(of_d, base) == static_cast<MPI_Aint>(offsetof(pair, d)));
  CHECK(mpi::aint_add(base, static_cast<MPI_Aint>(offsetof(pair, d))) == of_d);
#else
  CHECK(of_d - base == static_cast<MPI_Aint>(offsetof(pair, d)));
#endif
  CHECK(int4_size == 4);
  CHECK_FALSE(int4.is_null());
}
