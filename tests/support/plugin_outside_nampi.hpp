// A plugin written outside nampi (tests/runtime/test_plugin_outside_nampi.cpp and the
// compile-fail cases plugin_outside_*): comm.greet(name(s), root(r)) returns "hello from <s>
// of <size>" with the root's s, at every rank. Only nampi/plugin.hpp's documented pieces.
#pragma once

#include <nampi/plugin.hpp>
#include <string>
#include <vector>

namespace greeting {

// The plugin's parameter ids.
enum class ids { name };

namespace params {
// name(s): the text this rank would send.
inline constexpr nampi::plugin::parameter<ids::name> name{};
}  // namespace params

// greet takes the plugin's `name`, which it requires, and nampi's `root`.
struct greet_call : nampi::plugin::call_taking<ids::name, nampi::param_id::root> {
  using required = nampi::plugin::ids<ids::name>;
};

template <typename Comm>
struct plugin {
  template <typename... Args>
  std::string greet(Args&&... args) const {
    // Misuse is one message: the check's own, and no body that would add more.
    if constexpr (!nampi::plugin::accepts<greet_call, Args...>())
      return nampi::plugin::failed_call{};
    else
      return greet_checked(args...);
  }

 private:
  template <typename... Args>
  std::string greet_checked(Args&... args) const {
    using namespace nampi::params;
    const Comm& comm = static_cast<const Comm&>(*this);
    const int from = nampi::plugin::value_or<nampi::param_id::root>(0, args...);
    std::string text = nampi::plugin::value<ids::name>(args...);
    // The root's text, by nampi's own calls on the same communicator.
    const int length = comm.bcast_single(send_buf(static_cast<int>(text.size())), root(from));
    text.resize(static_cast<std::size_t>(length));
    comm.bcast(send_recv_buf(text), root(from));
    return "hello from " + text + " of " + std::to_string(comm.size());
  }
};

}  // namespace greeting
