// Local code of bcast_scaling: the broadcast payload of each size, its check, the
// number of repetitions per size, and the JSON result line with per-size times.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace bcast_scaling {

// A byte pattern of period 251 (prime, so it does not align with any power-of-two size).
inline constexpr std::size_t period = 251;

inline std::byte pattern(std::size_t i, int log) {
  return static_cast<std::byte>(i % period + static_cast<std::size_t>(log));
}

// The root's buffer holds the pattern (one period written, then copied in doubling
// blocks); receivers start with zeros.
inline std::vector<std::byte> payload(int log, bool root) {
  std::vector<std::byte> buf(std::size_t{1} << log);
  if (!root) return buf;
  for (std::size_t i = 0; i < std::min(period, buf.size()); ++i) buf[i] = pattern(i, log);
  for (std::size_t done = period; done < buf.size(); done *= 2)
    std::memcpy(buf.data() + done, buf.data(), std::min(done, buf.size() - done));
  return buf;
}

// Checks about 4096 bytes spread over the buffer, including the last one, and then
// clears the buffer on receivers so that the next broadcast is checked afresh.
inline bool check_and_clear(std::vector<std::byte>& buf, int log, bool root) {
  const std::size_t stride = std::max<std::size_t>(1, buf.size() / 4096);
  bool ok = buf[buf.size() - 1] == pattern(buf.size() - 1, log);
  for (std::size_t i = 0; i < buf.size(); i += stride) ok = ok && buf[i] == pattern(i, log);
  if (!root) std::fill(buf.begin(), buf.end(), std::byte{0});
  return ok;
}

// Fewer repetitions for large messages: `reps` up to 256 KiB, then halved per
// doubling of the size, but at least 3.
inline int reps_for(int log, int reps) {
  return std::max(3, log <= 18 ? reps : reps >> (log - 18));
}

// Times per message size, in seconds, keyed by the size in bytes.
struct times {
  std::map<long long, double> per_size;
  void add(int log, double seconds) { per_size[1LL << log] = seconds; }
  double total() const {
    double sum = 0.0;
    for (const auto& [bytes, seconds] : per_size) sum += seconds;
    return sum;
  }
  std::string json() const {
    std::string text = "{";
    for (const auto& [bytes, seconds] : per_size) {
      char item[64];
      std::snprintf(item, sizeof item, "%s\"%lld\": %.9g", text.size() > 1 ? ", " : "", bytes,
                    seconds);
      text += item;
    }
    return text + "}";
  }
};

// The one result line (rank 0): "seconds" sums the per-size medians with the count
// given; the same with the count broadcast first ("inferred") is reported alongside.
inline void report(const char* variant, int ranks, const times& given, const times& inferred,
                   std::uint64_t checksum) {
  std::printf(
      "{\"app\": \"bcast_scaling\", \"variant\": \"%s\", \"ranks\": %d, \"seconds\": %.9g, "
      "\"checksum\": \"%016llx\", \"per_size\": %s, \"seconds_inferred\": %.9g, "
      "\"per_size_inferred\": %s}\n",
      variant, ranks, given.total(), static_cast<unsigned long long>(checksum),
      given.json().c_str(), inferred.total(), inferred.json().c_str());
  std::fflush(stdout);
}

}  // namespace bcast_scaling
