// The grid_alltoall plugin: the grid's layout for every p up to 300 and every number of columns
// that fits (each rank in one row and one column, every row meets every column at a rank that
// forwards); grid.alltoallv against both the core comm.alltoallv and the data each rank must
// receive, with irregular counts (zeros, different per pair) for int, double and a struct, on
// the default grid and on every other grid that fits p (incomplete last rows included even at
// p <= 4); recv_counts_out, a caller's recv_buf, send_displs with gaps, on the default grid
// (below 16 ranks: one exchange on the whole communicator) and on the same shape given (two
// hops); several calls on one grid, each exactly two MPI_Alltoall and two MPI_Alltoallv with two
// hops (on the row and column communicators, which are smaller than the whole for p >= 4), one
// of each without.
// Up to p = 4 every grid's rows hold consecutive ranks; from p = 5 on a rank left over joins
// row 0, so that data arrives out of rank order and must be put back in it: 1..8 ranks.
// ctest-labels: ranks8
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cmath>
#include <nampi/nampi.hpp>
#include <nampi/plugins/grid_alltoall.hpp>
#include <span>
#include <string>
#include <vector>

using namespace nampi::params;

namespace {

using comm_type = nampi::BasicCommunicator<nampi::plugins::grid_alltoall>;
using nampi::detail::grid::layout;

// Padding after `tag`.
struct Particle {
  char tag;
  double x;
  int id;
  friend bool operator==(const Particle&, const Particle&) = default;
};

}  // namespace

template <>
struct nampi::struct_type<Particle> : std::true_type {};

namespace {

// How many elements rank s sends to rank d: 0 to 4, varying with both, 0 for some pairs; one
// more from a rank to itself, so that every rank receives something.
int count(int s, int d, int seed) { return (s * 7 + d * 3 + seed) % 5 + (s == d ? 1 : 0); }

// Element i from s to d, as a T (distinct for every (s, d, i)).
template <typename T>
T element(int s, int d, int i) {
  const int code = (s * 1000 + d) * 100 + i;
  if constexpr (std::is_same_v<T, Particle>)
    return Particle{static_cast<char>('a' + (s + d + i) % 26), code + 0.25, -code};
  else if constexpr (std::is_same_v<T, double>)
    return code + 0.5;
  else
    return static_cast<T>(code);
}

template <typename T>
std::vector<T> send_data(int me, int p, int seed) {
  std::vector<T> out;
  for (int d = 0; d < p; ++d)
    for (int i = 0; i < count(me, d, seed); ++i) out.push_back(element<T>(me, d, i));
  return out;
}

std::vector<int> send_counts_of(int me, int p, int seed) {
  std::vector<int> c(static_cast<std::size_t>(p));
  for (int d = 0; d < p; ++d) c[d] = count(me, d, seed);
  return c;
}

// What `me` must receive: from each source in rank order, its elements in order.
template <typename T>
std::vector<T> expected(int me, int p, int seed) {
  std::vector<T> out;
  for (int s = 0; s < p; ++s)
    for (int i = 0; i < count(s, me, seed); ++i) out.push_back(element<T>(s, me, i));
  return out;
}

template <typename T>
void check_against_core(const comm_type& comm, const nampi::plugins::grid_communicator& grid,
                        int seed) {
  const int me = comm.rank(), p = comm.size();
  const std::vector<T> v = send_data<T>(me, p, seed);
  const std::vector<int> c = send_counts_of(me, p, seed);
  const std::vector<T> core = comm.alltoallv(send_buf(v), send_counts(c));
  const std::vector<T> got = grid.alltoallv(send_buf(v), send_counts(c));
  CHECK(got == core);
  CHECK(got == expected<T>(me, p, seed));
}

// Every number of columns that fits p.
std::vector<int> fitting_columns(int p) {
  std::vector<int> out;
  for (int c = 1; c <= p; ++c)
    if (layout::fits(p, c)) out.push_back(c);
  return out;
}

// What is wrong with a layout ("" if nothing): each rank has one place in one row and one
// column, the sizes add up, and row i's rank in column j is a regular one, at place i there.
std::string fault(const layout& g) {
  const int p = g.size;
  std::vector<int> row_members(static_cast<std::size_t>(g.rows)),
      column_members(static_cast<std::size_t>(g.columns));
  for (int r = 0; r < p; ++r) {
    const int i = g.row_of(r), j = g.column_of(r);
    if (i < 0 || i >= g.rows || j < 0 || j >= g.columns) return "no such row or column";
    if (g.in_row(i, g.row_position(r)) != r) return "row place";
    if (g.in_column(j, g.column_position(r)) != r) return "column place";
    if (g.row_position(r) >= g.row_size(i) || g.column_position(r) >= g.column_size(j))
      return "place past the size";
    ++row_members[i];
    ++column_members[j];
  }
  for (int i = 0; i < g.rows; ++i)
    if (row_members[i] != g.row_size(i)) return "row size";
  for (int j = 0; j < g.columns; ++j)
    if (column_members[j] != g.column_size(j)) return "column size";
  for (int i = 0; i < g.rows; ++i)
    for (int j = 0; j < g.columns; ++j) {
      const int m = g.in_row(i, j);
      if (g.extra(m) || g.row_of(m) != i || g.column_of(m) != j) return "forwarding rank";
      if (g.column_position(m) != i) return "forwarding rank's column place";
    }
  return "";
}

}  // namespace

