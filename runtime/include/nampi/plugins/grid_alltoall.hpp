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
// Below 16 ranks two hops do not pay: two message latencies one after the other cost more than
// the few messages they save. There the default grid exchanges directly, one MPI_Alltoall of
// counts and one MPI_Alltoallv on the whole communicator (two_hops_from, below). A grid whose
// number of columns the caller gives always takes two hops.
//
// Any p: ranks 0 .. rows*columns-1 fill the grid row by row (columns = floor(sqrt p),
// rows = p / columns); the e < columns ranks left over join row k and column k (the k-th of
// them) as the last member of each. Since rows >= columns > e, those exist; every row keeps a
// regular member in every column, which is the one that forwards (the extra ranks only send
// and receive).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <exception>
#include <optional>
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

// The default grid takes two hops from this many ranks on, and exchanges directly below.
// Measured in SMPI (bench/results/scale/scale.md, 1-3 ints per pair): the direct exchange was
// faster up to 12 ranks, the grid from 16 on, on the 1 µs and the 50 µs platform alike (1 µs,
// against SMPI's linear MPI_Alltoallv, what MPICH and Open MPI run for small messages: 4 ranks
// 12.2 against 24.3 µs, 12 ranks 18.7 against 30.7, 16 ranks 30.8 against 24.7).
inline constexpr int two_hops_from = 16;

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

// The arrays of one hop: per member, `width` counts of header and the elements sent (send,
// send_displs), and what came back (got, recv, recv_displs); the elements as bytes
// (element_space).
struct hop {
  std::vector<int> header, got, send, send_displs, recv, recv_displs;
  std::vector<std::byte> packed, data;
};

// The arrays of one exchange, kept by the grid communicator from call to call: in the steady
// state a call allocates nothing but what it returns. (A grid communicator's calls are
// collective over its rows and columns: one thread at a time, as MPI requires.)
struct workspace {
  hop row, column;
  // p of each, sized once by the grid communicator: send_buf's offsets where the caller gave
  // none, the count from each rank, and (on the direct exchange) where each rank's block goes.
  std::vector<int> send_displs, from_each, recv_displs;
  std::vector<std::size_t> at1, displs_out;
};

// n elements of T: in reused bytes of the workspace where T allows it (trivially copyable,
// ordinarily aligned), else in a vector of its own.
template <typename T>
class element_space {
  static constexpr bool reused =
      std::is_trivially_copyable_v<T> && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__;
  struct none {};

 public:
  element_space(std::vector<std::byte>& bytes, std::size_t n) {
    if constexpr (reused) {
      if (bytes.size() < n * sizeof(T)) bytes.resize(n * sizeof(T));  // grows only
      data_ = reinterpret_cast<T*>(bytes.data());
    } else {
      own_.resize(n);
      data_ = own_.data();
    }
  }
  T* data() const noexcept { return data_; }

 private:
  [[no_unique_address]] std::conditional_t<reused, none, std::vector<T>> own_;
  T* data_ = nullptr;
};

// Prefix sums of the n counts, into displs (as MPI_Alltoallv's displacements).
inline void prefix_sums(const std::vector<int>& counts, std::vector<int>& displs,
                        const char* what) {
  const std::size_t n = counts.size();
  displs.resize(n);
  const int* const c = counts.data();
  int* const out = displs.data();
  long long at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<int>(at);
    at += c[i];
  }
  // No count is negative, so the offsets only grow: the last fits an int if any does.
  if (n > 0 && at - c[n - 1] > INT_MAX) [[unlikely]]
    as_count(at - c[n - 1], what);
}

