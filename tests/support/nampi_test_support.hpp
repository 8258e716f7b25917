// Small data generators shared by the generated call tests (spec/bindings/*.yaml
// fixtures) and the runtime tests. Rank r contributes r + 1 copies of r.
#pragma once

#include <vector>

namespace nampi_test {

// {1, 2, ..., size}: rank r sends r + 1 elements.
inline std::vector<int> iota_counts(int size) {
  std::vector<int> counts(size);
  for (int r = 0; r < size; ++r) counts[r] = r + 1;
  return counts;
}

// Exclusive prefix sum of iota_counts.
inline std::vector<int> triangle_displs(int size) {
  std::vector<int> displs(size);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + r;
  return displs;
}

// {0, 1, 1, 2, 2, 2, ...}: everyone's contribution, concatenated.
inline std::vector<int> staircase(int size) {
  std::vector<int> out;
  for (int r = 0; r < size; ++r) out.insert(out.end(), r + 1, r);
  return out;
}

}  // namespace nampi_test

namespace nampi_test {

// {0 x k, 1 x k, ..., size-1 x k}.
inline std::vector<int> repeat_each(int size, int k) {
  std::vector<int> out;
  for (int r = 0; r < size; ++r) out.insert(out.end(), k, r);
  return out;
}

// What rank `rank` sends in an alltoall with k elements per destination:
// k copies of 100 * rank + destination.
inline std::vector<int> alltoall_send(int rank, int size, int k) {
  std::vector<int> out;
  for (int d = 0; d < size; ++d) out.insert(out.end(), k, 100 * rank + d);
  return out;
}

// What rank `rank` receives in that alltoall: k copies of 100 * source + rank.
inline std::vector<int> alltoall_recv(int rank, int size, int k) {
  std::vector<int> out;
  for (int s = 0; s < size; ++s) out.insert(out.end(), k, 100 * s + rank);
  return out;
}

// alltoallv: rank r sends d + 1 copies of 100 * r + d to rank d.
inline std::vector<int> alltoallv_send(int rank, int size) {
  std::vector<int> out;
  for (int d = 0; d < size; ++d) out.insert(out.end(), d + 1, 100 * rank + d);
  return out;
}

// alltoallv: rank r receives r + 1 copies of 100 * s + r from every rank s.
inline std::vector<int> alltoallv_recv(int rank, int size) {
  return alltoall_recv(rank, size, rank + 1);
}

// Sum over ranks of (r + 1) * factor for every element i: (i + 1) * size * (size + 1) / 2.
inline std::vector<int> sum_of_ranks_plus_one(int size, int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = (i + 1) * size * (size + 1) / 2;
  return out;
}

// {i + 1} * (rank + 1) for i in [0, n): what rank `rank` contributes to the reductions.
inline std::vector<int> reduction_input(int rank, int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = (i + 1) * (rank + 1);
  return out;
}

// Inclusive prefix sum over ranks 0..rank of reduction_input.
inline std::vector<int> scan_of_inputs(int rank, int n) {
  return sum_of_ranks_plus_one(rank + 1, n);
}

}  // namespace nampi_test

namespace nampi_test {

// {0, k, 2k, ...}: size entries.
inline std::vector<int> multiples(int size, int k) {
  std::vector<int> out(size);
  for (int r = 0; r < size; ++r) out[r] = r * k;
  return out;
}

}  // namespace nampi_test
