// Handles nampi creates once and keeps while MPI runs (derived datatypes,
// user ops); Environment frees them all before MPI_Finalize.
#pragma once

#include <mpi.h>

#include <vector>

#include "nampi/atomic_cell.hpp"
#include "nampi/std_parts.hpp"

namespace nampi::detail {

template <typename Handle>
class HandleRegistry {
 public:
  using free_function = int (*)(Handle*);
  explicit HandleRegistry(free_function free) : free_(free) {}

  void add(Handle handle) {
    std::lock_guard lock(mutex_);
    handles_.push_back(handle);
  }
  // A handle nampi caches for reuse: free_all() frees it and resets the cache
  // to the null handle (MPI's free function writes it), so that the next use
  // creates it again.
  void add_cached(atomic_cell<Handle>* cache) {
    std::lock_guard lock(mutex_);
    caches_.push_back(cache);
  }
  void free_all() {
    std::lock_guard lock(mutex_);
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
  std::mutex mutex_;
  std::vector<Handle> handles_;
  std::vector<atomic_cell<Handle>*> caches_;
};

inline HandleRegistry<MPI_Datatype>& type_registry() {
  static HandleRegistry<MPI_Datatype> registry(&MPI_Type_free);
  return registry;
}

inline HandleRegistry<MPI_Op>& op_registry() {
  static HandleRegistry<MPI_Op> registry(&MPI_Op_free);
  return registry;
}

}  // namespace nampi::detail
