// Handles nampi creates once and keeps while MPI runs (derived datatypes,
// user ops); they are all freed before MPI_Finalize: by nampi::Environment, and,
// where the program initializes and finalizes MPI itself, by a delete callback
// of an attribute on MPI_COMM_SELF, which MPI_Finalize runs first, while MPI
// still works (the standard's hook for libraries: MPI-4.1, section 11.2.4).
#pragma once

#include <mpi.h>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/detail/trivial_vector.hpp"

namespace nampi::detail {

NAMPI_OUT_OF_LINE void free_at_finalize();

template <typename Handle>
class HandleRegistry {
 public:
  using free_function = int (*)(Handle*);
  explicit HandleRegistry(free_function free) : free_(free) {}

  void add(Handle handle) {
    free_at_finalize();
    const spin_guard held(lock_);
    handles_.push_back(handle);
  }
  // A handle nampi caches for reuse: free_all() frees it and resets the cache
  // to the null handle (MPI's free function writes it), so that the next use
  // creates it again.
  void add_cached(atomic_cell<Handle>* cache) {
    free_at_finalize();
    const spin_guard held(lock_);
    caches_.push_back(cache);
  }
  void free_all() {
    const spin_guard held(lock_);
    for (Handle& handle : handles_) free_(&handle);
    handles_.clear();
    for (atomic_cell<Handle>* cache : caches_) {
      Handle handle = cache->load();
      free_(&handle);
      cache->store(handle);
    }
    caches_.clear();
  }

 private:
  free_function free_;
  atomic_cell<bool> lock_;  // threads of MPI_THREAD_MULTIPLE may register at once
  trivial_vector<Handle> handles_;
  trivial_vector<atomic_cell<Handle>*> caches_;
};

inline HandleRegistry<MPI_Datatype>& type_registry() {
  static HandleRegistry<MPI_Datatype> registry(&MPI_Type_free);
  return registry;
}

inline HandleRegistry<MPI_Op>& op_registry() {
  static HandleRegistry<MPI_Op> registry(&MPI_Op_free);
  return registry;
}

// Frees the registered handles and nampi's context of MPI_COMM_WORLD while MPI still runs:
// from ~Environment or the attribute's delete callback below. Out of line: one copy serves both.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE void free_before_finalize();
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE void free_before_finalize() {
  type_registry().free_all();
  op_registry().free_all();
  free_world_own_context();
}
#endif

// The attribute's delete callback: MPI_Finalize (or freeing the attribute) calls it.
#if !NAMPI_DEFINE_OUT_OF_LINE
NAMPI_OUT_OF_LINE int free_registered_handles(MPI_Comm, int, void*, void*);
#else
NAMPI_OUT_OF_LINE int free_registered_handles(MPI_Comm, int, void*, void*) {
  free_before_finalize();
  return MPI_SUCCESS;
}
#endif

// Sets the attribute once per program (MPI cannot be initialized twice), when nampi
// registers its first handle.
// (Declared at the top.)
#if NAMPI_DEFINE_OUT_OF_LINE
NAMPI_OUT_OF_LINE void free_at_finalize() {
  static atomic_cell<bool> hooked;
  bool expected = false;
  if (!hooked.compare_exchange(expected, true)) return;
  int keyval = MPI_KEYVAL_INVALID;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &free_registered_handles, &keyval, nullptr) !=
      MPI_SUCCESS)
    return;  // then only nampi::Environment frees them
  MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
}
#endif

}  // namespace nampi::detail
