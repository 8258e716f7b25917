// splitmix64's step (Steele, Lea and Flood's SplitMix): advances `state` by the golden-ratio
// increment and returns a well-mixed 64-bit value of it. nampi's hashes and random ids use it:
// the range collectives' tag slots, janus_sort's sample positions, the global layer's set ids.
#pragma once

#include <cstdint>

namespace nampi::detail {

constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace nampi::detail
