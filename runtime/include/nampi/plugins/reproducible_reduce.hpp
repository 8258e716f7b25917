// The reproducible_reduce plugin: comm.reproducible_reduce(send_buf(local), op(f)) reduces the
// global sequence (every rank's `local`, concatenated in rank order) by one fixed binary tree
// over its indices, so the result is bitwise the same for any number of ranks and any
// distribution of the same sequence (floating-point sums included), at every rank.
//
// The tree: node (k, j) covers the indices [j 2^k, (j + 1) 2^k) that exist (< n); its value is
// f(left child, right child), or the left child's alone where the right one covers none; a
// leaf is an element. The root is (K, 0), 2^K >= n. Each rank splits its indices [a, b) into
// the largest nodes that lie inside them (O(log n) nodes) and computes their values locally;
// one MPI_Allgather (every rank's element and node counts) and one MPI_Allgatherv (the nodes)
// later every rank evaluates the top of the tree from them. Which nodes a rank computes
// depends on the distribution; a node's value does not.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/plugins/reproducible_reduce.hpp"
#include "nampi/plugin.hpp"

namespace nampi {
namespace detail::reproducible {

// A node of the tree: level k, index j (it covers [j << k, (j + 1) << k) of the sequence).
struct node {
  int level;
  std::int64_t index;
  std::int64_t begin() const noexcept { return index << level; }
  std::int64_t end() const noexcept { return (index + 1) << level; }
};

inline int root_level(std::int64_t n) noexcept {
  int k = 0;
  while ((std::int64_t{1} << k) < n) ++k;
  return k;
}

// The largest nodes that lie inside [a, b) of a sequence of n, from a on; the indices a node
// covers beyond n do not exist, so at b == n a node may reach past it.
inline std::vector<node> cover(std::int64_t a, std::int64_t b, std::int64_t n, int top) {
  std::vector<node> out;
  std::int64_t at = a;
  while (at < b) {
    int k = 0;
    while (k < top && at % (std::int64_t{1} << (k + 1)) == 0 &&
           std::min(at + (std::int64_t{1} << (k + 1)), n) <= b)
      ++k;
    out.push_back({k, at >> k});
    at = std::min(at + (std::int64_t{1} << k), n);
  }
  return out;
}

// The value of node `v` from the elements: `data` holds the sequence's elements from `first`
// on. Bottom-up, as a binary counter: each element enters as a level-0 value, and two values
// of one level combine into one of the next, so the stack holds the complete subtrees so far,
// their levels falling. Where the node reaches past n, its right children that cover nothing
// pass their left child's value up: that is the right-to-left fold of what the stack holds.
template <typename T, typename Op>
T value_of(node v, const T* data, std::int64_t first, std::int64_t n, Op& op) {
  T values[64];
  int levels[64];
  int top = 0;
  const std::int64_t end = std::min(v.end(), n);
  for (std::int64_t i = v.begin(); i < end;) {
    const T* x = data + (i - first);
    if (i + 8 <= end && (i - v.begin()) % 8 == 0) {  // a whole subtree of 8 elements at once
      values[top] = op(op(op(x[0], x[1]), op(x[2], x[3])), op(op(x[4], x[5]), op(x[6], x[7])));
      levels[top] = 3;
      i += 8;
    } else {
      values[top] = x[0];
      levels[top] = 0;
      i += 1;
    }
    ++top;
    while (top >= 2 && levels[top - 1] == levels[top - 2]) {
      values[top - 2] = op(values[top - 2], values[top - 1]);
      ++levels[top - 2];
      --top;
    }
  }
  T result = values[top - 1];
  for (int i = top - 2; i >= 0; --i) result = op(values[i], result);
  return result;
}

// The value of node `v` from the nodes the ranks computed (sorted by begin()).
template <typename T, typename Op>
T top_value(node v, const std::vector<node>& nodes, const std::vector<T>& values, std::int64_t n,
            Op& op) {
  const auto it = std::lower_bound(nodes.begin(), nodes.end(), v.begin(),
                                   [](const node& x, std::int64_t b) { return x.begin() < b; });
  if (it != nodes.end() && it->begin() == v.begin() && it->level == v.level)
    return values[static_cast<std::size_t>(it - nodes.begin())];
  NAMPI_CHECK(v.level > 0, "reproducible_reduce: internal: element %lld has no value",
              static_cast<long long>(v.begin()));
  const node left{v.level - 1, 2 * v.index}, right{v.level - 1, 2 * v.index + 1};
  if (right.begin() >= n) return top_value(left, nodes, values, n, op);
  return op(top_value(left, nodes, values, n, op), top_value(right, nodes, values, n, op));
}

// One node as bytes: its level, its index and its value.
template <typename T>
struct record {
  int level;
  std::int64_t index;
  T value;
};

// The reduction at every rank: `data` holds this rank's `count` elements of the sequence.
template <typename T, typename Op, typename Comm>
T reduce(const Comm& comm, const T* data, std::int64_t count, Op& op) {
  using namespace nampi::params;
  const int p = comm.size();
  // Every rank's element count: every rank's first index, n, and so every rank's nodes.
  const std::vector<std::int64_t> counts = comm.allgather(send_buf(count));
  std::vector<std::int64_t> firsts(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r) firsts[r + 1] = firsts[r] + counts[r];
  const std::int64_t n = firsts[p];
  NAMPI_CHECK(n > 0, "reproducible_reduce: the global sequence is empty (every send_buf is)");
  const int top = root_level(n);

  std::vector<node> nodes;  // every rank's, in rank order: by begin()
  std::vector<int> node_bytes(static_cast<std::size_t>(p));
  std::vector<record<T>> mine;
  for (int r = 0; r < p; ++r) {
    const std::vector<node> of_r = cover(firsts[r], firsts[r + 1], n, top);
    node_bytes[r] = narrow<int>(of_r.size() * sizeof(record<T>), "reproducible_reduce",
                                "a rank's nodes in bytes", "int");
    if (r == comm.rank())
      for (const node& v : of_r)
        mine.push_back({v.level, v.index, value_of(v, data, firsts[r], n, op)});
    nodes.insert(nodes.end(), of_r.begin(), of_r.end());
  }
  std::vector<std::byte> sent(mine.size() * sizeof(record<T>));
  if (!mine.empty()) std::memcpy(sent.data(), mine.data(), sent.size());
  std::vector<std::byte> received(nodes.size() * sizeof(record<T>));
  comm.allgatherv(send_buf(sent), recv_buf<no_resize>(received), recv_counts(node_bytes));
  std::vector<T> values;
  values.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    record<T> got;
    std::memcpy(static_cast<void*>(&got), received.data() + i * sizeof(record<T>), sizeof got);
    values.push_back(got.value);
  }
  return top_value(node{top, 0}, nodes, values, n, op);
}

}  // namespace detail::reproducible

