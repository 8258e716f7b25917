// A collective at scale under SMPI: allgatherv with the counts inferred (one allgather of
// them, then the allgatherv), the received values checked on every rank; an allreduce with a
// user-defined op (nampi's op registry) and an allgather of a struct (its type registry),
// which must be per simulated rank.
#include <nampi/nampi.hpp>
#include <vector>

#include "smpi_check.hpp"

using namespace nampi::params;

namespace {

struct sample {
  int rank;
  double value;
};

// Rank r contributes r % 7 + 1 values 1000 r + i (rank 6, 13, ... the most).
std::vector<long> contribution(int r) {
  std::vector<long> v(static_cast<std::size_t>(r % 7 + 1));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1000L * r + static_cast<long>(i);
  return v;
}

}  // namespace

template <>
struct nampi::struct_type<sample> : std::true_type {};

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();

  std::vector<long> expected;
  for (int r = 0; r < size; ++r) {
    const std::vector<long> v = contribution(r);
    expected.insert(expected.end(), v.begin(), v.end());
  }
  for (int round = 0; round < 2; ++round) {
    const std::vector<long> all = comm.allgatherv(send_buf(contribution(rank)));
    SMPI_CHECK(rank, all == expected);
  }

  const long sum =
      comm.allreduce_single(send_buf(long{rank} + 1), op([](long a, long b) { return a + b; }));
  SMPI_CHECK(rank, sum == static_cast<long>(size) * (size + 1) / 2);

  const std::vector<sample> samples = comm.allgather(send_buf(sample{rank, rank * 0.5}));
  SMPI_CHECK(rank, static_cast<int>(samples.size()) == size);
  for (int r = 0; r < size && r < static_cast<int>(samples.size()); ++r)
    SMPI_CHECK(rank, samples[static_cast<std::size_t>(r)].rank == r &&
                         samples[static_cast<std::size_t>(r)].value == r * 0.5);

  const int failed = comm.allreduce_single(send_buf(nampi_smpi::failures()), op(std::plus<>{}));
  if (rank == 0) std::printf("collective: %d ranks, %d failed checks\n", size, failed);
  return failed == 0 ? 0 : 1;
}
