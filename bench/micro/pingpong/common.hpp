// Ping-pong between ranks 0 and 1 (other ranks idle): local code shared by both variants.
#pragma once

#include <bench_util.hpp>
#include <cstddef>
#include <vector>

namespace micro {

// Rank 0 starts with a pattern, every other rank with zeros.
inline std::vector<std::byte> make_message(long long bytes, int rank) {
  std::vector<std::byte> message(static_cast<std::size_t>(bytes));
  if (rank == 0) {
    for (std::size_t i = 0; i < message.size(); ++i) message[i] = std::byte(i * 131 % 251);
  }
  return message;
}

// After at least one round trip ranks 0 and 1 hold rank 0's pattern.
inline std::uint64_t check(const std::vector<std::byte>& message, int rank) {
  if (rank <= 1) {
    bench::require(message == make_message(static_cast<long long>(message.size()), 0),
                   "pingpong: wrong message");
  }
  return bench::gather_hash(bench::fnv1a(message));
}

}  // namespace micro
