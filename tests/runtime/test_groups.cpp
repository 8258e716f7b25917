// nampi::group: MPI's group operations, checked against the ranks they must
// give; and communicators made of a group with comm.create / comm.create_group
// where only some ranks are members (the generated tests use everyone).
#include <doctest/doctest.h>

#include <array>
#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {
std::vector<int> evens(int size) {
  std::vector<int> out;
  for (int r = 0; r < size; r += 2) out.push_back(r);
  return out;
}
}  // namespace

TEST_CASE("a communicator's group: size, rank, compare") {
  nampi::Communicator comm;
  const nampi::group all = comm.group();
  CHECK(all.size() == comm.size());
  CHECK(all.rank() == comm.rank());
  CHECK(all.compare(nampi::group::of(comm)) == MPI_IDENT);
}

TEST_CASE("incl, excl, range_incl, range_excl") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const nampi::group all = comm.group();

  const nampi::group even = all.incl(evens(size));
  CHECK(even.size() == (size + 1) / 2);
  CHECK(even.rank() == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED));

  const nampi::group odd = all.excl(evens(size));
  CHECK(odd.size() == size / 2);
  CHECK(odd.rank() == (rank % 2 == 1 ? rank / 2 : MPI_UNDEFINED));

  // (first, last, stride): 0, 2, 4, ... as a range.
  const nampi::group even_range = all.range_incl({{0, size - 1, 2}});
  CHECK(even_range.compare(even) == MPI_IDENT);
  CHECK(all.range_excl({{0, size - 1, 2}}).compare(odd) == MPI_IDENT);

  // The same members in another order: similar, not identical.
  const nampi::group backwards = all.incl(nampi_test::reversed_ranks(size));
  CHECK(backwards.rank() == size - 1 - rank);
  CHECK(backwards.compare(all) == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
}

TEST_CASE("union_with, intersection, difference, translate_ranks") {
  nampi::Communicator comm;
  const int size = comm.size();
  const nampi::group all = comm.group();
  const nampi::group even = all.incl(evens(size));
  const nampi::group odd = all.excl(evens(size));

  // The union lists this group's members first: evens, then odds.
  const nampi::group both = even.union_with(odd);
  CHECK(both.size() == size);
  CHECK(both.compare(all) == (size <= 2 ? MPI_IDENT : MPI_SIMILAR));
  CHECK(even.intersection(odd).size() == 0);
  CHECK(all.difference(odd).compare(even) == MPI_IDENT);

  // Where ranks 0..size-1 of `all` are in `even`: r / 2 for even r, else MPI_UNDEFINED.
  std::vector<int> ranks, expected;
  for (int r = 0; r < size; ++r) {
    ranks.push_back(r);
    expected.push_back(r % 2 == 0 ? r / 2 : MPI_UNDEFINED);
  }
  CHECK(all.translate_ranks(ranks, even) == expected);
}

TEST_CASE("create: the ranks outside the group get a null communicator") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const nampi::group even = comm.group().incl(evens(size));
  nampi::OwnedCommunicator made = comm.create(group(even));
  if (rank % 2 == 0) {
    REQUIRE_FALSE(made.is_null());
    CHECK(made.size() == (size + 1) / 2);
    CHECK(made.rank() == rank / 2);
    CHECK(made.allgather(send_buf(rank)) == evens(size));
  } else {
    CHECK(made.is_null());
  }
}

TEST_CASE("create_group: only the members call it") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  if (rank % 2 != 0) return;  // the odd ranks take no part at all
  const nampi::group even = comm.group().incl(evens(size));
  nampi::OwnedCommunicator made = comm.create_group(group(even), tag(3));
  CHECK(made.size() == (size + 1) / 2);
  CHECK(made.rank() == rank / 2);
  CHECK(made.allgather(send_buf(rank)) == evens(size));
  // An MPI_Group works as well (the caller keeps owning it).
  nampi::OwnedCommunicator again = comm.create_group(group(even.mpi_group()));
  CHECK(again.rank() == rank / 2);
}
