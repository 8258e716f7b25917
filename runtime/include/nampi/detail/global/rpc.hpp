// Routed remote procedure calls between the processes of nampi::universe (nampi/global.hpp):
// the message format, how arguments and results become bytes, and how a handler registered
// with universe::on is called. The routing itself is the universe's (it owns the
// communicators).
//
// A message is one MPI_BYTE message: a fixed header (who sent it, for whom, which call, how
// many hops it may still take, what it is), then the procedure's name, then the payload.
// Arguments are a contiguous range of trivially copyable values (sent as their bytes; the
// handler sees a std::span<const T>); a result is void, a trivially copyable value, a
// std::vector of them, or a std::string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/global/std_parts.hpp"
#include "nampi/detail/global/uid.hpp"
#include "nampi/detail/own_context.hpp"

namespace nampi {

// A call got no reply within its timeout (the process is gone, unreachable, or busy).
class rpc_timeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The remote procedure threw, does not exist there, or the message could not be routed: the
// message says which, with the remote exception's text.
class rpc_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail::rpc {

enum class kind : std::int32_t {
  request = 0,
  reply = 1,
  remote_error = 2,   // the handler threw, or there is none of that name
  undeliverable = 3,  // no route to the target, or its hops ran out
};

struct header {
  std::uint64_t origin = 0;   // the caller's uid
  std::uint64_t target = 0;   // where it goes
  std::uint64_t request = 0;  // the caller's number for the call (replies carry it back)
  std::int32_t ttl = 0;       // hops it may still take
  kind what = kind::request;
  std::uint32_t name_size = 0;
  std::uint32_t payload_size = 0;
};

// Hops a message may take: in the set, to a connected set, through a set's root, and back.
inline constexpr std::int32_t initial_ttl = 8;

// MPI tag of RPC messages on the communicators only nampi sends on: the nampi context of the
// universe's communicator (shared with nampi's other algorithms, which use other tags: see
// own_tags), the duplicates of the intercommunicators it connected, and its links.
inline constexpr int message_tag = own_tags::rpc;

struct message {
  header head;
  std::string name;
  std::vector<std::byte> payload;