// A hop's headers (filled in h.header and h.send) to the `members` of `comm` by MPI_Alltoall;
// the counts to receive from each, and their displacements. Returns how many elements arrive.
inline std::size_t trade_headers(hop& h, int members, int width, MPI_Comm comm,
                                 const char* from_each_member) {
  h.got.resize(h.header.size());
  call_mpi("MPI_Alltoall", MPI_Alltoall, static_cast<const void*>(h.header.data()), width, MPI_INT,
           static_cast<void*>(h.got.data()), width, MPI_INT, comm);
  h.recv.resize(static_cast<std::size_t>(members));
  const int* const got = h.got.data();
  int* const recv = h.recv.data();
  for (int a = 0; a < members; ++a)
    recv[a] = as_count(sum(got + static_cast<std::size_t>(a) * width, width), from_each_member);
  prefix_sums(h.send, h.send_displs, "an offset sent in a hop");
  prefix_sums(h.recv, h.recv_displs, "an offset received in a hop");
  return members == 0 ? 0 : static_cast<std::size_t>(h.recv_displs.back()) + h.recv.back();
}

// A hop's elements, packed as its headers said, by MPI_Alltoallv into `data`.
template <typename T>
void trade_elements(const hop& h, const T* packed, T* data, MPI_Comm comm) {
  const MPI_Datatype type = mpi_datatype<T>();
  call_mpi("MPI_Alltoallv", MPI_Alltoallv, static_cast<const void*>(packed), h.send.data(),
           h.send_displs.data(), type, static_cast<void*>(data), h.recv.data(),
           h.recv_displs.data(), type, comm);
}

// The exchange: `send` holds the elements for rank d at displs[d], counts[d] of them. Writes
// the counts of each source into ws.from_each (p of them) and the elements received (from each
// source in rank order) to make_room(total), which returns where they go.
template <typename T, typename MakeRoom>
void exchange(const layout g, MPI_Comm row, int row_n, MPI_Comm column, int column_n, const T* send,
              const int* counts, const int* displs, workspace& ws, MakeRoom&& make_room) {
  // Headers: fixed width (the longest column, the longest row), so that one MPI_Alltoall
  // carries them; unused entries stay 0.
  const int width1 = g.rows + 1, width2 = g.columns + 1;

  // Hop 1, in my row: to the member in column q, the counts for each rank of column q (in
  // column order) and then their elements in that order. The extra member gets nothing.
  // (The arrays are walked through pointers kept here: a store through one of them could
  // otherwise be another's size or data, to be read again after it.)
  hop& h1 = ws.row;
  h1.header.assign(static_cast<std::size_t>(row_n) * width1, 0);
  h1.send.assign(static_cast<std::size_t>(row_n), 0);
  int* const header1 = h1.header.data();
  int* const send1 = h1.send.data();
  const element_space<T> packed1_space(h1.packed, static_cast<std::size_t>(sum(counts, g.size)));
  T* const packed1 = packed1_space.data();
  std::size_t packed = 0;
  for (int q = 0; q < g.columns; ++q) {
    long long for_q = 0;
    const int members = g.column_size(q);
    for (int b = 0; b < members; ++b) {
      const int d = g.in_column(q, b);
      header1[static_cast<std::size_t>(q) * width1 + b] = counts[d];
      for_q += counts[d];
      std::copy_n(send + displs[d], counts[d], packed1 + packed);
      packed += static_cast<std::size_t>(counts[d]);
    }
    send1[q] = as_count(for_q, "the elements sent to a row member");
  }
  const std::size_t total1 =
      trade_headers(h1, row_n, width1, row, "the elements received from a row member");
  const element_space<T> data1_space(h1.data, total1);
  T* const data1 = data1_space.data();
  trade_elements(h1, packed1, data1, row);
  const int* const got1 = h1.got.data();

  // Where the block from row member a to column member b starts in data1.
  const std::size_t blocks1 = static_cast<std::size_t>(row_n) * width1;
  ws.at1.resize(blocks1);
  std::size_t* const at1 = ws.at1.data();
  std::size_t offset = 0;
  for (std::size_t k = 0; k < blocks1; ++k) {
    at1[k] = offset;
    offset += static_cast<std::size_t>(got1[k]);
  }

  // Hop 2, in my column: to the member at place b, the counts from each member of my row (in
  // row order) and then their elements for it in that order.
  hop& h2 = ws.column;
  h2.header.assign(static_cast<std::size_t>(column_n) * width2, 0);
  h2.send.assign(static_cast<std::size_t>(column_n), 0);
  int* const header2 = h2.header.data();
  int* const send2 = h2.send.data();
  const element_space<T> packed2_space(h2.packed, total1);
  T* const packed2 = packed2_space.data();
  packed = 0;
  for (int b = 0; b < column_n; ++b) {
    long long for_b = 0;
    for (int a = 0; a < row_n; ++a) {
      const std::size_t k = static_cast<std::size_t>(a) * width1 + b;
      const int n = got1[k];
      header2[static_cast<std::size_t>(b) * width2 + a] = n;
      for_b += n;
      std::copy_n(data1 + at1[k], n, packed2 + packed);
      packed += static_cast<std::size_t>(n);
    }
    send2[b] = as_count(for_b, "the elements forwarded to a column member");
  }
  const std::size_t total2 =
      trade_headers(h2, column_n, width2, column, "the elements received from a column member");
  const element_space<T> data2_space(h2.data, total2);
  T* const data2 = data2_space.data();
  trade_elements(h2, packed2, data2, column);
  const int* const got2 = h2.got.data();

  // The column member at place b < rows forwarded the data of row b (the extra member at
  // place `rows` forwards nothing: its header is all 0 and names no rank).
  const int forwarders = std::min(column_n, g.rows);
  ws.from_each.assign(static_cast<std::size_t>(g.size), 0);
  int* const from_each = ws.from_each.data();
  for (int b = 0; b < forwarders; ++b) {
    const int members = g.row_size(b);
    for (int a = 0; a < members; ++a)
      from_each[g.in_row(b, a)] = got2[static_cast<std::size_t>(b) * width2 + a];
  }
  ws.displs_out.assign(static_cast<std::size_t>(g.size) + 1, 0);
  std::size_t* const displs_out = ws.displs_out.data();
  for (int s = 0; s < g.size; ++s) displs_out[s + 1] = displs_out[s] + from_each[s];
  NAMPI_CHECK(displs_out[g.size] == total2,
              "%s: internal: %zu elements arrived, the headers announced %zu", call_name, total2,
              displs_out[g.size]);
  // Reordered from (row, place in row) to rank order.
  T* out = make_room(total2);
  std::size_t from = 0;
  for (int b = 0; b < forwarders; ++b) {
    const int members = g.row_size(b);
    for (int a = 0; a < members; ++a) {
      const int s = g.in_row(b, a);
      std::copy_n(data2 + from, from_each[s], out + displs_out[s]);
      from += static_cast<std::size_t>(from_each[s]);
    }
  }
}

