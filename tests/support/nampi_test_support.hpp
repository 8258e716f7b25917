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
