// The grid_alltoall plugin: an all-to-all exchange in two hops over a virtual 2D grid of the
// ranks, for small messages, where the start-up of p messages per rank dominates:
//
//   nampi::BasicCommunicator<nampi::plugins::grid_alltoall> comm;
//   auto grid = comm.make_grid_communicator();              // collective; keep and reuse it
//   auto recv = grid.alltoallv(send_buf(v), send_counts(c));  // what comm.alltoallv returns
//
// Hop 1 sends every element, within the sender's row, to the rank of the destination's column;
// hop 2 forwards it along that column to the destination. A rank talks to the members of its
// row and of its column only: about 2 sqrt(p) partners instead of p. Each hop is one
// MPI_Alltoall of counts (the headers: what goes to, or came from, whom) and one
// MPI_Alltoallv of the elements, on the grid's row and column communicators.
//
// Any p: ranks 0 .. rows*columns-1 fill the grid row by row (columns = floor(sqrt p),
// rows = p / columns); the e < columns ranks left over join row k and column k (the k-th of
// them) as the last member of each. Since rows >= columns > e, those exist; every row keeps a
// regular member in every column, which is the one that forwards (the extra ranks only send
// and receive).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/detail/slot.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/plugins/grid_alltoall.hpp"
#include "nampi/plugin.hpp"
#include "nampi/result.hpp"

namespace nampi {
namespace detail::grid {

inline constexpr const char* call_name = "alltoallv (grid communicator)";

// Where each rank sits in the grid (see above), and who sits where.
struct layout {
  int size = 1;
  int columns = 1;
  int rows = 1;

