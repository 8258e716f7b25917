// What nampi's own algorithms (range collectives, plugins) need to know of a datatype they are
// handed as a C handle: its extents and its size.
//
// They are asked of MPI once per datatype. MPI's predefined datatypes are never freed, so
// their handles keep naming the same type, and a table made at the first use keeps their
// facts (found by comparing handles: no MPI call). A derived datatype can be freed and its
// handle reused for another, so its facts are kept on the type itself, as an attribute that
// MPI deletes with it (one MPI_Type_get_attr per call).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

struct datatype_facts {
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  MPI_Count size = 0;

  // Its elements lie densely from offset 0 (a builtin type, a contiguous one): n of them are
  // n * size bytes to copy as they are.
  bool dense() const noexcept {
    return lb == 0 && true_lb == 0 && size == extent && true_extent == extent;
  }
};

// Asks MPI.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE datatype_facts query_datatype_facts(MPI_Datatype type);
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE datatype_facts query_datatype_facts(MPI_Datatype type) {
  datatype_facts f;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &f.lb, &f.extent);
  call_mpi("MPI_Type_get_true_extent", MPI_Type_get_true_extent, type, &f.true_lb, &f.true_extent);
  call_mpi("MPI_Type_size_x", MPI_Type_size_x, type, &f.size);
  return f;
}
#endif

// A handle as a number (MPICH's handles are ints, Open MPI's and the ABI's pointers).
template <typename Handle>
std::uint64_t handle_key(Handle handle) noexcept {
  if constexpr (std::is_pointer_v<Handle>)
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(handle));
  else
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(handle));
}

// Where a handle's entry starts in the predefined datatypes' table (128 slots): the top 7 bits
// of the handle times 2^64 / golden ratio (Fibonacci hashing: one multiplication, and handles
// that differ in any bits, MPICH's numbers or Open MPI's addresses, land apart).
inline std::size_t slot_of(MPI_Datatype type) noexcept {
  return static_cast<std::size_t>((handle_key(type) * 0x9e3779b97f4a7c15ULL) >> 57);
}

// The predefined datatypes' facts: an open-addressing hash table of their handles (a lookup
// is a hash and one or two compares, whichever type it is), filled at the first use (MPI is
// initialized then), thread-safely, once. Names that are aliases of one type (MPI_INT64_T and
// MPI_LONG on some MPIs) share a handle and an entry.
struct predefined_datatype_table {
  static constexpr std::size_t slots = 128;  // more than twice the handles: short probes
  struct entry {
    bool used = false;
    MPI_Datatype type{};
    datatype_facts facts;
  };
  entry entries[slots];

  [[gnu::noinline]] predefined_datatype_table() {
    const MPI_Datatype predefined[] = {MPI_INT,
                                       MPI_DOUBLE,
                                       MPI_LONG,
                                       MPI_BYTE,
                                       MPI_CHAR,
                                       MPI_FLOAT,
                                       MPI_UNSIGNED,
                                       MPI_UNSIGNED_LONG,
                                       MPI_LONG_LONG,
                                       MPI_UNSIGNED_LONG_LONG,
                                       MPI_INT64_T,
                                       MPI_UINT64_T,
                                       MPI_INT32_T,
                                       MPI_UINT32_T,
                                       MPI_SHORT,
                                       MPI_UNSIGNED_SHORT,
                                       MPI_SIGNED_CHAR,
                                       MPI_UNSIGNED_CHAR,
                                       MPI_INT8_T,
                                       MPI_UINT8_T,
                                       MPI_INT16_T,
                                       MPI_UINT16_T,
                                       MPI_WCHAR,
                                       MPI_LONG_DOUBLE,
                                       MPI_CXX_BOOL,
                                       MPI_C_BOOL,
                                       MPI_AINT,
                                       MPI_OFFSET,
                                       MPI_COUNT,
                                       MPI_C_FLOAT_COMPLEX,
                                       MPI_C_DOUBLE_COMPLEX,
                                       MPI_C_LONG_DOUBLE_COMPLEX,
                                       MPI_2INT,
                                       MPI_FLOAT_INT,
                                       MPI_DOUBLE_INT,
                                       MPI_LONG_INT,
                                       MPI_SHORT_INT,
                                       MPI_LONG_DOUBLE_INT};
    for (const MPI_Datatype t : predefined) {
      if (t == MPI_DATATYPE_NULL) continue;
      std::size_t i = slot_of(t);
      while (entries[i].used && entries[i].type != t) i = (i + 1) % slots;
      if (!entries[i].used) entries[i] = {true, t, query_datatype_facts(t)};
    }
  }

  const datatype_facts* find(MPI_Datatype type) const noexcept {
    for (std::size_t i = slot_of(type);; i = (i + 1) % slots) {
      const entry& e = entries[i];
      if (!e.used) return nullptr;
      if (e.type == type) return &e.facts;
    }
  }
};

// The facts of a predefined datatype, or nullptr for any other handle.
inline const datatype_facts* predefined_datatype_facts(MPI_Datatype type) {
  static const predefined_datatype_table known;
  return known.find(type);
}

// A derived datatype's facts, kept on the type as an attribute of nampi's (the keyval made at
// the first use): asked of MPI once per type, then one MPI_Type_get_attr per call instead of
// three queries. MPI deletes the attribute with the type (delete_cached_facts), so a handle
// that comes back for another type has none and is asked again; MPI_Type_dup does not copy it.
inline int delete_cached_facts(MPI_Datatype, int, void* facts, void*) {
  delete static_cast<datatype_facts*>(facts);
  return MPI_SUCCESS;
}
inline int cached_facts_keyval() {
  static const int keyval = [] {
    int made = MPI_KEYVAL_INVALID;
    call_mpi("MPI_Type_create_keyval", MPI_Type_create_keyval, MPI_TYPE_NULL_COPY_FN,
             &delete_cached_facts, &made, nullptr);
    return made;
  }();
  return keyval;
}
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE datatype_facts derived_datatype_facts(MPI_Datatype type);
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE datatype_facts derived_datatype_facts(MPI_Datatype type) {
  const int keyval = cached_facts_keyval();
  // Threads that ask of one type at once: one sets the attribute, the others find it (a
  // second MPI_Type_set_attr would delete the facts another thread is reading).
  static atomic_cell<bool> busy;
  const spin_guard held(busy);
  void* cached = nullptr;
  int found = 0;
  call_mpi("MPI_Type_get_attr", MPI_Type_get_attr, type, keyval, &cached, &found);
  if (found != 0) return *static_cast<const datatype_facts*>(cached);
  const datatype_facts facts = query_datatype_facts(type);
  auto* kept = new datatype_facts(facts);
  if (MPI_Type_set_attr(type, keyval, kept) != MPI_SUCCESS) delete kept;  // asked again next time
  return facts;
}
#endif

// The facts of any datatype: from the table, or from the type's attribute.
inline datatype_facts facts_of(MPI_Datatype type) {
  if (const datatype_facts* known = predefined_datatype_facts(type)) return *known;
  return derived_datatype_facts(type);
}

}  // namespace nampi::detail
