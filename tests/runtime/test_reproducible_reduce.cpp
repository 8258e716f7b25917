// The reproducible_reduce plugin: 10^5 doubles from 1e-10 to 1e10 in magnitude, both signs,
// distributed over the ranks in several ways (even, all on one rank, skewed, with empty
// ranks): the result at every rank is bitwise the sequential evaluation of the same tree,
// whatever the distribution; a non-commutative op is applied in sequence order; exactly one
// MPI_Allgather and one MPI_Allgatherv are issued.
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <nampi/nampi.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <vector>

using namespace nampi::params;

namespace {

using comm_type = nampi::BasicCommunicator<nampi::plugins::reproducible_reduce>;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Element i of the global sequence: a sign, a mantissa and a power of ten in [-10, 10].
double element(std::size_t i) {
  const std::uint64_t h = mix(i);
  const double mantissa = 1.0 + static_cast<double>(h % 1000003) / 1000003.0;
  const int exponent = static_cast<int>((h >> 20) % 21) - 10;
  return ((h >> 40) & 1 ? -1.0 : 1.0) * mantissa * std::pow(10.0, exponent);
}

// The tree evaluated in one process, level by level: pairs (2j, 2j + 1) of the level below,
// a last one alone carried up.
template <typename T, typename Op>
T sequential_tree(std::vector<T> level, Op op) {
  while (level.size() > 1) {
    std::vector<T> up;
    for (std::size_t j = 0; j < level.size(); j += 2)
      up.push_back(j + 1 < level.size() ? op(level[j], level[j + 1]) : level[j]);
    level = std::move(up);
  }
  return level.front();
}

bool same_bits(double a, double b) {
  std::uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

// How many of n elements rank r holds: the distributions.
enum class spread { even, all_on_last, skewed, gaps };
std::size_t share(spread s, std::size_t n, int r, int p) {
  switch (s) {
    case spread::even:
      return n / p + (static_cast<std::size_t>(r) < n % p ? 1 : 0);
    case spread::all_on_last:
      return r == p - 1 ? n : 0;
    case spread::skewed: {  // rank r gets weight (r + 1)^2
      std::size_t total = 0, before = 0;
      for (int q = 0; q < p; ++q) total += static_cast<std::size_t>((q + 1) * (q + 1));
      for (int q = 0; q < r; ++q) before += static_cast<std::size_t>((q + 1) * (q + 1));
      const std::size_t from = n * before / total;
      const std::size_t to = r == p - 1 ? n : n * (before + (r + 1) * (r + 1)) / total;
      return to - from;
    }
    case spread::gaps:  // the even ranks hold none
      if (p == 1) return n;
      return r % 2 == 1 ? n / (p / 2) + (r == p - 1 || r == p - 2 ? n % (p / 2) : 0) : 0;
  }
  return 0;
}

std::vector<double> part(spread s, std::size_t n, int r, int p) {
  std::size_t first = 0;
  for (int q = 0; q < r; ++q) first += share(s, n, q, p);
  std::vector<double> out(share(s, n, r, p));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = element(first + i);
  return out;
}

// An affine map x -> a x + b modulo a prime: composition is associative, not commutative.
struct affine {
  std::int64_t a, b;
};
constexpr std::int64_t prime = 1000003;
affine then(affine f, affine g) {  // first f, then g
  return {(g.a * f.a) % prime, (g.a * f.b + g.b) % prime};
}

}  // namespace

TEST_CASE("reproducible_reduce: bitwise the sequential tree for every distribution") {
  comm_type comm;
  const int p = comm.size();
  const std::size_t n = 100000;
  std::vector<double> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = element(i);
  const double expected = sequential_tree(all, std::plus<>{});
  for (spread s : {spread::even, spread::all_on_last, spread::skewed, spread::gaps}) {
    CAPTURE(static_cast<int>(s));
    const std::vector<double> local = part(s, n, comm.rank(), p);
    nampi_pmpi_reset();
    const double sum = comm.reproducible_reduce(send_buf(local), op(std::plus<>{}));
    const auto calls = nampi_pmpi::snapshot();
    CHECK(same_bits(sum, expected));
    CHECK(calls.at("MPI_Allgather") == 1);
    CHECK(calls.at("MPI_Allgatherv") == 1);
    CHECK(calls.size() == 2);
  }
  // The sum in sequence order differs in its last bits: the tree, not luck, makes it equal.
  double in_order = 0;
  for (double x : all) in_order += x;
  CHECK(!same_bits(in_order, expected));
}

TEST_CASE("reproducible_reduce: a non-commutative op in sequence order; small sequences") {
  comm_type comm;
  const int p = comm.size();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                        std::size_t{64}, std::size_t{1000}}) {
    CAPTURE(n);
    std::vector<affine> all(n);
    for (std::size_t i = 0; i < n; ++i)
      all[i] = {static_cast<std::int64_t>(mix(i) % (prime - 1)) + 1,
                static_cast<std::int64_t>(mix(i + n) % prime)};
    affine in_order = all[0];
    for (std::size_t i = 1; i < n; ++i) in_order = then(in_order, all[i]);
    for (spread s : {spread::even, spread::skewed, spread::all_on_last}) {
      std::size_t first = 0;
      for (int q = 0; q < comm.rank(); ++q) first += share(s, n, q, p);
      const std::vector<affine> local(
          all.begin() + static_cast<std::ptrdiff_t>(first),
          all.begin() + static_cast<std::ptrdiff_t>(first + share(s, n, comm.rank(), p)));
      const affine got = comm.reproducible_reduce(send_buf(local), op(then));
      CHECK(got.a == in_order.a);
      CHECK(got.b == in_order.b);
    }
  }
}

TEST_CASE("reproducible_reduce: an op marked commutative, typed and generic ops") {
  comm_type comm;
  const int p = comm.size();
  const std::size_t n = 1000;
  std::vector<double> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = element(i);
  const double expected = sequential_tree(all, std::plus<>{});
  const std::vector<double> local = part(spread::skewed, n, comm.rank(), p);
  // The README's mark (what KaMPIng's users write): the tree fixes the order anyway.
  const auto add = [](double a, double b) { return a + b; };
  CHECK(
      same_bits(comm.reproducible_reduce(send_buf(local), op(add, nampi::commutative)), expected));
  CHECK(
      same_bits(comm.reproducible_reduce(send_buf(local), op(nampi::commutative(add))), expected));
  CHECK(same_bits(comm.reproducible_reduce(
                      send_buf(local), op([](const double& a, const double& b) { return a + b; })),
                  expected));
  CHECK(
      same_bits(comm.reproducible_reduce(send_buf(local), op([](auto a, auto b) { return a + b; })),
                expected));
}

TEST_CASE("reproducible_reduce: an empty global sequence is a usage error") {
  comm_type comm;
  const std::vector<double> none;
  CHECK_THROWS_AS(comm.reproducible_reduce(send_buf(none), op(std::plus<>{})), nampi::usage_error);
}
