// Local (non-communication) code of the BFS benchmark, shared by nampi.cpp and mpi.cpp:
// configuration, graph generation (Erdős–Rényi G(n,m) and 2D random geometric graphs), the
// local CSR graph, one BFS level's local work, and the distance checks.
//
// Vertices 0..n-1 are partitioned in contiguous blocks of vertices_per_rank; rank r owns
// [r * vertices_per_rank, (r + 1) * vertices_per_rank). Edges are undirected and stored at the
// owners of both endpoints.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace bfs {

using vid = std::uint32_t;  // global vertex id
inline constexpr int unreached = -1;

// splitmix64: deterministic on every platform (std:: distributions are not).
struct rng {
  std::uint64_t state;
  rng(std::uint64_t seed, std::uint64_t stream)
      : state(seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull) {}
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

struct config {
  std::string graph;      // "er" or "rgg"
  vid n_local;            // vertices per rank
  std::uint64_t m_local;  // edges generated per rank
  std::uint64_t seed;
  int reps;
  int rank;
  int size;

  vid first() const { return n_local * static_cast<vid>(rank); }
  std::uint64_t n_global() const {
    return std::uint64_t{n_local} * static_cast<std::uint64_t>(size);
  }
  int owner(vid v) const { return static_cast<int>(v / n_local); }
  bool is_local(vid v) const { return v - first() < n_local; }
  std::size_t index(vid v) const { return v - first(); }
};

inline config read_config(const bench::args& a, int rank, int size) {
  config c{a.get_string("graph", "er"),
           static_cast<vid>(a.get_int("vertices_per_rank", 1 << 12)),
           static_cast<std::uint64_t>(a.get_int("edges_per_rank", 1 << 15)),
           static_cast<std::uint64_t>(a.get_int("seed", 1)),
           static_cast<int>(a.get_int("reps", 5)),
           rank,
           size};
  bench::require(c.graph == "er" || c.graph == "rgg", "graph must be er or rgg");
  bench::require(a.get_int("vertices_per_rank", 1 << 12) >= 2, "vertices_per_rank must be >= 2");
  bench::require(c.n_global() < (std::uint64_t{1} << 32), "at most 2^32 - 1 vertices in total");
  return c;
}

struct edge {
  vid u, v;  // u is owned by the rank that stores the edge
  friend bool operator<(const edge& a, const edge& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; }
  friend bool operator==(const edge& a, const edge& b) = default;
};

struct point {
  double x, y;
  vid id;
};

// Reorders items by destination rank (stable); counts[r] is the number for rank r.
template <class T, class Owner>
std::vector<T> group_by_owner(const std::vector<T>& items, int size, Owner owner,
                              std::vector<int>& counts) {
  counts.assign(static_cast<std::size_t>(size), 0);
  for (const T& x : items) ++counts[static_cast<std::size_t>(owner(x))];
  std::vector<std::size_t> pos(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), pos.begin(), std::size_t{0});
  std::vector<T> out(items.size());
  for (const T& x : items) out[pos[static_cast<std::size_t>(owner(x))]++] = x;
  return out;
}

// --- Erdős–Rényi G(n, m) ---

// This rank's m_local random edges (no self-loops), each in both directions, grouped by the
// owner of the first endpoint (counts per owner).
inline std::vector<edge> er_edges(const config& c, std::vector<int>& counts) {
  rng r(c.seed, static_cast<std::uint64_t>(c.rank));
  const std::uint64_t n = c.n_global();
  std::vector<edge> edges;
  edges.reserve(2 * c.m_local);
  for (std::uint64_t i = 0; i < c.m_local; ++i) {
    auto u = static_cast<vid>(r.below(n));
    auto v = static_cast<vid>(r.below(n));
    while (v == u) v = static_cast<vid>(r.below(n));
    edges.push_back({u, v});
    edges.push_back({v, u});
  }
  return group_by_owner(edges, c.size, [&](const edge& e) { return c.owner(e.u); }, counts);
}

// --- 2D random geometric graph: rank r owns the strip [r/P, (r+1)/P) x [0, 1) ---

// The radius that gives about m_local edges per rank: m = n^2 pi r^2 / 2 (edges of the torus).
inline double rgg_radius(const config& c) {
  const double n = static_cast<double>(c.n_global());
  const double m = static_cast<double>(c.m_local) * c.size;
  const double radius = std::sqrt(2.0 * m / (3.14159265358979323846 * n * n));
  bench::require(radius * 1.01 < 1.0 / c.size, "rgg: radius wider than a strip; use fewer ranks");
  return radius;
}

inline double strip_left(const config& c, int rank) { return static_cast<double>(rank) / c.size; }

