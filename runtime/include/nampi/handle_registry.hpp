// Handles nampi creates once and keeps while MPI runs (derived datatypes,
// user ops); Environment frees them all before MPI_Finalize.
#pragma once

#include <mpi.h>

#include <mutex>
#include <vector>

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
  void free_all() {
    std::lock_guard lock(mutex_);
    for (Handle& handle : handles_) free_(&handle);
    handles_.clear();
  }

 private:
  free_function free_;
  std::mutex mutex_;
  std::vector<Handle> handles_;
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