// The exchange in one hop, where the grid does not pay: the counts by MPI_Alltoall into
// ws.from_each, the elements by MPI_Alltoallv straight to make_room(total). If make_room refuses
// (a caller's recv_buf too small), the elements still arrive, in the workspace, and the refusal
// is thrown after the exchange: every rank takes part in both collectives, so none is left
// waiting in one.
// (Inlined: at a few ranks its calls' cost is of the order of a plain exchange's own.)
template <typename T, typename MakeRoom>
[[gnu::always_inline]] inline void direct_exchange(MPI_Comm comm, int p, const T* send,
                                                   const int* counts, const int* displs,
                                                   workspace& ws, MakeRoom&& make_room) {
  int* const from_each = ws.from_each.data();  // p of them, as recv_displs
  int* const recv_displs = ws.recv_displs.data();
  call_mpi("MPI_Alltoall", MPI_Alltoall, static_cast<const void*>(counts), 1, MPI_INT,
           static_cast<void*>(from_each), 1, MPI_INT, comm);
  // Offsets of the blocks received, one after another (the senders checked their counts).
  long long at = 0;
  for (int s = 0; s < p; ++s) {
    recv_displs[s] = static_cast<int>(at);
    at += from_each[s];
  }
  if (at - from_each[p - 1] > INT_MAX) [[unlikely]]  // a communicator has p >= 1 ranks
    as_count(at - from_each[p - 1], "an offset received");
  const std::size_t total = static_cast<std::size_t>(at);
  T* out = nullptr;
  std::exception_ptr refused;
  std::optional<element_space<T>> scratch;
  try {
    out = make_room(total);
  } catch (const usage_error&) {
    refused = std::current_exception();
    out = scratch.emplace(ws.row.data, total).data();
  }
  const MPI_Datatype type = mpi_datatype<T>();
  call_mpi("MPI_Alltoallv", MPI_Alltoallv, static_cast<const void*>(send), counts, displs, type,
           static_cast<void*>(out), from_each, recv_displs, type, comm);
  if (refused) std::rethrow_exception(refused);
}

}  // namespace detail::grid

