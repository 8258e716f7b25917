// Struct datatypes: an aggregate that opts in with nampi::struct_type, and
// std::pair and std::tuple, travel as MPI_Type_create_struct types with one
// block per member (its own datatype, at its offset measured on a real
// object), resized to sizeof(T) so that arrays of T step over the padding.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nampi/detail/handle_registry.hpp"
#include "nampi/detail/reflection.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"

namespace nampi {

// Opt in, `template <> struct nampi::struct_type<Particle> : std::true_type {};`,
// to send the aggregate Particle member by member (heterogeneous systems,
// reductions on members) instead of as contiguous bytes.
template <typename T>
struct struct_type : std::false_type {};

template <typename T>
MPI_Datatype mpi_datatype();

namespace detail {

// One block of a struct type: `count` elements of `type` at byte `offset`.
struct member_block {
  int count;
  MPI_Aint offset;
  MPI_Datatype type;
};

// A member's block. A C array member is one block of its (innermost) elements.
template <typename Member>
member_block block_of(const Member& member, const std::byte* base) {
  using element = std::remove_all_extents_t<Member>;
  const auto offset = reinterpret_cast<const std::byte*>(std::addressof(member)) - base;
  return {static_cast<int>(sizeof(Member) / sizeof(element)), static_cast<MPI_Aint>(offset),
          mpi_datatype<element>()};
}

// Creates, commits and registers the struct type of a T whose members are the
// elements of `members` (a tuple of references into `object`). The registry
// frees it before MPI_Finalize.
template <typename T, typename Members>
MPI_Datatype commit_struct(const T& object, const Members& members) {
  const auto* base = reinterpret_cast<const std::byte*>(std::addressof(object));
  constexpr std::size_t n = std::tuple_size_v<Members>;
  const std::array<member_block, n> blocks = std::apply(
      [base](const auto&... member) {
        return std::array<member_block, n>{block_of(member, base)...};
      },
      members);
  std::array<int, n> counts{};
  std::array<MPI_Aint, n> offsets{};
  std::array<MPI_Datatype, n> types{};
  for (std::size_t i = 0; i < n; ++i) {
    counts[i] = blocks[i].count;
    offsets[i] = blocks[i].offset;
    types[i] = blocks[i].type;
  }
  MPI_Datatype packed = MPI_DATATYPE_NULL;
  call_mpi("MPI_Type_create_struct", MPI_Type_create_struct, static_cast<int>(n), counts.data(),
           offsets.data(), types.data(), &packed);
  // The extent must be sizeof(T), trailing padding included, for arrays of T.
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const int resized = MPI_Type_create_resized(packed, 0, static_cast<MPI_Aint>(sizeof(T)), &type);
  MPI_Type_free(&packed);  // the resized type keeps what it needs
  if (resized != MPI_SUCCESS) throw mpi_error("MPI_Type_create_resized", resized);
  call_mpi("MPI_Type_commit", MPI_Type_commit, &type);
  type_registry().add(type);
  return type;
}

template <typename T>
inline constexpr bool is_pair = false;
template <typename A, typename B>
inline constexpr bool is_pair<std::pair<A, B>> = true;

template <typename T>
inline constexpr bool is_tuple = false;
template <typename... E>
inline constexpr bool is_tuple<std::tuple<E...>> = true;

// The members of a reflected aggregate, a pair or a tuple, as references.
template <typename T>
auto members_of(T& object) {
  if constexpr (is_pair<T>)
    return std::tie(object.first, object.second);
  else if constexpr (is_tuple<T>)
    return std::apply([](auto&... element) { return std::tie(element...); }, object);
  else
    return tie_members<member_count<T>>(object);
}

// Whether struct_type<T> can reflect T; false with one static_assert message
// naming what is wrong (a check before any use, so that misuse gives one error).
template <typename T>
constexpr bool check_reflectable() {
  if constexpr (!std::is_aggregate_v<T> || std::is_polymorphic_v<T>) {
    static_assert(std::is_aggregate_v<T> && !std::is_polymorphic_v<T>,
                  "nampi: struct_type<T> needs an aggregate T (public members, no constructors, "
                  "no virtual functions); use nampi::type_traits for other types");
    return false;
  } else if constexpr (member_count<T> > max_reflected_members) {
    static_assert(member_count<T> <= max_reflected_members,
                  "nampi: struct_type<T> reflects at most 32 members; use nampi::type_traits for "
                  "larger types");
    return false;
  } else if constexpr (member_count<T> == 0) {
    static_assert(member_count<T> != 0, "nampi: struct_type<T> needs at least one member");
    return false;
  } else if constexpr (!std::is_default_constructible_v<T>) {
    static_assert(std::is_default_constructible_v<T>,
                  "nampi: struct_type<T> measures member offsets on a T{}: T must be "
                  "default-constructible");
    return false;
  } else {
    return true;
  }
}

// The committed struct type of T (reflected aggregate, pair or tuple).
template <typename T>
MPI_Datatype struct_datatype() {
  static const MPI_Datatype type = [] {
    T sample{};  // offsets are measured on a real object
    return commit_struct(sample, members_of(sample));
  }();
  return type;
}

// As struct_datatype, for an aggregate that opted in with struct_type.
template <typename T>
MPI_Datatype reflected_datatype() {
  if constexpr (check_reflectable<T>())
    return struct_datatype<T>();
  else
    return MPI_DATATYPE_NULL;  // check_reflectable reported the error
}

}  // namespace detail
}  // namespace nampi
