// nampi::uid: a process's 64-bit id among all of a user's jobs on this machine: its set's
// id (nampi/detail/global/set_directory.hpp) in the upper 32 bits, its rank in the set in the
// lower 32. Prints as the URI nampi://<set id>/<rank>; nampi::universe::name_of(uid) gives
// "<set name>:<rank>".
#pragma once

#include <compare>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace nampi {

class uid {
 public:
  constexpr uid() = default;
  constexpr uid(std::uint32_t set_id, int rank)
      : value_(static_cast<std::uint64_t>(set_id) << 32 | static_cast<std::uint32_t>(rank)) {}
  constexpr explicit uid(std::uint64_t value) : value_(value) {}

  constexpr std::uint64_t value() const noexcept { return value_; }
  constexpr std::uint32_t set_id() const noexcept {
    return static_cast<std::uint32_t>(value_ >> 32);
  }
  constexpr int rank() const noexcept { return static_cast<int>(value_ & 0xffffffffu); }

  // nampi://<set id>/<rank>
  std::string uri() const {
    return "nampi://" + std::to_string(set_id()) + "/" + std::to_string(rank());
  }

  friend constexpr auto operator<=>(const uid&, const uid&) = default;
  // A template, so that only a unit that prints one needs <ostream> (it costs every unit that
  // includes nampi/global.hpp 0.03 s otherwise).
  template <typename Char, typename Traits>
  friend std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& out,
                                                      const uid& id) {
    return out << id.uri();
  }

 private:
  std::uint64_t value_ = 0;
};

}  // namespace nampi