namespace plugins {

// The plugin's members (a plugin and its member share the name, which a class and its member
// cannot: the plugin is an alias of this class).
template <typename Comm>
class reproducible_reduce_members {
 public:
  // spec/plugins/reproducible_reduce.yaml: reproducible_reduce
  /// The reduction of the global sequence (every rank's send_buf, concatenated in rank order)
  /// by a fixed binary tree over its indices, at every rank: bitwise the same for any number
  /// of ranks and any distribution of the sequence.
  /// @param send_buf this rank's consecutive part of the global sequence (required)
  /// @param op an associative binary callable on the elements, e.g. std::plus<>{} (required)
  template <typename... Args>
  auto reproducible_reduce(Args&&... args) const {
    using check = generated::reproducible_reduce_check<std::remove_cvref_t<Args>...>;
    if constexpr (!check::ok) {
      return detail::failed_call{};
    } else if constexpr (std::is_same_v<
                             std::remove_cvref_t<decltype(plugin::value<param_id::op>(args...))>,
                             MPI_Op>) {
      static_assert(detail::always_false<Comm>,
                    "nampi: reproducible_reduce: parameter 'op': takes a callable or a builtin "
                    "functor (std::plus<>, ...), not an MPI_Op: the plugin applies it in its own "
                    "tree");
      return detail::failed_call{};
    } else {
      const Comm& comm = static_cast<const Comm&>(*this);
      auto& local = plugin::value<param_id::send_buf>(args...);
      using T = std::remove_cv_t<detail::element_t<decltype(local)>>;
      static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                    "nampi: reproducible_reduce: the elements of send_buf must be trivially "
                    "copyable and default-constructible (the tree's nodes travel as bytes and "
                    "are kept in a fixed array)");
      // op(f, nampi::commutative) is fine: the tree fixes the order anyway.
      auto& op = detail::op_function(plugin::value<param_id::op>(args...));
      return detail::reproducible::reduce<T>(comm, detail::data_of(local),
                                             static_cast<std::int64_t>(detail::size_of(local)), op);
    }
  }
};

template <typename Comm>
using reproducible_reduce = reproducible_reduce_members<Comm>;

}  // namespace plugins
}  // namespace nampi
