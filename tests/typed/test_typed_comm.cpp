// nampi::mpi communicators and groups: values, owners (RAII) and the exact MPI calls.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <map>
#include <nampi/mpi/communicators.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace mpi = nampi::mpi;
using call_counts = std::map<std::string, unsigned long long>;

namespace {
int world_rank() { return mpi::comm_rank(mpi::comm_world()); }
int world_size() { return mpi::comm_size(mpi::comm_world()); }
}  // namespace

static_assert(!std::is_copy_constructible_v<mpi::unique_comm>);
static_assert(!std::is_copy_assignable_v<mpi::unique_comm>);
static_assert(std::is_nothrow_move_constructible_v<mpi::unique_comm>);
static_assert(!std::is_convertible_v<MPI_Comm, mpi::comm>, "C handles convert only explicitly");
static_assert(!std::is_convertible_v<mpi::comm, mpi::group>, "kinds are distinct types");
static_assert(!std::is_same_v<mpi::comm, mpi::datatype>, "distinct even where MPI handles are int");

TEST_CASE("comm_dup returns an owner; compare; the owner frees with MPI_Comm_free") {
  const int size = world_size();
  nampi_pmpi_reset();
  {
    mpi::unique_comm dup = mpi::comm_dup(mpi::comm_world());
    CHECK(dup.owns());
    CHECK(dup != mpi::comm_world());
    CHECK(mpi::comm_compare(mpi::comm_world(), dup) == MPI_CONGRUENT);
    CHECK(mpi::comm_compare(dup, dup) == MPI_IDENT);
    CHECK(mpi::comm_size(dup) == size);
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_compare", 2},
                                              {"MPI_Comm_dup", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE("comm_split: colour by parity, reversed order by key") {
  const int rank = world_rank();
  const int size = world_size();
  nampi_pmpi_reset();
  {
    mpi::unique_comm half = mpi::comm_split(mpi::comm_world(), rank % 2, size - rank);
    const int members = rank % 2 == 0 ? (size + 1) / 2 : size / 2;
    CHECK(mpi::comm_size(half) == members);
    // Keys reverse the order: the highest world rank of my colour is rank 0.
    const int highest_of_colour = (size - 1) - ((size - 1 - rank % 2) % 2);
    CHECK(mpi::comm_rank(half) == (highest_of_colour - rank) / 2);
    CHECK(mpi::comm_compare(mpi::comm_world(), half) == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_compare", 1},
                                              {"MPI_Comm_free", 1},
                                              {"MPI_Comm_rank", 1},
                                              {"MPI_Comm_size", 1},
                                              {"MPI_Comm_split", 1},
                                              {"MPI_Finalized", 1}});
}

TEST_CASE("comm_split with MPI_UNDEFINED returns a null owner that frees nothing") {
  nampi_pmpi_reset();
  {
    mpi::unique_comm none = mpi::comm_split(mpi::comm_world(), MPI_UNDEFINED, 0);
    CHECK(none.is_null());
    CHECK_FALSE(none.owns());
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_split", 1}});
}

TEST_CASE("comm_free through the owner's reference: no second free") {
  nampi_pmpi_reset();
  {
    mpi::unique_comm dup = mpi::comm_dup(mpi::comm_world());
    mpi::comm_free(dup);  // MPI_Comm_free sets it to MPI_COMM_NULL
    CHECK(dup.is_null());
  }
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Comm_dup", 1}, {"MPI_Comm_free", 1}});
}

TEST_CASE("owners move; the moved-from owner frees nothing; release gives up ownership") {
  nampi_pmpi_reset();
  MPI_Comm released = MPI_COMM_NULL;
  {
    mpi::unique_comm a = mpi::comm_dup(mpi::comm_world());
    const MPI_Comm raw = a.get();
    mpi::unique_comm b = std::move(a);
    CHECK(a.is_null());
    CHECK(b.get() == raw);
    mpi::unique_comm c;
    c = std::move(b);
    CHECK(c.get() == raw);
    mpi::unique_comm d = mpi::comm_dup(mpi::comm_world());
    released = d.release().get();
    CHECK(d.is_null());
  }
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Comm_dup", 2}, {"MPI_Comm_free", 1}, {"MPI_Finalized", 1}});
  CHECK(released != MPI_COMM_NULL);
  MPI_Comm_free(&released);
}

TEST_CASE("an owner given a predefined communicator never frees it") {
  nampi_pmpi_reset();
  {
    mpi::unique_comm world(mpi::comm_world());
    CHECK(world.get() == MPI_COMM_WORLD);
    CHECK_FALSE(world.owns());
    mpi::unique_comm self(mpi::comm_self());
    CHECK_FALSE(self.owns());
  }
  CHECK(nampi_pmpi::snapshot().empty());
}

TEST_CASE("an MPI error becomes nampi::mpi_error naming the C function") {
  nampi_pmpi_reset();
  bool thrown = false;
  try {
    (void)mpi::comm_size(mpi::comm());  // MPI_COMM_NULL
  } catch (const nampi::mpi_error& e) {
    thrown = true;
    CHECK(std::string(e.call()) == "MPI_Comm_size");
    CHECK(e.error_class() == MPI_ERR_COMM);
    CHECK(std::string(e.what()).find("MPI_Comm_size: ") == 0);
  }
  CHECK(thrown);
  CHECK(nampi_pmpi::snapshot().count("MPI_Comm_size") == 1);
}

TEST_CASE("groups: incl (reversed), excl, union, translate_ranks, each freed once") {
  const int size = world_size();
  const int rank = world_rank();
  std::vector<int> reversed(size);
  for (int i = 0; i < size; ++i) reversed[i] = size - 1 - i;
  std::vector<int> all(size);
  for (int i = 0; i < size; ++i) all[i] = i;
  nampi_pmpi_reset();
  unsigned long long frees = 0;
  {
    mpi::unique_group world = mpi::comm_group(mpi::comm_world());
    mpi::unique_group rev = mpi::group_incl(world, reversed);
    CHECK(mpi::group_size(rev) == size);
    CHECK(mpi::group_rank(rev) == size - 1 - rank);
    // Rank i of `rev` is world rank size-1-i.
    CHECK(mpi::group_translate_ranks(rev, all, world) == reversed);

    const std::vector<int> first{0};
    mpi::unique_group rest = mpi::group_excl(world, first);
    CHECK(mpi::group_size(rest) == size - 1);
    mpi::unique_group both = mpi::group_union(rest, rev);
    CHECK(mpi::group_size(both) == size);
    // The union keeps rest's order (world ranks 1..size-1), then adds rank 0.
    CHECK(mpi::group_compare(both, world) == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
    // MPI_GROUP_EMPTY (possible for `rest` on one rank) is predefined and never freed.
    for (const mpi::group g :
         {mpi::group(world), mpi::group(rev), mpi::group(rest), mpi::group(both)})
      frees += g.is_predefined() ? 0 : 1;
  }
  call_counts expected{{"MPI_Comm_group", 1},     {"MPI_Group_incl", 1},
                       {"MPI_Group_excl", 1},     {"MPI_Group_union", 1},
                       {"MPI_Group_compare", 1},  {"MPI_Group_translate_ranks", 1},
                       {"MPI_Group_size", 3},     {"MPI_Group_rank", 1},
                       {"MPI_Group_free", frees}, {"MPI_Finalized", frees}};
  CHECK(nampi_pmpi::snapshot() == expected);
}

TEST_CASE("group_translate_ranks takes its length from the span") {
  const int size = world_size();
  mpi::unique_group world = mpi::comm_group(mpi::comm_world());
  const std::vector<int> last{size - 1};
  nampi_pmpi_reset();
  const std::vector<int> translated = mpi::group_translate_ranks(world, last, world);
  CHECK(translated == last);
  const std::vector<int> none = mpi::group_translate_ranks(world, std::span<const int>{}, world);
  CHECK(none.empty());
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Group_translate_ranks", 2}});
}
