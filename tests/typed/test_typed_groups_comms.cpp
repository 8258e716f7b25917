// nampi::mpi groups (ranges, set operations) and communicator constructors, names,
// info and intercommunicators: values and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <map>
#include <nampi/mpi/communicators.hpp>
#include <nampi/mpi/info.hpp>
#include <nampi/mpi/pt2pt.hpp>
#include <string>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
int world_rank() { return mpi::comm_rank(mpi::comm_world()); }
int world_size() { return mpi::comm_size(mpi::comm_world()); }
// An owner frees only what is not predefined (MPI may return MPI_GROUP_EMPTY).
unsigned long long frees_of(std::initializer_list<mpi::group> groups) {
  unsigned long long n = 0;
  for (const mpi::group g : groups) n += g.is_predefined() ? 0 : 1;
  return n;
}
}  // namespace

TEST_CASE("group_range_incl / range_excl split even and odd ranks; intersection, difference") {
  const int size = world_size();
  const int rank = world_rank();
  // One (first, last, stride) triplet; the span's size is MPI's n.
  const std::vector<std::array<int, 3>> even_ranks{{0, size - 1, 2}};
  nampi_pmpi_reset();
  unsigned long long frees = 0;
  {
    mpi::unique_group world = mpi::comm_group(mpi::comm_world());
    mpi::unique_group evens = mpi::group_range_incl(world, even_ranks);
    mpi::unique_group odds = mpi::group_range_excl(world, even_ranks);
    CHECK(mpi::group_size(evens) == (size + 1) / 2);
    CHECK(mpi::group_size(odds) == size / 2);
    CHECK(mpi::group_rank(evens) == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED));
    CHECK(mpi::group_rank(odds) == (rank % 2 == 1 ? rank / 2 : MPI_UNDEFINED));

    mpi::unique_group none = mpi::group_intersection(evens, odds);
    CHECK(mpi::group_size(none) == 0);
    CHECK(mpi::group_rank(none) == MPI_UNDEFINED);
    // world minus evens keeps world's order: exactly the odd ranks, as range_excl gave them.
    mpi::unique_group rest = mpi::group_difference(world, evens);
    CHECK(mpi::group_compare(rest, odds) == MPI_IDENT);
    CHECK(mpi::group_compare(evens, world) == (size == 1 ? MPI_IDENT : MPI_UNEQUAL));
    frees = frees_of({world, evens, odds, none, rest});
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_group", 1},
                                              {"MPI_Finalized", frees},
                                              {"MPI_Group_compare", 2},
                                              {"MPI_Group_difference", 1},
                                              {"MPI_Group_free", frees},
                                              {"MPI_Group_intersection", 1},
                                              {"MPI_Group_range_excl", 1},
                                              {"MPI_Group_range_incl", 1},
                                              {"MPI_Group_rank", 3},
                                              {"MPI_Group_size", 3}});
}

