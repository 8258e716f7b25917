// Shared helpers for the nampi benchmarks: argument parsing, timing, checksums and the
// JSON result line. Plain MPI only (no nampi), so the nampi and MPI variants pay the same.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace bench {

inline int world_rank() {
  int rank = 0;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Prints `message` (with the rank) to stderr and aborts all ranks if `ok` is false.
inline void require(bool ok, std::string_view message) {
  if (ok) return;
  std::fprintf(stderr, "bench: rank %d: check failed: %.*s\n", world_rank(),
               static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 3);
  std::exit(3);
}

// `key=value` command-line arguments: `bench::args a(argc, argv); a.get_int("n", 1000)`.
class args {
 public:
  args(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string_view arg(argv[i]);
      auto eq = arg.find('=');
      require(eq != std::string_view::npos && eq > 0,
              "argument '" + std::string(arg) + "' is not key=value");
      values_[std::string(arg.substr(0, eq))] = std::string(arg.substr(eq + 1));
    }
  }

  bool has(const std::string& key) const { return values_.count(key) != 0; }

  std::string get_string(const std::string& key, std::string fallback) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }

  long long get_int(const std::string& key, long long fallback) const {
    auto it = values_.find(key);
    if (it == values_.end()) return fallback;
    char* end = nullptr;
    long long value = std::strtoll(it->second.c_str(), &end, 0);
    require(end != it->second.c_str() && *end == '\0',
            "argument " + key + "=" + it->second + " is not an integer");
    return value;
  }

  double get_double(const std::string& key, double fallback) const {
    auto it = values_.find(key);
    if (it == values_.end()) return fallback;
    char* end = nullptr;
    double value = std::strtod(it->second.c_str(), &end);
    require(end != it->second.c_str() && *end == '\0',
            "argument " + key + "=" + it->second + " is not a number");
    return value;
  }

 private:
  std::map<std::string, std::string> values_;
};

inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Runs fn() `reps` times, each after an MPI_Barrier on `comm`, and times it with MPI_Wtime.
// Each repetition's time is the maximum over ranks (MPI_Reduce MAX to rank 0); returns the
// median over repetitions on rank 0 (other ranks get the median of their own times).
// Never inlined: bench/run.py counts callgrind instructions inside bench::measure only.
template <class F>
[[gnu::noinline]] double measure(int reps, F&& fn, MPI_Comm comm = MPI_COMM_WORLD) {
  require(reps >= 1, "measure: reps must be >= 1");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> local(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm);
    double start = MPI_Wtime();
    fn();
    local[static_cast<std::size_t>(r)] = MPI_Wtime() - start;
  }
  std::vector<double> max(local.size());
  MPI_Reduce(local.data(), max.data(), reps, MPI_DOUBLE, MPI_MAX, 0, comm);
  return median(rank == 0 ? max : local);
}

// 64-bit FNV-1a over raw bytes; chain calls by passing the previous hash as `h`.
inline constexpr std::uint64_t fnv_offset = 14695981039346656037ull;

inline std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = fnv_offset) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// Hash of the elements of a contiguous range (std::vector, std::array, std::span, ...).
template <class R>
  requires std::ranges::contiguous_range<R> &&
           std::is_trivially_copyable_v<std::ranges::range_value_t<R>>
std::uint64_t fnv1a(const R& range, std::uint64_t h = fnv_offset) {
  return fnv1a(std::ranges::data(range),
               std::ranges::size(range) * sizeof(std::ranges::range_value_t<R>), h);
}

// Hash of one trivially copyable value.
template <class T>
  requires(!std::ranges::range<T> && std::is_trivially_copyable_v<T>)
std::uint64_t fnv1a(const T& value, std::uint64_t h = fnv_offset) {
  return fnv1a(&value, sizeof(T), h);
}

// Combines one hash per rank into one on rank 0 (in rank order); other ranks get 0.
inline std::uint64_t gather_hash(std::uint64_t local, MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::uint64_t> all(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&local, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, 0, comm);
  return rank == 0 ? fnv1a(all) : 0;
}

inline std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

namespace detail {
inline std::string checksum_text(std::string_view s) { return std::string(s); }
inline std::string checksum_text(const char* s) { return s; }
inline std::string checksum_text(const std::string& s) { return s; }
template <std::integral T>
std::string checksum_text(T value) {
  return std::to_string(value);
}
template <std::floating_point T>
std::string checksum_text(T value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", static_cast<double>(value));
  return text;
}
}  // namespace detail

// Prints the one JSON result line on rank 0 of MPI_COMM_WORLD:
// {"app": "...", "variant": "nampi"|"mpi", "ranks": P, "seconds": S, "checksum": "..."}
// `checksum` may be a string, an integer (printed in decimal) or a floating-point value.
template <class C>
void report(std::string_view app, std::string_view variant, int ranks, double seconds,
            const C& checksum) {
  if (world_rank() != 0) return;
  std::string sum = detail::checksum_text(checksum);
  std::printf(
      "{\"app\": \"%.*s\", \"variant\": \"%.*s\", \"ranks\": %d, \"seconds\": %.9g, "
      "\"checksum\": \"%s\"}\n",
      static_cast<int>(app.size()), app.data(), static_cast<int>(variant.size()), variant.data(),
      ranks, seconds, sum.c_str());
  std::fflush(stdout);
}

}  // namespace bench