inline std::vector<point> rgg_points(const config& c) {
  rng r(c.seed, static_cast<std::uint64_t>(c.rank));
  std::vector<point> points(c.n_local);
  for (vid i = 0; i < c.n_local; ++i) {
    double x = (c.rank + r.uniform()) / c.size;
    double y = r.uniform();
    points[i] = {x, y, c.first() + i};
  }
  return points;
}

// The points that the neighbouring strip on the left (side 0) or right (side 1) may connect to
// (with a margin, so that both sides see every pair within the radius).
inline std::vector<point> rgg_border(const config& c, const std::vector<point>& points,
                                     double radius, int side) {
  const double margin = radius * 1.01;
  const double left = strip_left(c, c.rank);
  const double right = strip_left(c, c.rank + 1);
  std::vector<point> border;
  for (const point& p : points)
    if (side == 0 ? p.x < left + margin : p.x >= right - margin) border.push_back(p);
  return border;
}

// Edges from the local points to every point (local or from the neighbours' borders) within the
// radius, found with a grid of cells at least as wide as the radius.
inline std::vector<edge> rgg_edges(const config& c, const std::vector<point>& local,
                                   const std::vector<point>& from_left,
                                   const std::vector<point>& from_right, double radius) {
  std::vector<point> all = local;
  all.insert(all.end(), from_left.begin(), from_left.end());
  all.insert(all.end(), from_right.begin(), from_right.end());
  const double x0 = strip_left(c, c.rank) - 1.01 * radius;
  const double width = strip_left(c, c.rank + 1) + 1.01 * radius - x0;
  const int nx = std::max(1, static_cast<int>(width / radius));
  const int ny = std::max(1, static_cast<int>(1.0 / radius));
  auto cell_x = [&](double x) {
    return std::clamp(static_cast<int>((x - x0) / width * nx), 0, nx - 1);
  };
  auto cell_y = [&](double y) { return std::clamp(static_cast<int>(y * ny), 0, ny - 1); };
  std::vector<std::size_t> start(static_cast<std::size_t>(nx) * ny + 1, 0);
  for (const point& p : all) ++start[static_cast<std::size_t>(cell_x(p.x)) * ny + cell_y(p.y) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<point> sorted(all.size());
  std::vector<std::size_t> pos(start.begin(), start.end() - 1);
  for (const point& p : all)
    sorted[pos[static_cast<std::size_t>(cell_x(p.x)) * ny + cell_y(p.y)]++] = p;

  const double r2 = radius * radius;
  std::vector<edge> edges;
  for (const point& p : local) {
    const int cx = cell_x(p.x);
    const int cy = cell_y(p.y);
    for (int x = std::max(0, cx - 1); x <= std::min(nx - 1, cx + 1); ++x)
      for (int y = std::max(0, cy - 1); y <= std::min(ny - 1, cy + 1); ++y) {
        const std::size_t cell = static_cast<std::size_t>(x) * ny + y;
        for (std::size_t k = start[cell]; k < start[cell + 1]; ++k) {
          const point& q = sorted[k];
          const double dx = p.x - q.x;
          const double dy = p.y - q.y;
          if (q.id != p.id && dx * dx + dy * dy <= r2) edges.push_back({p.id, q.id});
        }
      }
  }
  return edges;
}

// --- local graph (CSR) ---

struct graph {
  std::vector<std::size_t> offsets;  // n_local + 1
  std::vector<vid> targets;          // global ids
};

// Builds the CSR of the local vertices from edges whose first endpoint is local (duplicates and
// self-loops dropped).
inline graph build_graph(const config& c, std::vector<edge> edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  graph g;
  g.offsets.assign(std::size_t{c.n_local} + 1, 0);
  g.targets.reserve(edges.size());
  for (const edge& e : edges) {
    bench::require(c.is_local(e.u), "edge stored at a rank that does not own its source");
    if (e.u == e.v) continue;
    ++g.offsets[c.index(e.u) + 1];
    g.targets.push_back(e.v);
  }
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  return g;
}

// --- BFS ---

struct state {
  std::vector<int> dist;  // per local vertex; unreached or the level
  std::vector<vid> frontier;
  std::vector<vid> next;
  std::vector<vid> send;    // remote neighbours of the frontier, grouped by owner
  std::vector<int> counts;  // per owner
  int level = 0;
};

// Resets the state to the start of a BFS from vertex 0.
inline void start(const config& c, state& s) {
  s.dist.assign(c.n_local, unreached);
  s.frontier.clear();
  s.level = 0;
  if (c.is_local(0)) {
    s.dist[c.index(0)] = 0;
    s.frontier.push_back(0);
  }
}

// First half of a level: visits the local neighbours of the frontier at once and groups the
// remote ones by owner into s.send (s.counts per owner).
inline void expand(const config& c, const graph& g, state& s) {
  const int d = s.level + 1;
  s.next.clear();
  s.counts.assign(static_cast<std::size_t>(c.size), 0);
  for (vid u : s.frontier) {
    const std::size_t i = c.index(u);
    for (std::size_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e) {
      const vid v = g.targets[e];
      if (!c.is_local(v)) {
        ++s.counts[static_cast<std::size_t>(c.owner(v))];
      } else if (s.dist[c.index(v)] == unreached) {
        s.dist[c.index(v)] = d;
        s.next.push_back(v);
      }
    }
  }
  std::vector<std::size_t> pos(s.counts.size());
  std::exclusive_scan(s.counts.begin(), s.counts.end(), pos.begin(), std::size_t{0});
  s.send.resize(pos.back() + static_cast<std::size_t>(s.counts.back()));
  for (vid u : s.frontier) {
    const std::size_t i = c.index(u);
    for (std::size_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e)
      if (!c.is_local(g.targets[e]))
        s.send[pos[static_cast<std::size_t>(c.owner(g.targets[e]))]++] = g.targets[e];
  }
}

// Second half of a level: visits the vertices other ranks reached; the next frontier begins.
inline void visit(const config& c, const std::vector<vid>& received, state& s) {
  const int d = s.level + 1;
  for (vid v : received) {
    bench::require(c.is_local(v), "received a vertex this rank does not own");
    if (s.dist[c.index(v)] == unreached) {
      s.dist[c.index(v)] = d;
      s.next.push_back(v);
    }
  }
  std::swap(s.frontier, s.next);
  s.level = d;
}

inline long long frontier_size(const state& s) { return static_cast<long long>(s.frontier.size()); }

// --- checks and checksum ---

// The distinct remote neighbours of the local vertices, sorted (so grouped by owner, as owners
// hold contiguous blocks), with their count per owner.
inline std::vector<vid> remote_neighbours(const config& c, const graph& g,
                                          std::vector<int>& counts) {
  std::vector<vid> ghosts;
  for (vid v : g.targets)
    if (!c.is_local(v)) ghosts.push_back(v);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  counts.assign(static_cast<std::size_t>(c.size), 0);
  for (vid v : ghosts) ++counts[static_cast<std::size_t>(c.owner(v))];
  return ghosts;
}

// The distances of the local vertices other ranks asked for.
inline std::vector<int> lookup(const config& c, const std::vector<vid>& asked,
                               const std::vector<int>& dist) {
  std::vector<int> answers(asked.size());
  for (std::size_t k = 0; k < asked.size(); ++k) {
    bench::require(c.is_local(asked[k]), "asked for a vertex this rank does not own");
    answers[k] = dist[c.index(asked[k])];
  }
  return answers;
}

// The distances are exactly the BFS distances from vertex 0 if: the root has 0; every edge
// joins two unreached vertices or two reached ones whose distances differ by at most one; every
// reached vertex other than the root has a neighbour one level closer.
inline void check(const config& c, const graph& g, const std::vector<int>& dist,
                  const std::vector<vid>& ghosts, const std::vector<int>& ghost_dist) {
  bench::require(ghosts.size() == ghost_dist.size(), "one distance per remote neighbour");
  if (c.is_local(0)) bench::require(dist[c.index(0)] == 0, "the root has distance 0");
  for (vid i = 0; i < c.n_local; ++i) {
    const int du = dist[i];
    bool has_parent = du == 0;
    for (std::size_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e) {
      const vid v = g.targets[e];
      const int dv = c.is_local(v)
                         ? dist[c.index(v)]
                         : ghost_dist[static_cast<std::size_t>(
                               std::lower_bound(ghosts.begin(), ghosts.end(), v) - ghosts.begin())];
      bench::require((du == unreached) == (dv == unreached),
                     "an edge joins a reached and an unreached vertex");
      bench::require(std::abs(du - dv) <= 1,
                     "an edge joins vertices whose distances differ by more than one");
      has_parent = has_parent || dv == du - 1;
    }
    bench::require(du == unreached || has_parent,
                   "a reached vertex has no neighbour one level closer");
    bench::require(du != 0 || c.first() + i == 0, "only the root has distance 0");
  }
}

// {reached vertices, sum of their distances} on this rank.
inline std::array<long long, 2> summary(const std::vector<int>& dist) {
  std::array<long long, 2> s{0, 0};
  for (int d : dist)
    if (d != unreached) {
      s[0] += 1;
      s[1] += d;
    }
  return s;
}

// The checksum printed by rank 0 from the reduced summary: "reached:distance sum" (empty where
// the summary was not reduced to).
template <class Totals>
std::string checksum(const Totals& totals) {
  if (totals.size() < 2) return "";
  return std::to_string(totals[0]) + ":" + std::to_string(totals[1]);
}

}  // namespace bfs
