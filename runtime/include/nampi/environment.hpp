// Environment: MPI_Init on construction, MPI_Finalize on destruction.
#pragma once

#include <mpi.h>

#include "nampi/error.hpp"
#include "nampi/ops.hpp"
#include "nampi/types.hpp"

namespace nampi {

class Environment {
 public:
  Environment() : Environment(nullptr, nullptr) {}
  Environment(int& argc, char**& argv) : Environment(&argc, &argv) {}

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  ~Environment() {
    if (!owns_mpi_ || finalized()) return;
    // Datatypes and ops nampi created must be freed while MPI still runs.
    detail::type_registry().free_all();
    detail::op_registry().free_all();
    MPI_Finalize();
  }

  static bool initialized() {
    int flag = 0;
    MPI_Initialized(&flag);
    return flag != 0;
  }
  static bool finalized() {
    int flag = 0;
    MPI_Finalized(&flag);
    return flag != 0;
  }

 private:
  Environment(int* argc, char*** argv) {
    if (!initialized()) {
      detail::call_mpi("MPI_Init", MPI_Init, argc, argv);
      owns_mpi_ = true;
    }
    // Errors must come back as return codes so that they become exceptions
    // (unless the program chose NAMPI_ERRORS_ARE_FATAL, see nampi/error.hpp).
    if constexpr (!errors_are_fatal) {
      detail::call_mpi("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler, MPI_COMM_WORLD,
                       MPI_ERRORS_RETURN);
      detail::call_mpi("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler, MPI_COMM_SELF,
                       MPI_ERRORS_RETURN);
    }
  }

  bool owns_mpi_ = false;
};

}  // namespace nampi
