// Named calls from several threads at once under MPI_THREAD_MULTIPLE: nampi::Environment
// asks for it (MPI_Init_thread) and says what MPI granted; each thread runs collectives
// and a ring exchange on a communicator of its own, and checks the data; the PMPI counter
// (atomic increments) must then hold exactly the calls of all threads.
#include <mpi.h>
#include <nampi_pmpi_counter.h>

#include <cstdio>
#include <nampi/nampi.hpp>
#include <thread>
#include <vector>

using namespace nampi::params;

namespace {

constexpr int threads = 4;
constexpr int rounds = 200;

unsigned long long count_of(const char* name) { return nampi_pmpi_count(nampi_pmpi_index(name)); }

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv, nampi::thread_multiple);
  nampi::Communicator world;
  if (nampi::Environment::thread_level_provided() != nampi::thread_multiple) {
    if (world.rank() == 0) std::printf("MPI_THREAD_MULTIPLE not provided: skipped\n");
    return 77;
  }
  const int rank = world.rank(), size = world.size();
  std::vector<nampi::OwnedCommunicator> comms;
  for (int t = 0; t < threads; ++t) comms.push_back(world.dup());

  nampi_pmpi_reset();
  std::vector<int> failures(threads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      const nampi::Communicator& comm = comms[t];
      for (int i = 0; i < rounds; ++i) {
        const int sum = comm.allreduce_single(send_buf(rank + t + i), op(std::plus<>{}));
        if (sum != size * (size - 1) / 2 + size * (t + i)) ++failures[t];
        // A ring: send to the next rank, receive from the previous one.
        const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
        std::vector<int> out{rank, t, i}, in(3, -1);
        comm.sendrecv(send_buf(out), dest(next), recv_buf(in), recv_count(3), source(previous));
        if (in != std::vector<int>{previous, t, i}) ++failures[t];
      }
    });
  for (auto& w : workers) w.join();

  const unsigned long long allreduces = count_of("MPI_Allreduce");
  const unsigned long long sendrecvs = count_of("MPI_Sendrecv");
  int bad = 0;
  for (const int f : failures) bad += f;
  const unsigned long long expected = static_cast<unsigned long long>(threads) * rounds;
  if (bad || allreduces != expected || sendrecvs != expected) {
    std::fprintf(stderr, "rank %d: %d wrong results; MPI_Allreduce %llu, MPI_Sendrecv %llu calls (expected %llu each)\n",
                 rank, bad, allreduces, sendrecvs, expected);
    return 1;
  }
  if (rank == 0) std::printf("%d threads x %d rounds: data and call counts exact\n", threads, rounds);
  return 0;
}
