// nampi::run from several threads at once under MPI_THREAD_MULTIPLE: one scheduler per
// thread, each running eight tasks, each task on a communicator of its own; the values are checked,
// and the PMPI counter (atomic increments) holds exactly the calls of all threads: no MPI_Wait or
// MPI_Test, only MPI_Waitsome rounds.
#include <mpi.h>
#include <nampi_pmpi_counter.h>

#include <cstdio>
#include <functional>
#include <nampi/nampi.hpp>
#include <nampi/task.hpp>
#include <thread>
#include <vector>

using namespace nampi::params;

namespace {

constexpr int threads = 4;
constexpr int tasks_per_thread = 8;
constexpr int rounds = 20;

unsigned long long count_of(const char* name) { return nampi_pmpi_count(nampi_pmpi_index(name)); }

// `rounds` allreduces of (rank + k + i), and a ring exchange each round; the sum of the sums.
nampi::task<long> work(const nampi::Communicator& comm, int k) {
  const int rank = comm.rank(), size = comm.size();
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  long total = 0;
  for (int i = 0; i < rounds; ++i) {
    std::vector<int> out{rank, k, i};
    auto in = comm.irecv<int>(source(previous), tag(k), recv_count(3));
    co_await comm.isend(send_buf(out), dest(next), tag(k));
    const std::vector<int> got = co_await in;
    if (got != std::vector<int>{previous, k, i}) total -= 1000000;  // a wrong message
    total += co_await comm.iallreduce_single(send_buf(rank + k + i), op(std::plus<>{}));
  }
  co_return total;
}

}  // namespace

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv, nampi::thread_multiple);
  nampi::Communicator world;
  if (nampi::Environment::thread_level_provided() != nampi::thread_multiple) {
    if (world.rank() == 0) std::printf("MPI_THREAD_MULTIPLE not provided: skipped\n");
    return 77;
  }
  const int size = world.size();
  std::vector<nampi::OwnedCommunicator> comms;
  for (int t = 0; t < threads; ++t) comms.push_back(world.dup());
  // The tasks' collectives: a communicator each (tasks run at once reach them in any order).
  std::vector<nampi::OwnedCommunicator> task_comms;
  for (int i = 0; i < threads * tasks_per_thread; ++i) task_comms.push_back(world.dup());

  nampi_pmpi_reset();
  std::vector<int> failures(threads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      const nampi::Communicator& comm = comms[static_cast<std::size_t>(t)];
      std::vector<nampi::task<long>> tasks;
      for (int k = 0; k < tasks_per_thread; ++k)
        tasks.push_back(work(task_comms[static_cast<std::size_t>(t * tasks_per_thread + k)], k));
      const std::vector<long> totals = nampi::run(comm, std::move(tasks));
      for (int k = 0; k < tasks_per_thread; ++k) {
        long expected = 0;
        for (int i = 0; i < rounds; ++i) expected += size * (size - 1) / 2 + size * (k + i);
        if (totals[static_cast<std::size_t>(k)] != expected)
          ++failures[static_cast<std::size_t>(t)];
      }
    });
  for (auto& w : workers) w.join();

  const unsigned long long operations =
      static_cast<unsigned long long>(threads) * tasks_per_thread * rounds;
  const unsigned long long waitsomes = count_of("MPI_Waitsome");
  int bad = 0;
  for (const int f : failures) bad += f;
  const bool counts_exact = count_of("MPI_Isend") == operations &&
                            count_of("MPI_Irecv") == operations &&
                            count_of("MPI_Iallreduce") == operations && count_of("MPI_Wait") == 0 &&
                            count_of("MPI_Test") == 0 && waitsomes >= threads * 2ull * rounds &&
                            waitsomes <= 3 * operations;
  if (bad || !counts_exact) {
    std::fprintf(stderr,
                 "rank %d: %d wrong totals; MPI_Isend %llu, MPI_Irecv %llu, MPI_Iallreduce %llu "
                 "(expected %llu each), MPI_Wait %llu, MPI_Test %llu, MPI_Waitsome %llu\n",
                 world.rank(), bad, count_of("MPI_Isend"), count_of("MPI_Irecv"),
                 count_of("MPI_Iallreduce"), operations, count_of("MPI_Wait"), count_of("MPI_Test"),
                 waitsomes);
    return 1;
  }
  if (world.rank() == 0)
    std::printf("%d threads x %d tasks x %d rounds: values exact, %llu MPI_Waitsome rounds\n",
                threads, tasks_per_thread, rounds, waitsomes);
  return 0;
}