namespace plugins {

// A communicator's ranks as a grid: it owns the row and column communicators (made once, by
// make_grid_communicator, which every rank calls) and routes alltoallv over them.
class grid_communicator {
 public:
  // The square-root grid; below two_hops_from ranks its calls exchange directly.
  explicit grid_communicator(const Communicator& comm)
      : grid_communicator(comm, detail::grid::layout::of(comm.size()),
                          comm.size() >= detail::grid::two_hops_from) {}
  // With that many columns (tests, tuning): 1 <= columns <= p and p mod columns <= p / columns.
  // Always two hops.
  grid_communicator(const Communicator& comm, int columns)
      : grid_communicator(comm, detail::grid::layout::of(comm.size(), columns), true) {}

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return layout_.size; }
  int columns() const noexcept { return layout_.columns; }
  // Whether alltoallv takes two hops over the rows and columns (else one exchange on a
  // duplicate of the whole communicator).
  bool two_hops() const noexcept { return two_hops_; }
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
  grid_communicator(const Communicator& comm, detail::grid::layout layout, bool two_hops)
      : layout_(layout), rank_(comm.rank()), two_hops_(two_hops) {
    using namespace nampi::params;
    row_ = comm.split(color(layout_.row_of(rank_)), key(layout_.row_position(rank_)));
    column_ = comm.split(color(layout_.column_of(rank_)), key(layout_.column_position(rank_)));
    if (!two_hops_) whole_ = comm.dup();
    const auto p = static_cast<std::size_t>(layout_.size);
    work_.send_displs.resize(p);
    work_.from_each.resize(p);
    work_.recv_displs.resize(p);
  }

  template <typename... Args, typename... Refs>
  auto run(Refs&... args) const {
    using T =
        std::remove_cv_t<detail::element_t<decltype(plugin::value<param_id::send_buf>(args...))>>;
    if constexpr (detail::has_param<param_id::recv_buf, Args...>) {
      // The elements are copied into it here, not converted by MPI datatypes.
      using R = detail::element_t<decltype(plugin::value<param_id::recv_buf>(args...))>;
      if constexpr (!std::is_same_v<std::remove_cv_t<R>, T>) {
        static_assert(std::is_same_v<std::remove_cv_t<R>, T>,
                      "nampi: alltoallv (grid communicator): recv_buf must hold send_buf's "
                      "element type");
        return detail::failed_call{};
      } else {
        return exchange<T, Args...>(args...);
      }
    } else {
      return exchange<T, Args...>(args...);
    }
  }