  std::vector<std::byte> encode() const {
    header h = head;
    h.name_size = static_cast<std::uint32_t>(name.size());
    h.payload_size = static_cast<std::uint32_t>(payload.size());
    std::vector<std::byte> bytes(sizeof h + name.size() + payload.size());
    std::memcpy(bytes.data(), &h, sizeof h);
    std::memcpy(bytes.data() + sizeof h, name.data(), name.size());
    if (!payload.empty())
      std::memcpy(bytes.data() + sizeof h + name.size(), payload.data(), payload.size());
    return bytes;
  }
  // False where the bytes are no message (too short, sizes that do not add up).
  bool decode(const std::vector<std::byte>& bytes) {
    if (bytes.size() < sizeof head) return false;
    std::memcpy(&head, bytes.data(), sizeof head);
    if (bytes.size() != sizeof head + std::size_t(head.name_size) + head.payload_size) return false;
    const char* text = reinterpret_cast<const char*>(bytes.data() + sizeof head);
    name.assign(text, head.name_size);
    payload.assign(bytes.begin() + static_cast<std::ptrdiff_t>(sizeof head + head.name_size),
                   bytes.end());
    return true;
  }
};

template <typename T>
concept trivial_value = std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>;

// What call() takes as a procedure's arguments: a contiguous range of trivially copyable values.
template <typename T>
inline constexpr bool arguments_range = is_buffer_v<T> && trivial_value<element_t<T>>;

// A contiguous range of trivially copyable values, as bytes.
template <typename Range>
std::vector<std::byte> to_bytes(const Range& values) {
  using T = element_t<Range>;
  static_assert(trivial_value<T>,
                "nampi: universe::call: arguments must be a contiguous range of trivially "
                "copyable values (sent as their bytes)");
  const auto* data = reinterpret_cast<const std::byte*>(std::data(values));
  return std::vector<std::byte>(data, data + std::size(values) * sizeof(T));
}

// A result as bytes, and back.
template <typename R>
std::vector<std::byte> result_to_bytes(const R& value) {
  if constexpr (std::is_same_v<R, std::string>) {
    return to_bytes(std::string_view(value));
  } else if constexpr (trivial_value<R>) {
    std::vector<std::byte> bytes(sizeof(R));
    std::memcpy(bytes.data(), &value, sizeof(R));
    return bytes;
  } else {
    return to_bytes(value);  // std::vector<T>
  }
}

// A std::vector of trivially copyable values.
template <typename R>
inline constexpr bool is_value_vector = false;
template <typename T, typename A>
inline constexpr bool is_value_vector<std::vector<T, A>> = trivial_value<T>;

template <typename R>
inline constexpr bool valid_result =
    std::is_void_v<R> || std::is_same_v<R, std::string> || trivial_value<R> || is_value_vector<R>;

template <typename R>
R result_from_bytes(const std::vector<std::byte>& bytes, const std::string& what) {
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_same_v<R, std::string>) {
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  } else if constexpr (trivial_value<R>) {
    if (bytes.size() != sizeof(R))
      throw rpc_error("nampi: " + what + " returned " + std::to_string(bytes.size()) +
                      " bytes, not the " + std::to_string(sizeof(R)) + " of the result type");
    R value;
    std::memcpy(&value, bytes.data(), sizeof(R));
    return value;
  } else {
    using T = typename R::value_type;
    if (bytes.size() % sizeof(T) != 0)
      throw rpc_error("nampi: " + what + " returned " + std::to_string(bytes.size()) +
                      " bytes, no whole number of elements");
    R values(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
}

// The argument type T of a handler taking std::span<const T> (void: it takes nothing).
template <typename F>
struct handler_traits : handler_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename A>
struct handler_traits<R (C::*)(A) const> {
  using result = R;
  using argument = std::remove_cvref_t<A>;
};
template <typename C, typename R, typename A>
struct handler_traits<R (C::*)(A)> : handler_traits<R (C::*)(A) const> {};
template <typename C, typename R>
struct handler_traits<R (C::*)() const> {
  using result = R;
  using argument = void;
};
template <typename C, typename R>
struct handler_traits<R (C::*)()> : handler_traits<R (C::*)() const> {};
template <typename R, typename A>
struct handler_traits<R (*)(A)> {
  using result = R;
  using argument = std::remove_cvref_t<A>;
};
template <typename R>
struct handler_traits<R (*)()> {
  using result = R;
  using argument = void;
};

template <typename A>
inline constexpr bool is_const_span = false;
template <typename T>
inline constexpr bool is_const_span<std::span<const T>> = trivial_value<T>;

// A handler as the universe stores it: request payload in, reply payload out (throws what
// the procedure throws).
using erased_handler = std::function<std::vector<std::byte>(const std::vector<std::byte>&)>;

template <typename F>
erased_handler erase(F f) {
  using traits = handler_traits<std::decay_t<F>>;
  using A = typename traits::argument;
  using R = typename traits::result;
  static_assert(std::is_void_v<A> || is_const_span<A>,
                "nampi: universe::on: a procedure takes std::span<const T> of trivially copyable "
                "T, or nothing");
  static_assert(valid_result<R>,
                "nampi: universe::on: a procedure returns void, a trivially copyable value, a "
                "std::vector of them, or a std::string");
  return [f = std::move(f)](const std::vector<std::byte>& in) -> std::vector<std::byte> {
    const auto run = [&]() -> decltype(auto) {
      if constexpr (std::is_void_v<A>) {
        return f();
      } else {
        using T = std::remove_const_t<typename A::element_type>;
        if (in.size() % sizeof(T) != 0)
          throw rpc_error("the arguments are no whole number of elements");
        std::vector<T> values(in.size() / sizeof(T));  // aligned for T
        if (!in.empty()) std::memcpy(values.data(), in.data(), in.size());
        return f(std::span<const T>(values));
      }
    };
    if constexpr (std::is_void_v<R>) {
      run();
      return {};
    } else {
      return result_to_bytes<R>(run());
    }
  };
}

}  // namespace detail::rpc
}  // namespace nampi