TEST_CASE("grid layout: every row meets every column at a forwarding rank, for any p") {
  for (int p = 1; p <= 300; ++p) {
    const layout def = layout::of(p);
    CAPTURE(p);
    // The default is the square-root grid: about 2 sqrt(p) partners per rank.
    CHECK(def.columns * def.columns <= p);
    CHECK((def.columns + 1) * (def.columns + 1) > p);
    CHECK(def.rows + def.columns <= 2 * std::sqrt(static_cast<double>(p)) + 3);
    for (int columns : fitting_columns(p)) {
      CAPTURE(columns);
      CHECK(fault(layout::of(p, columns)) == "");
    }
  }
  CHECK(layout::fits(5, 4));   // one row of 4 and one rank left over: it joins that row
  CHECK(!layout::fits(7, 5));  // one row of 5, two left over: no second row to join
  CHECK(!layout::fits(3, 4));  // more columns than ranks
  CHECK(fault(layout{7, 5, 1}) == "no such row or column");  // what fits() rules out
}

TEST_CASE("grid alltoallv: the core alltoallv's data, int, double and a struct") {
  comm_type comm;
  const auto grid = comm.make_grid_communicator();
  CHECK(grid.size() == comm.size());
  CHECK(grid.rank() == comm.rank());
  const layout g = layout::of(comm.size());
  CHECK(grid.row_communicator().size() == g.row_size(g.row_of(comm.rank())));
  CHECK(grid.column_communicator().size() == g.column_size(g.column_of(comm.rank())));
  CHECK(grid.row_communicator().rank() == g.row_position(comm.rank()));
  CHECK(grid.column_communicator().rank() == g.column_position(comm.rank()));
  for (int seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    check_against_core<int>(comm, grid, seed);
    check_against_core<double>(comm, grid, seed);
    check_against_core<Particle>(comm, grid, seed);
  }
}

TEST_CASE("grid alltoallv: every grid that fits p (incomplete rows and columns)") {
  comm_type comm;
  for (int columns : fitting_columns(comm.size())) {
    CAPTURE(columns);
    const nampi::plugins::grid_communicator grid(comm, columns);
    CHECK(grid.columns() == columns);
    for (int seed = 0; seed < 3; ++seed) {
      CAPTURE(seed);
      check_against_core<int>(comm, grid, seed);
      check_against_core<Particle>(comm, grid, seed);
    }
  }
  CHECK_THROWS_AS(nampi::plugins::grid_communicator(comm, comm.size() + 1), nampi::usage_error);
}

namespace {

// Each parameter's use on one grid, against the data each rank must receive.
void check_parameters(const comm_type& comm, const nampi::plugins::grid_communicator& grid) {
  const int me = comm.rank(), p = comm.size();
  const std::vector<int> v = send_data<int>(me, p, 1);
  const std::vector<int> c = send_counts_of(me, p, 1);
  std::vector<int> want_counts(static_cast<std::size_t>(p));
  for (int s = 0; s < p; ++s) want_counts[s] = count(s, me, 1);

  SUBCASE("recv_counts_out(): returned after the data") {
    auto [data, counts] = grid.alltoallv(send_buf(v), send_counts(c), recv_counts_out());
    CHECK(data == expected<int>(me, p, 1));
    CHECK(counts == want_counts);
  }
  SUBCASE("recv_counts_out(x): written into the caller's vector, resized") {
    std::vector<int> counts(1, -7);
    const std::vector<int> data =
        grid.alltoallv(send_buf(v), recv_counts_out<nampi::resize_to_fit>(counts), send_counts(c));
    CHECK(data == expected<int>(me, p, 1));
    CHECK(counts == want_counts);
  }
  SUBCASE("recv_buf<resize_to_fit>(x): written, nothing returned") {
    std::vector<int> out(100, -1);
    grid.alltoallv(send_buf(v), send_counts(c), recv_buf<nampi::resize_to_fit>(out));
    CHECK(out == expected<int>(me, p, 1));
  }
  SUBCASE("recv_buf(x) without a policy: large enough is written, too small throws") {
    const std::vector<int> want = expected<int>(me, p, 1);
    std::vector<int> out(want.size() + 3, -1);
    grid.alltoallv(send_buf(v), send_counts(c), recv_buf(out));
    CHECK(std::vector<int>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(want.size())) ==
          want);
    CHECK(out.back() == -1);
    std::vector<int> small(want.size() - 1);  // every rank receives at least one element
    CHECK_THROWS_AS(grid.alltoallv(send_buf(v), send_counts(c), recv_buf(std::span<int>(small))),
                    nampi::usage_error);
  }
  SUBCASE("send_displs: the blocks in reverse rank order, with gaps") {
    std::vector<int> spaced, displs(static_cast<std::size_t>(p));
    for (int d = p - 1; d >= 0; --d) {
      spaced.push_back(-99);  // a gap nobody receives
      displs[d] = static_cast<int>(spaced.size());
      for (int i = 0; i < c[d]; ++i) spaced.push_back(element<int>(me, d, i));
    }
    const std::vector<int> got =
        grid.alltoallv(send_buf(spaced), send_counts(c), send_displs(displs));
    CHECK(got == expected<int>(me, p, 1));
    CHECK(got == comm.alltoallv(send_buf(spaced), send_counts(c), send_displs(displs)));
  }
  SUBCASE("a block outside send_buf is a usage error") {
    std::vector<int> displs(static_cast<std::size_t>(p), 0);
    displs[p - 1] = static_cast<int>(v.size());
    std::vector<int> counts = c;
    counts[p - 1] = 1;
    CHECK_THROWS_AS(grid.alltoallv(send_buf(v), send_counts(counts), send_displs(displs)),
                    nampi::usage_error);
  }
}

}  // namespace