  static layout of(int p) {
    int c = 1;
    while ((c + 1) * (c + 1) <= p) ++c;
    return {p, c, p / c};
  }
  // Another number of columns: fine while the ranks left over fit one per row (p mod c <= p / c).
  static bool fits(int p, int c) noexcept { return c >= 1 && c <= p && p % c <= p / c; }
  static layout of(int p, int c) {
    NAMPI_CHECK(fits(p, c), "%s: %d columns do not fit %d ranks (1 <= c <= p, p mod c <= p / c)",
                call_name, c, p);
    return {p, c, p / c};
  }
  int full() const noexcept { return rows * columns; }
  bool extra(int r) const noexcept { return r >= full(); }
  int row_of(int r) const noexcept { return extra(r) ? r - full() : r / columns; }
  int column_of(int r) const noexcept { return extra(r) ? r - full() : r % columns; }
  // The rank's place in its row's and its column's communicator.
  int row_position(int r) const noexcept { return extra(r) ? columns : r % columns; }
  int column_position(int r) const noexcept { return extra(r) ? rows : r / columns; }
  int row_size(int i) const noexcept { return columns + (full() + i < size ? 1 : 0); }
  int column_size(int j) const noexcept { return rows + (full() + j < size ? 1 : 0); }
  // The rank at place a of row i, at place b of column j.
  int in_row(int i, int a) const noexcept { return a < columns ? i * columns + a : full() + i; }
  int in_column(int j, int b) const noexcept { return b < rows ? b * columns + j : full() + j; }
};

inline long long sum(const int* counts, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += counts[i];
  return s;
}

inline int as_count(long long n, const char* what) {
  return narrow<int>(n, call_name, what, "int");
}

// The exchange: `send` holds the elements for rank d at displs[d], counts[d] of them. Returns
// the elements received (from each source in rank order) and writes the counts of each source
// into `from_each` (p of them).
template <typename T>
std::vector<T> exchange(const layout& g, const Communicator& row, const Communicator& column,
                        const T* send, const int* counts, const int* displs,
                        std::vector<int>& from_each) {
  using namespace nampi::params;
  const int row_n = row.size(), column_n = column.size();
  // Headers: fixed width (the longest column, the longest row), so that one MPI_Alltoall
  // carries them; unused entries stay 0.
  const int width1 = g.rows + 1, width2 = g.columns + 1;

  // Hop 1, in my row: to the member in column q, the counts for each rank of column q (in
  // column order) and then their elements in that order. The extra member gets nothing.
  std::vector<int> header1(static_cast<std::size_t>(row_n) * width1, 0);
  std::vector<int> send1(static_cast<std::size_t>(row_n), 0);
  std::vector<T> packed1;
  packed1.reserve(static_cast<std::size_t>(sum(counts, g.size)));
  for (int q = 0; q < g.columns; ++q) {
    long long for_q = 0;
    for (int b = 0; b < g.column_size(q); ++b) {
      const int d = g.in_column(q, b);
      header1[static_cast<std::size_t>(q) * width1 + b] = counts[d];
      for_q += counts[d];
      packed1.insert(packed1.end(), send + displs[d], send + displs[d] + counts[d]);
    }
    send1[q] = as_count(for_q, "the elements sent to a row member");
  }
  const std::vector<int> got1 = row.alltoall(send_buf(header1));
  std::vector<int> recv1(static_cast<std::size_t>(row_n));
  for (int a = 0; a < row_n; ++a)
    recv1[a] = as_count(sum(got1.data() + static_cast<std::size_t>(a) * width1, width1),
                        "the elements received from a row member");
  const std::vector<T> data1 =
      row.alltoallv(send_buf(packed1), send_counts(send1), recv_counts(recv1));

  // Where the block from row member a to column member b starts in data1.
  std::vector<std::size_t> at1(static_cast<std::size_t>(row_n) * width1);
  std::size_t offset = 0;
  for (int a = 0; a < row_n; ++a)
    for (int b = 0; b < width1; ++b) {
      at1[static_cast<std::size_t>(a) * width1 + b] = offset;
      offset += static_cast<std::size_t>(got1[static_cast<std::size_t>(a) * width1 + b]);
    }

  // Hop 2, in my column: to the member at place b, the counts from each member of my row (in
  // row order) and then their elements for it in that order.
  std::vector<int> header2(static_cast<std::size_t>(column_n) * width2, 0);
  std::vector<int> send2(static_cast<std::size_t>(column_n), 0);
  std::vector<T> packed2;
  packed2.reserve(data1.size());
  for (int b = 0; b < column_n; ++b) {
    long long for_b = 0;
    for (int a = 0; a < row_n; ++a) {
      const std::size_t k = static_cast<std::size_t>(a) * width1 + b;
      header2[static_cast<std::size_t>(b) * width2 + a] = got1[k];
      for_b += got1[k];
      packed2.insert(packed2.end(), data1.begin() + static_cast<std::ptrdiff_t>(at1[k]),
                     data1.begin() + static_cast<std::ptrdiff_t>(at1[k] + got1[k]));
    }
    send2[b] = as_count(for_b, "the elements forwarded to a column member");
  }
  const std::vector<int> got2 = column.alltoall(send_buf(header2));
  std::vector<int> recv2(static_cast<std::size_t>(column_n));
  for (int b = 0; b < column_n; ++b)
    recv2[b] = as_count(sum(got2.data() + static_cast<std::size_t>(b) * width2, width2),
                        "the elements received from a column member");
  const std::vector<T> data2 =
      column.alltoallv(send_buf(packed2), send_counts(send2), recv_counts(recv2));

  // The column member at place b < rows forwarded the data of row b (the extra member at
  // place `rows` forwards nothing: its header is all 0 and names no rank).
  from_each.assign(static_cast<std::size_t>(g.size), 0);
  for (int b = 0; b < std::min(column_n, g.rows); ++b)
    for (int a = 0; a < g.row_size(b); ++a)
      from_each[g.in_row(b, a)] = got2[static_cast<std::size_t>(b) * width2 + a];
  std::vector<std::size_t> displs_out(static_cast<std::size_t>(g.size) + 1, 0);
  for (int s = 0; s < g.size; ++s) displs_out[s + 1] = displs_out[s] + from_each[s];
  NAMPI_CHECK(displs_out.back() == data2.size(),
              "%s: internal: %zu elements arrived, the headers announced %zu", call_name,
              data2.size(), displs_out.back());
  // Reordered from (row, place in row) to rank order.
  std::vector<T> out(data2.size());
  std::size_t from = 0;
  for (int b = 0; b < std::min(column_n, g.rows); ++b)
    for (int a = 0; a < g.row_size(b); ++a) {
      const int s = g.in_row(b, a);
      std::copy_n(data2.begin() + static_cast<std::ptrdiff_t>(from), from_each[s],
                  out.begin() + static_cast<std::ptrdiff_t>(displs_out[s]));
      from += static_cast<std::size_t>(from_each[s]);
    }
  return out;
}

}  // namespace detail::grid

namespace plugins {

// A communicator's ranks as a grid: it owns the row and column communicators (made once, by
// make_grid_communicator, which every rank calls) and routes alltoallv over them.
class grid_communicator {
 public:
  explicit grid_communicator(const Communicator& comm)
      : grid_communicator(comm, detail::grid::layout::of(comm.size())) {}
  // With that many columns (tests, tuning): 1 <= columns <= p and p mod columns <= p / columns.
  grid_communicator(const Communicator& comm, int columns)
      : grid_communicator(comm, detail::grid::layout::of(comm.size(), columns)) {}

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return layout_.size; }
  int columns() const noexcept { return layout_.columns; }
  // The members of this rank's row, of its column (ordered by place).
  const Communicator& row_communicator() const noexcept { return row_; }
  const Communicator& column_communicator() const noexcept { return column_; }

  // spec/plugins/grid_alltoall.yaml: grid_alltoallv
  /// The core alltoallv's exchange (every rank's data, received in rank order) in two hops.
  /// @param send_buf the data for every rank, rank after rank (required)
  /// @param send_counts how many elements go to each rank (required)
  /// @param send_displs where each rank's elements start; omitted: prefix sums of send_counts
  /// @param recv_counts only asked back: recv_counts_out(), the count from each rank
  /// @param recv_buf omitted: a std::vector<T>, returned; given: written (no_resize unless it
  ///        names a policy, as for the core alltoallv)
  template <typename... Args>
  auto alltoallv(Args&&... args) const {
    if constexpr (!generated::grid_alltoallv_check<std::remove_cvref_t<Args>...>::ok) {
      return detail::failed_call{};
    } else if constexpr (!detail::computes<param_id::recv_counts, std::remove_cvref_t<Args>...>) {
      static_assert(detail::computes<param_id::recv_counts, std::remove_cvref_t<Args>...>,
                    "nampi: alltoallv (grid communicator): recv_counts can only be asked back "
                    "(recv_counts_out()): the counts travel with the data");
      return detail::failed_call{};
    } else {
      return run<std::remove_cvref_t<Args>...>(args...);
    }
  }

