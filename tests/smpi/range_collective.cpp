// Range communicators under SMPI (nampi/range_communicator.hpp: no MPI communicator made,
// the collectives run as point-to-point messages on the parent): on the even ranks and on
// the upper half, a bcast, an allreduce and an allgatherv, the received values checked.
#include <functional>
#include <nampi/nampi.hpp>
#include <vector>

#include "smpi_check.hpp"

using namespace nampi::params;

namespace {

// The checks on one range of `stride` from `first` to the last rank.
void check_range(const nampi::Communicator& world, int first_rank, int stride_length) {
  const int rank = world.rank();
  const int size = world.size();
  auto r = world.range(first(first_rank), last(size - 1), stride(stride_length));
  const int members = (size - 1 - first_rank) / stride_length + 1;
  SMPI_CHECK(rank, r.size() == members);
  if (!r.contains_me()) return;
  const int me = r.rank();
  SMPI_CHECK(rank, me == (rank - first_rank) / stride_length);
  SMPI_CHECK(rank, r.parent_rank(me) == rank);

  std::vector<int> from_top = me == members - 1 ? std::vector<int>{7, rank, 9} : std::vector<int>{};
  r.bcast(send_recv_buf(from_top), root(members - 1));
  SMPI_CHECK(rank, from_top == std::vector<int>{7, r.parent_rank(members - 1), 9});

  const std::vector<long> sums =
      r.allreduce(send_buf(std::vector<long>{1, rank}), op(std::plus<>{}));
  long parent_sum = 0;
  for (int i = 0; i < members; ++i) parent_sum += first_rank + i * stride_length;
  SMPI_CHECK(rank, sums == std::vector<long>{members, parent_sum});

  // Member i contributes i % 3 + 1 copies of its parent rank.
  const std::vector<int> mine(static_cast<std::size_t>(me % 3 + 1), rank);
  std::vector<int> expected;
  for (int i = 0; i < members; ++i) expected.insert(expected.end(), i % 3 + 1, r.parent_rank(i));
  SMPI_CHECK(rank, r.allgatherv(send_buf(mine)) == expected);
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator world;
  check_range(world, 0, 2);                 // the even ranks
  check_range(world, world.size() / 2, 1);  // the upper half
  const int failed = world.allreduce_single(send_buf(nampi_smpi::failures()), op(std::plus<>{}));
  if (world.rank() == 0)
    std::printf("range_collective: %d ranks, %d failed checks\n", world.size(), failed);
  return failed == 0 ? 0 : 1;
}
