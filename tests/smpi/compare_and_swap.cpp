// One-sided compare_and_swap under SMPI, whose smpi.h declares MPI_Compare_and_swap's
// compare_addr without const (spec/mpi/rma.yaml `implementations: smpi`: the call casts the
// const away). Each rank swaps its rank into its right neighbour's element where that still
// holds -1, then tries again with a compare value that does not match: the first swap must
// happen and report -1, the second must not and report the first one's value. (No two ranks
// target one element: SMPI 3.32's compare_and_swap is not atomic between ranks under
// lock_all, as seen with plain MPI calls.)
#include <functional>
#include <nampi/nampi.hpp>

#include "smpi_check.hpp"

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  auto win = comm.win_allocate<int>(nampi::params::size(1));
  win.local()[0] = -1;
  comm.barrier();
  {
    auto epoch = win.lock_all_epoch();
    const int unset = -1;
    int before = 0;
    win.compare_and_swap(origin_buf(rank), compare_buf(unset), result_buf(before),
                         target_rank(right));
    win.flush(target_rank(right));
    SMPI_CHECK(rank, before == -1);
    const int wrong = -2;
    const int other = size + rank;
    win.compare_and_swap(origin_buf(other), compare_buf(wrong), result_buf(before),
                         target_rank(right));
    win.flush(target_rank(right));
    SMPI_CHECK(rank, before == rank);
  }
  comm.barrier();
  SMPI_CHECK(rank, win.local()[0] == left);
  const int failed = comm.allreduce_single(send_buf(nampi_smpi::failures()), op(std::plus<>{}));
  if (rank == 0) std::printf("compare_and_swap: %d ranks, %d failed checks\n", size, failed);
  return failed == 0 ? 0 : 1;
}
