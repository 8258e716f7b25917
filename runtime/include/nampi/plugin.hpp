// Plugins: a communicator type with more members.
//
//   nampi::BasicCommunicator<nampi::plugins::reproducible_reduce, nampi::plugins::sparse_alltoall>
//   comm; auto sum = comm.reproducible_reduce(send_buf(local), op(std::plus<>{}));
//
// A plugin is a class template over the communicator type that derives from it (CRTP), whose
// members reach the communicator as `static_cast<const Comm&>(*this)`: the whole
// nampi::Communicator API (rank(), size(), every named call) is there. nampi::Communicator
// itself stays as it is.
//
// nampi's own plugins declare their named parameters and calls in spec/plugins/<name>.yaml:
// the generator writes their factories (in nampi::params, beside the core's), ids, call tags
// and compile-time checks (generated/include/nampi/generated/plugins/<name>.hpp); each
// member runs its algorithm only when its check struct is `ok`, so misuse is one message
// naming the call and the parameter, as for the core calls.
//
// A plugin written outside nampi declares the same things in C++ (README, "Plugins"):
//
//   enum class greeting_params { name };                      // its parameters' ids
//   namespace my::params {
//   inline constexpr nampi::plugin::parameter<greeting_params::name> name{};  // name(x)
//   }
//   struct greet_call : nampi::plugin::call_taking<greeting_params::name, nampi::param_id::root>
//   {}; template <typename Comm> struct greeting {
//     template <typename... Args>
//     std::string greet(Args&&... args) const {
//       if constexpr (!nampi::plugin::accepts<greet_call, Args...>()) {
//         return nampi::plugin::failed_call{};  // accepts() said why: one message, no cascade
//       } else {
//         const Comm& comm = static_cast<const Comm&>(*this);
//         ... nampi::plugin::value<greeting_params::name>(args...) ...
//       }
//     }
//   };
//
// tests/support/plugin_outside_nampi.hpp is such a plugin.
#pragma once

#include <mpi.h>

#include <type_traits>
#include <utility>

#include "nampi/communicator.hpp"
#include "nampi/detail/check_call.hpp"
#include "nampi/generated/keep_plugins.hpp"
#include "nampi/parameter.hpp"

namespace nampi {

template <template <typename> class... Plugins>
class OwnedBasicCommunicator;

// A nampi::Communicator with the members of each plugin (each Plugins<BasicCommunicator>).
// The communicators its calls create (split, dup, ...) have the same plugins:
// OwnedBasicCommunicator<Plugins...> (generated/keep_plugins.hpp).
template <template <typename> class... Plugins>
class BasicCommunicator
    : public generated::keep_plugins<Communicator, OwnedBasicCommunicator<Plugins...>>,
      public Plugins<BasicCommunicator<Plugins...>>... {
  using base = generated::keep_plugins<Communicator, OwnedBasicCommunicator<Plugins...>>;

 public:
  // MPI_COMM_WORLD.
  BasicCommunicator() = default;
  // A view of an MPI communicator (not owned), as nampi::Communicator(comm).
  explicit BasicCommunicator(MPI_Comm comm) : base(comm) {}
  // A view of the same communicator with the plugins' members.
  explicit BasicCommunicator(const Communicator& comm) : base(comm) {}
  // Not of a temporary owner: it would be freed at the end of the statement.
  BasicCommunicator(OwnedCommunicator&&) = delete;
};

// An OwnedCommunicator (it frees the communicator, and adopts one a call creates as
// OwnedCommunicator does) with the members of each plugin: what the calls of a
// BasicCommunicator<Plugins...> that create a communicator return.
template <template <typename> class... Plugins>
class OwnedBasicCommunicator
    : public generated::keep_plugins<OwnedCommunicator, OwnedBasicCommunicator<Plugins...>>,
      public Plugins<OwnedBasicCommunicator<Plugins...>>... {
  using base = generated::keep_plugins<OwnedCommunicator, OwnedBasicCommunicator<Plugins...>>;

 public:
  // MPI_COMM_NULL.
  OwnedBasicCommunicator() = default;
  // Takes ownership of `comm`, as OwnedCommunicator(comm).
  explicit OwnedBasicCommunicator(MPI_Comm comm) : base(comm) {}
};

namespace plugin {

// What a plugin's member needs of its arguments (Args as the member deduced them).

// Whether parameter Id was given.
template <auto Id, typename... Args>
inline constexpr bool given = detail::has_param<Id, std::remove_cvref_t<Args>...>;

// The value given for parameter Id (which must be given: check it, e.g. as required).
template <auto Id, typename... Args>
decltype(auto) value(Args&... args) {
  return (detail::get_param<Id>(args...).value);
}

// The value given for parameter Id, or `fallback` where it was not.
template <auto Id, typename Fallback, typename... Args>
decltype(auto) value_or(Fallback&& fallback, Args&... args) {
  if constexpr (given<Id, Args...>)
    return (detail::get_param<Id>(args...).value);
  else
    return std::forward<Fallback>(fallback);
}

// A named parameter declared outside nampi: `inline constexpr parameter<my_ids::x> x{};`
// makes x(value) a parameter like nampi's own (an lvalue is referenced, an rvalue moved in).
// Id is a value of an enum of the plugin's own.
template <auto Id>
struct parameter {
  static_assert(std::is_enum_v<decltype(Id)>, "nampi: a parameter's id is a value of an enum");
  template <typename T>
  constexpr auto operator()(T&& value) const {
    return detail::named<Id, detail::role::in, T, detail::policy_unspecified>{
        std::forward<T>(value)};
  }
};

// A list of parameter ids (the plugin's or nampi::param_id's).
template <auto... Ids>
using ids = detail::id_list<Ids...>;

// A call declared outside nampi: the parameters it takes (the plugin's ids or nampi::param_id).
// Those it requires are listed too: `struct greet_call : call_taking<...> { using required =
// nampi::plugin::ids<greeting_params::name>; };`.
template <auto... Ids>
struct call_taking : detail::tag_defaults {
  static constexpr bool in_place = false;
  using taken = detail::id_list<Ids...>;
};

// What a member returns when its check failed: converts to anything, so that the caller's
// `auto x = comm.call(...)` adds no error to the check's one message.
using failed_call = detail::failed_call;

// Whether the arguments fit Call: all named, the required ones given, none twice, none Call
// does not take. Else one error naming Call and the parameter (nampi/detail/check_call.hpp), as for
// nampi's own calls.
template <typename Call, typename... Args>
constexpr bool accepts() {
  return detail::check_call<Call, std::remove_cvref_t<Args>...>();
}

}  // namespace plugin
}  // namespace nampi