 private:
  grid_communicator(const Communicator& comm, detail::grid::layout layout)
      : layout_(layout), rank_(comm.rank()) {
    using namespace nampi::params;
    row_ = comm.split(color(layout_.row_of(rank_)), key(layout_.row_position(rank_)));
    column_ = comm.split(color(layout_.column_of(rank_)), key(layout_.column_position(rank_)));
  }

  template <typename... Args, typename... Refs>
  auto run(Refs&... args) const {
    auto& send = plugin::value<param_id::send_buf>(args...);
    auto& counts = plugin::value<param_id::send_counts>(args...);
    using T = std::remove_cv_t<detail::element_t<decltype(send)>>;
    if constexpr (detail::has_param<param_id::recv_buf, Args...>) {
      // The elements are moved into it here, not converted by MPI datatypes.
      using R = detail::element_t<decltype(plugin::value<param_id::recv_buf>(args...))>;
      static_assert(std::is_same_v<std::remove_cv_t<R>, T>,
                    "nampi: alltoallv (grid communicator): recv_buf must hold send_buf's element "
                    "type");
    }
    const int p = layout_.size;
    NAMPI_CHECK(detail::size_of(counts) >= static_cast<std::size_t>(p),
                "%s: send_counts holds %zu counts, the communicator has %d ranks",
                detail::grid::call_name, detail::size_of(counts), p);
    const int* count = detail::data_of(counts);
    std::vector<int> prefix;
    const int* displs = nullptr;
    if constexpr (plugin::given<param_id::send_displs, Args...>) {
      auto& given = plugin::value<param_id::send_displs>(args...);
      NAMPI_CHECK(detail::size_of(given) >= static_cast<std::size_t>(p),
                  "%s: send_displs holds %zu offsets, the communicator has %d ranks",
                  detail::grid::call_name, detail::size_of(given), p);
      displs = detail::data_of(given);
    } else {
      prefix.resize(static_cast<std::size_t>(p));
      long long at = 0;
      for (int d = 0; d < p; ++d) {
        prefix[d] = detail::grid::as_count(at, "an offset in send_buf");
        at += count[d];
      }
      displs = prefix.data();
    }
    // The elements are copied here, not by MPI: a block past the buffer's end is an error.
    const std::size_t n = detail::size_of(send);
    for (int d = 0; d < p; ++d)
      NAMPI_CHECK(count[d] >= 0 && displs[d] >= 0 &&
                      static_cast<std::size_t>(displs[d]) + static_cast<std::size_t>(count[d]) <= n,
                  "%s: the block for rank %d (offset %d, %d elements) is not inside send_buf (%zu "
                  "elements)",
                  detail::grid::call_name, d, displs[d], count[d], n);

    std::vector<int> got_counts;
    std::vector<T> got = detail::grid::exchange<T>(layout_, row_, column_, detail::data_of(send),
                                                   count, displs, got_counts);

    auto out_buf = detail::resolve<param_id::recv_buf, std::vector<T>, no_resize, true>(args...);
    auto out_counts =
        detail::resolve<param_id::recv_counts, std::vector<int>, no_resize, false>(args...);
    if constexpr (detail::has_param<param_id::recv_counts, Args...>) {
      out_counts.resize_for(got_counts.size(), detail::grid::call_name, detail::size_check<true>{});
      std::copy(got_counts.begin(), got_counts.end(), out_counts.data());
    }
    if constexpr (detail::has_param<param_id::recv_buf, Args...>) {
      out_buf.resize_for(got.size(), detail::grid::call_name, detail::size_check<true>{});
      std::move(got.begin(), got.end(), out_buf.data());
      return detail::make_result<Args...>(out_buf, out_counts);
    } else {
      // Omitted: what the exchange built is the returned vector (no copy).
      out_buf.get() = std::move(got);
      return detail::make_result<Args...>(out_buf, out_counts);
    }
  }

  detail::grid::layout layout_;
  int rank_;
  OwnedCommunicator row_;
  OwnedCommunicator column_;
};

// The plugin's members (the alias below is the plugin: a class and its member cannot share a
// name, and a plugin is named after what it adds).
template <typename Comm>
class grid_alltoall_members {
 public:
  /// The grid of this communicator's ranks (collective: every rank calls it). Make it once and
  /// keep it: it creates two communicators (MPI_Comm_split twice).
  grid_communicator make_grid_communicator() const {
    return grid_communicator(static_cast<const Communicator&>(static_cast<const Comm&>(*this)));
  }
};

template <typename Comm>
using grid_alltoall = grid_alltoall_members<Comm>;

}  // namespace plugins
}  // namespace nampi