TEST_CASE("group_free through the owner's reference sets it to MPI_GROUP_NULL") {
  nampi_pmpi_reset();
  {
    mpi::unique_group world = mpi::comm_group(mpi::comm_world());
    mpi::group_free(world);
    CHECK(world.is_null());
    CHECK_FALSE(world.owns());
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_group", 1}, {"MPI_Group_free", 1}});
}

TEST_CASE("comm_create and comm_create_group: only the even ranks get a communicator") {
  const int size = world_size();
  const int rank = world_rank();
  const bool even = rank % 2 == 0;
  const std::vector<std::array<int, 3>> even_ranks{{0, size - 1, 2}};
  mpi::unique_group world = mpi::comm_group(mpi::comm_world());
  mpi::unique_group evens = mpi::group_range_incl(world, even_ranks);
  nampi_pmpi_reset();
  {
    // MPI_Comm_create is collective over the parent: every rank calls it.
    mpi::unique_comm created = mpi::comm_create(mpi::comm_world(), evens);
    CHECK(created.is_null() == !even);
    // MPI_Comm_create_group is collective over the group only: odd ranks do not call it.
    mpi::unique_comm grouped;
    if (even) grouped = mpi::comm_create_group(mpi::comm_world(), evens, 42);
    if (even) {
      CHECK(mpi::comm_size(created) == (size + 1) / 2);
      CHECK(mpi::comm_rank(grouped) == rank / 2);
      CHECK(mpi::comm_compare(created, grouped) == MPI_CONGRUENT);
    }
  }
  const unsigned long long mine = even ? 1 : 0;
  call_counts expected{{"MPI_Comm_create", 1}};
  if (even) {
    expected.insert({{"MPI_Comm_create_group", 1},
                     {"MPI_Comm_size", 1},
                     {"MPI_Comm_rank", 1},
                     {"MPI_Comm_compare", 1},
                     {"MPI_Comm_free", 2 * mine},
                     {"MPI_Finalized", 2 * mine}});
  }
  CHECK(nampi_pmpi::snapshot() == expected);
}

TEST_CASE("comm_set_name / comm_get_name; MPI_COMM_WORLD has its standard name") {
  nampi_pmpi_reset();
  {
    mpi::unique_comm dup = mpi::comm_dup(mpi::comm_world());
    mpi::comm_set_name(dup, "nampi typed dup");
    CHECK(mpi::comm_get_name(dup) == "nampi typed dup");
    CHECK(mpi::comm_get_name(mpi::comm_world()) == "MPI_COMM_WORLD");
    CHECK_FALSE(mpi::comm_test_inter(dup));
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_dup", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_get_name", 2},
                                              {"MPI_Comm_set_name", 1},
                                              {"MPI_Comm_test_inter", 1},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE("comm_dup_with_info, comm_set_info, comm_get_info: standard assertion hints") {
  // Both are MPI-4.0 assertions that MPICH and Open MPI report back when set (Open MPI 5
  // ignores, and does not report, mpi_assert_no_any_tag).
  const auto value_of = [](mpi::info info, const char* key) {
    char value[16] = {};
    return mpi::info_get(info, key, sizeof value - 1, value) ? std::string(value) : "(unset)";
  };
  nampi_pmpi_reset();
  {
    mpi::unique_info hints = mpi::info_create();
    mpi::info_set(hints, "mpi_assert_no_any_source", "true");
    mpi::unique_comm dup = mpi::comm_dup_with_info(mpi::comm_world(), hints);
    CHECK(mpi::comm_compare(dup, mpi::comm_world()) == MPI_CONGRUENT);
    mpi::unique_info after_dup = mpi::comm_get_info(dup);
    CHECK(value_of(after_dup, "mpi_assert_no_any_source") == "true");

    mpi::unique_info more = mpi::info_create();
    mpi::info_set(more, "mpi_assert_allow_overtaking", "true");
    mpi::comm_set_info(dup, more);
    mpi::unique_info after_set = mpi::comm_get_info(dup);
    CHECK(value_of(after_set, "mpi_assert_allow_overtaking") == "true");
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_compare", 1},
                                              {"MPI_Comm_dup_with_info", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_get_info", 2},
                                              {"MPI_Comm_set_info", 1},
                                              {"MPI_Finalized", 5},
                                              {"MPI_Info_create", 2},
                                              {"MPI_Info_free", 4},
                                              {"MPI_Info_get", 2},
                                              {"MPI_Info_set", 2}});
}

TEST_CASE("comm_idup: the new communicator is usable after MPI_Wait") {
  const int size = world_size();
  nampi_pmpi_reset();
  {
    mpi::comm_idup_result r = mpi::comm_idup(mpi::comm_world());
    mpi::wait(r.request);
    CHECK(r.request.is_null());
    CHECK(mpi::comm_size(r.newcomm) == size);
    CHECK(mpi::comm_compare(r.newcomm, mpi::comm_world()) == MPI_CONGRUENT);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_compare", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_idup", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Finalized", 1},
                                              {"MPI_Wait", 1}});
}

TEST_CASE("comm_split_type(MPI_COMM_TYPE_SHARED): the tests run on one node") {
  const int size = world_size();
  const int rank = world_rank();
  nampi_pmpi_reset();
  {
    mpi::unique_comm node =
        mpi::comm_split_type(mpi::comm_world(), MPI_COMM_TYPE_SHARED, rank, mpi::info());
    CHECK(mpi::comm_size(node) == size);
    CHECK(mpi::comm_rank(node) == rank);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_free", 1},
                                              {"MPI_Comm_rank", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Comm_split_type", 1},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE("intercomm_create between even and odd ranks; remote size/group; intercomm_merge") {
  const int size = world_size();
  const int rank = world_rank();
  if (size < 2) return;  // an intercommunicator needs two non-empty sides
  const bool even = rank % 2 == 0;
  const int local_size = even ? (size + 1) / 2 : size / 2;
  const int remote_size = size - local_size;
  nampi_pmpi_reset();
  {
    mpi::unique_comm local = mpi::comm_split(mpi::comm_world(), rank % 2, rank);
    // Local leaders are local rank 0 (world ranks 0 and 1); the peer is MPI_COMM_WORLD.
    mpi::unique_comm inter = mpi::intercomm_create(local, 0, mpi::comm_world(), even ? 1 : 0, 7);
    CHECK(mpi::comm_test_inter(inter));
    CHECK(mpi::comm_size(inter) == local_size);
    CHECK(mpi::comm_remote_size(inter) == remote_size);
    mpi::unique_group remote = mpi::comm_remote_group(inter);
    CHECK(mpi::group_size(remote) == remote_size);
    // The odd side goes high: merged ranks are all evens, then all odds.
    mpi::unique_comm merged = mpi::intercomm_merge(inter, !even);
    CHECK(mpi::comm_size(merged) == size);
    CHECK(mpi::comm_rank(merged) == (even ? rank / 2 : (size + 1) / 2 + rank / 2));
    CHECK_FALSE(mpi::comm_test_inter(merged));
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_free", 3},
                                              {"MPI_Comm_rank", 1},
                                              {"MPI_Comm_remote_group", 1},
                                              {"MPI_Comm_remote_size", 1},
                                              {"MPI_Comm_size", 2},
                                              {"MPI_Comm_split", 1},
                                              {"MPI_Comm_test_inter", 2},
                                              {"MPI_Finalized", 4},
                                              {"MPI_Group_free", 1},
                                              {"MPI_Group_size", 1},
                                              {"MPI_Intercomm_create", 1},
                                              {"MPI_Intercomm_merge", 1}});
}