TEST_CASE("grid alltoallv: recv_counts_out, a caller's recv_buf, send_displs with gaps") {
  comm_type comm;
  SUBCASE("the default grid") {
    const auto grid = comm.make_grid_communicator();
    CHECK(grid.two_hops() == (comm.size() >= 16));
    check_parameters(comm, grid);
  }
  SUBCASE("the default shape given: two hops") {
    const nampi::plugins::grid_communicator grid(comm, layout::of(comm.size()).columns);
    CHECK(grid.two_hops());
    check_parameters(comm, grid);
  }
}

TEST_CASE("grid alltoallv: a recv_buf too small on one rank only refuses there, and hangs none") {
  comm_type comm;
  const int me = comm.rank(), p = comm.size();
  for (int columns : {0, layout::of(p).columns}) {
    CAPTURE(columns);
    const auto grid = columns == 0 ? comm.make_grid_communicator()
                                   : nampi::plugins::grid_communicator(comm, columns);
    const std::vector<int> v = send_data<int>(me, p, 2);
    const std::vector<int> c = send_counts_of(me, p, 2);
    const std::vector<int> want = expected<int>(me, p, 2);
    std::vector<int> out(me == 0 ? want.size() - 1 : want.size());
    if (me == 0)
      CHECK_THROWS_AS(grid.alltoallv(send_buf(v), send_counts(c), recv_buf(std::span<int>(out))),
                      nampi::usage_error);
    else
      grid.alltoallv(send_buf(v), send_counts(c), recv_buf(std::span<int>(out)));
    if (me != 0) CHECK(out == want);
    // The grid is still in step: the next call gives every rank its data.
    CHECK(grid.alltoallv(send_buf(v), send_counts(c)) == want);
  }
}

TEST_CASE("grid alltoallv: several calls on one grid, two hops of two collectives each") {
  comm_type comm;
  const int me = comm.rank(), p = comm.size();
  const layout g = layout::of(p);
  const nampi::plugins::grid_communicator direct_or_not = comm.make_grid_communicator();
  const nampi::plugins::grid_communicator grid(comm, g.columns);
  for (const auto* on : {&grid, &direct_or_not}) {
    const int per_call = on->two_hops() ? 2 : 1;
    for (int seed = 0; seed < 4; ++seed) {
      CAPTURE(seed);
      CAPTURE(per_call);
      const std::vector<double> v = send_data<double>(me, p, seed);
      const std::vector<int> c = send_counts_of(me, p, seed);
      nampi_pmpi_reset();
      const std::vector<double> got = on->alltoallv(send_buf(v), send_counts(c));
      const auto calls = nampi_pmpi::snapshot();
      CHECK(got == expected<double>(me, p, seed));
      CHECK(calls.at("MPI_Alltoall") == per_call);
      CHECK(calls.at("MPI_Alltoallv") == per_call);
      CHECK(calls.size() == 2);
    }
  }
  CHECK(grid.two_hops());
  CHECK(direct_or_not.two_hops() == (p >= 16));
  // The rows and columns are the only partners: for p >= 4 both are smaller than p.
  if (p >= 4) {
    CHECK(grid.row_communicator().size() < p);
    CHECK(grid.column_communicator().size() < p);
    CHECK(g.rows + g.columns < p + 1);
  }
  // Zero everywhere: nothing to send, an empty result.
  const std::vector<int> none;
  const std::vector<int> zeros(static_cast<std::size_t>(p), 0);
  for (const auto* on : {&grid, &direct_or_not})
    CHECK(on->alltoallv(send_buf(none), send_counts(zeros)).empty());
}
