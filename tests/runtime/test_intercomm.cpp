// Intercommunicators (spec/bindings/communicators.yaml: intercomm_create,
// intercomm_merge; Communicator::is_inter, remote_size, remote_group) between the
// two halves of the world (the even world ranks and the odd ones), beyond the
// generated call tests: the defaults (local leader 0, peer_comm MPI_COMM_WORLD),
// other leaders and a nampi::Communicator as peer_comm, data sent across, the
// remote group's members, and merging in both orders. A one-rank world has no
// second half: these tests need 2 ranks and skip on 1.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {
// The world ranks of one half (parity 0: even, 1: odd), in order.
std::vector<int> world_ranks_of_half(int parity, int world_size) {
  std::vector<int> out;
  for (int r = parity; r < world_size; r += 2) out.push_back(r);
  return out;
}
}  // namespace

TEST_CASE("intercomm_create with the defaults: two halves, data across") {
  nampi::Communicator world;
  if (world.size() < 2) return;
  const int parity = world.rank() % 2;
  nampi::OwnedCommunicator half = world.split(color(parity));
  CHECK_FALSE(world.is_inter());
  CHECK_FALSE(half.is_inter());

  // Leaders: rank 0 of each half, that is world ranks 0 and 1.
  nampi::OwnedCommunicator inter = half.intercomm_create(remote_leader(1 - parity));
  REQUIRE(inter.is_inter());
  CHECK(inter.rank() == half.rank());
  CHECK(inter.size() == half.size());
  const std::vector<int> others = world_ranks_of_half(1 - parity, world.size());
  CHECK(inter.remote_size() == static_cast<int>(others.size()));

  // The remote group holds the other half's processes, in their order.
  const nampi::group remote = inter.remote_group();
  CHECK(remote.size() == inter.remote_size());
  std::vector<int> remote_ranks(others.size());
  for (int i = 0; i < static_cast<int>(others.size()); ++i) remote_ranks[i] = i;
  CHECK(remote.translate_ranks(remote_ranks, world.group()) == others);

  // Point-to-point across: ranks address the other side. Rank i of the even half
  // sends to rank i of the odd half, where there is one.
  const int pairs = static_cast<int>(world_ranks_of_half(1, world.size()).size());
  if (inter.rank() < pairs) {
    if (parity == 0) {
      inter.send(send_buf(std::vector<int>{world.rank(), 7}), dest(inter.rank()), tag(3));
    } else {
      const std::vector<int> got = inter.recv<int>(source(inter.rank()), tag(3), recv_count(2));
      CHECK(got == std::vector<int>{world.rank() - 1, 7});
    }
  }
}

TEST_CASE("intercomm_create: other leaders, peer_comm as a nampi::Communicator, a tag") {
  nampi::Communicator world;
  if (world.size() < 2) return;
  const int parity = world.rank() % 2;
  nampi::OwnedCommunicator half = world.split(color(parity));
  // Each half is led by its last rank; the leaders know each other's rank in a
  // duplicate of the world, which serves as peer_comm.
  nampi::OwnedCommunicator peers = world.dup();
  const std::vector<int> others = world_ranks_of_half(1 - parity, world.size());
  nampi::OwnedCommunicator inter = half.intercomm_create(
      local_leader(half.size() - 1), peer_comm(peers), remote_leader(others.back()), tag(11));
  REQUIRE(inter.is_inter());
  CHECK(inter.remote_size() == static_cast<int>(others.size()));
  CHECK(inter.rank() == half.rank());
}

TEST_CASE("intercomm_merge: high orders the groups") {
  nampi::Communicator world;
  const int world_size = world.size();
  if (world_size < 2) return;
  const int parity = world.rank() % 2;
  nampi::OwnedCommunicator half = world.split(color(parity));
  nampi::OwnedCommunicator inter = half.intercomm_create(remote_leader(1 - parity));
  const int evens = (world_size + 1) / 2;

  SUBCASE("the odd half high: the even world ranks first") {
    nampi::OwnedCommunicator merged = inter.intercomm_merge(high(parity == 1));
    CHECK_FALSE(merged.is_inter());
    CHECK(merged.size() == world_size);
    CHECK(merged.rank() == (parity == 0 ? half.rank() : evens + half.rank()));
    // The merged communicator carries collectives: everyone's world rank, in its order.
    std::vector<int> expected = world_ranks_of_half(0, world_size);
    for (int r : world_ranks_of_half(1, world_size)) expected.push_back(r);
    CHECK(merged.allgather(send_buf(world.rank())) == expected);
  }
  SUBCASE("the even half high: the odd world ranks first") {
    nampi::OwnedCommunicator merged = inter.intercomm_merge(high(parity == 0));
    const int odds = world_size / 2;
    CHECK(merged.rank() == (parity == 1 ? half.rank() : odds + half.rank()));
  }
}
