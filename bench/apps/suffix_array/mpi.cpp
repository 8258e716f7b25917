#include <mpi.h>

#include <numeric>

#include "bench_util.hpp"
#include "common.hpp"

namespace sa = suffix_array;

struct mpi_types {
  MPI_Datatype tuple;
  MPI_Datatype last_key;
  MPI_Datatype new_rank;
  MPI_Op later;
};

void later_op(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* lower = static_cast<const sa::last_key*>(in);
  auto* higher = static_cast<sa::last_key*>(inout);
  for (int i = 0; i < *length; ++i) higher[i] = sa::later(lower[i], higher[i]);
}

MPI_Datatype bytes(std::size_t size) {
  MPI_Datatype type;
  MPI_Type_contiguous(static_cast<int>(size), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  return type;
}

std::vector<int> exchange_counts(const std::vector<int>& send_counts) {
  std::vector<int> recv_counts(send_counts.size());
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  return recv_counts;
}

template <class T>
std::vector<T> alltoallv(const T* send, const std::vector<int>& send_counts,
                         const std::vector<int>& recv_counts, MPI_Datatype type) {
  std::vector<int> send_displs(send_counts.size());
  std::vector<int> recv_displs(recv_counts.size());
  std::exclusive_scan(send_counts.begin(), send_counts.end(), send_displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<T> recv(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  MPI_Alltoallv(send, send_counts.data(), send_displs.data(), type, recv.data(), recv_counts.data(),
                recv_displs.data(), type, MPI_COMM_WORLD);
  return recv;
}

std::vector<sa::u64> build(const mpi_types& types, const sa::config& c,
                           const std::vector<char>& text) {
  auto ranks = sa::initial_ranks(text);
  std::vector<int> shift_send;
  std::vector<int> shift_recv;
  for (sa::u64 h = 1;; h *= 2) {
    auto part = sa::shift_counts(c, h, ranks, shift_send, shift_recv);
    auto shifted = alltoallv(part.data(), shift_send, shift_recv, MPI_UINT64_T);
    auto tuples = sa::make_tuples(c, ranks, shifted);
    const auto samples = sa::samples(tuples);
    std::vector<sa::tuple> all_samples(samples.size() * static_cast<std::size_t>(c.size));
    MPI_Allgather(samples.data(), static_cast<int>(samples.size()), types.tuple, all_samples.data(),
                  static_cast<int>(samples.size()), types.tuple, MPI_COMM_WORLD);
    const auto counts = sa::split_counts(c, tuples, std::move(all_samples));
    auto sorted = alltoallv(tuples.data(), counts, exchange_counts(counts), types.tuple);
    sa::sort(sorted);
    const auto last = sa::last_key_of(sorted);
    sa::last_key before{};
    MPI_Exscan(&last, &before, 1, types.last_key, types.later, MPI_COMM_WORLD);
    const auto starts = sa::mark_group_starts(c, sorted, before);
    sa::u64 starts_before = 0;
    MPI_Exscan(&starts, &starts_before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    const int unique = sa::rerank(c, sorted, starts_before);
    int all_unique = 0;
    MPI_Allreduce(&unique, &all_unique, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_unique) return sa::indices(sorted);
    std::vector<int> new_counts;
    const auto new_ranks = sa::by_owner(c, sorted, new_counts);
    sa::place(c,
              alltoallv(new_ranks.data(), new_counts, exchange_counts(new_counts), types.new_rank),
              ranks);
  }
}

std::vector<sa::u64> gatherv(const std::vector<sa::u64>& local, int rank, int size) {
  const int count = static_cast<int>(local.size());
  std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::vector<sa::u64> all(rank == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(local.data(), count, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
              MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto c = sa::read_config(bench::args(argc, argv), rank, size);
  const auto text = sa::make_text(c, c.rank);
  mpi_types types{bytes(sizeof(sa::tuple)), bytes(sizeof(sa::last_key)),
                  bytes(sizeof(sa::new_rank)), MPI_OP_NULL};
  MPI_Op_create(&later_op, 0, &types.later);

  std::vector<sa::u64> local_sa;
  const double seconds = bench::measure(c.reps, [&] { local_sa = build(types, c, text); });

  const auto sa = gatherv(local_sa, rank, size);
  if (c.rank == 0) sa::check(c, sa);
  bench::report("suffix_array", "mpi", c.size, seconds, bench::hex(bench::fnv1a(sa)));
  MPI_Op_free(&types.later);
  MPI_Type_free(&types.tuple);
  MPI_Type_free(&types.last_key);
  MPI_Type_free(&types.new_rank);
  MPI_Finalize();
}