  template <typename T, typename... Args, typename... Refs>
  auto exchange(Refs&... args) const {
    auto& send = plugin::value<param_id::send_buf>(args...);
    auto& counts = plugin::value<param_id::send_counts>(args...);
    const int p = layout_.size;
    NAMPI_CHECK(detail::size_of(counts) >= static_cast<std::size_t>(p),
                "%s: send_counts holds %zu counts, the communicator has %d ranks",
                detail::grid::call_name, detail::size_of(counts), p);
    const int* count = detail::data_of(counts);
    const int* displs = nullptr;
    const std::size_t n = detail::size_of(send);
    if constexpr (plugin::given<param_id::send_displs, Args...>) {
      auto& given = plugin::value<param_id::send_displs>(args...);
      NAMPI_CHECK(detail::size_of(given) >= static_cast<std::size_t>(p),
                  "%s: send_displs holds %zu offsets, the communicator has %d ranks",
                  detail::grid::call_name, detail::size_of(given), p);
      displs = detail::data_of(given);
      // Each block inside send_buf: in every build with two hops, where nampi copies the
      // elements; on the direct exchange MPI reads them, and the caller's counts and offsets are
      // checked as the core alltoallv's are (unless NAMPI_TRUST_GIVEN_SIZES).
      if (two_hops_ || detail::check_given_sizes)
        for (int d = 0; d < p; ++d)
          NAMPI_CHECK(
              count[d] >= 0 && displs[d] >= 0 &&
                  static_cast<std::size_t>(displs[d]) + static_cast<std::size_t>(count[d]) <= n,
              "%s: the block for rank %d (offset %d, %d elements) is not inside send_buf "
              "(%zu elements)",
              detail::grid::call_name, d, displs[d], count[d], n);
    } else {
      // The offsets computed here put the blocks one after another from 0: they lie inside
      // send_buf when no count is negative and the counts add up to at most its size (checked
      // in every build; the offsets only grow, so the last one fits an int if any does).
      int* const prefix = work_.send_displs.data();  // p of them, reused
      long long at = 0;
      int sign = 0;  // negative once a count is
      for (int d = 0; d < p; ++d) {
        prefix[d] = static_cast<int>(at);
        sign |= count[d];
        at += count[d];
      }
      const long long last = at - count[p - 1];  // a communicator has p >= 1 ranks
      if (sign < 0 || static_cast<unsigned long long>(at) > n || last > INT_MAX) [[unlikely]] {
        NAMPI_CHECK(sign >= 0, "%s: a count in send_counts is negative", detail::grid::call_name);
        NAMPI_CHECK(static_cast<unsigned long long>(at) <= n,
                    "%s: send_counts add up to %lld elements, send_buf holds %zu",
                    detail::grid::call_name, at, n);
        detail::grid::as_count(last, "an offset in send_buf");
      }
      displs = prefix;
    }

    auto out_buf = detail::resolve<param_id::recv_buf, std::vector<T>, no_resize, true>(args...);
    auto out_counts =
        detail::resolve<param_id::recv_counts, std::vector<int>, no_resize, false>(args...);
    // The received elements go straight into the returned vector or the caller's recv_buf
    // (sized for them: checked in every build, the size comes from the headers).
    const auto make_room = [&](std::size_t total) -> T* {
      out_buf.resize_for(total, detail::grid::call_name, detail::size_check<true>{});
      return out_buf.data();
    };
    if (two_hops_)
      detail::grid::exchange<T>(layout_, row_.mpi_handle(), row_.size(), column_.mpi_handle(),
                                column_.size(), detail::data_of(send), count, displs, work_,
                                make_room);
    else
      detail::grid::direct_exchange<T>(whole_.mpi_handle(), p, detail::data_of(send), count, displs,
                                       work_, make_room);
    if constexpr (detail::has_param<param_id::recv_counts, Args...>) {
      out_counts.resize_for(work_.from_each.size(), detail::grid::call_name,
                            detail::size_check<true>{});
      std::copy(work_.from_each.begin(), work_.from_each.end(), out_counts.data());
    }
    return detail::make_result<Args...>(out_buf, out_counts);
  }

  detail::grid::layout layout_;
  int rank_;
  bool two_hops_;
  OwnedCommunicator row_;
  OwnedCommunicator column_;
  OwnedCommunicator whole_;  // the direct exchange's (MPI_COMM_NULL with two hops)
  mutable detail::grid::workspace work_;
};

// The plugin's members (the alias below is the plugin: a class and its member cannot share a
// name, and a plugin is named after what it adds).
template <typename Comm>
class grid_alltoall_members {
 public:
  /// The grid of this communicator's ranks (collective: every rank calls it). Make it once and
  /// keep it: it creates two communicators (MPI_Comm_split twice), and below 16 ranks, where
  /// its calls exchange directly, a third (MPI_Comm_dup).
  grid_communicator make_grid_communicator() const {
    return grid_communicator(static_cast<const Communicator&>(static_cast<const Comm&>(*this)));
  }
};

template <typename Comm>
using grid_alltoall = grid_alltoall_members<Comm>;

}  // namespace plugins
}  // namespace nampi
