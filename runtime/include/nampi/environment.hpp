// Environment: MPI_Init on construction, MPI_Finalize on destruction.
#pragma once

#include <mpi.h>

#include "nampi/detail/handle_registry.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/error.hpp"

namespace nampi {

// The thread support a program asks MPI for (MPI_Init_thread's `required`), and what MPI
// provided: only the main thread calls MPI (single, funneled), one thread at a time
// (serialized), or any thread at any time (multiple).
enum class thread_level : int {
  single = MPI_THREAD_SINGLE,
  funneled = MPI_THREAD_FUNNELED,
  serialized = MPI_THREAD_SERIALIZED,
  multiple = MPI_THREAD_MULTIPLE,
};
inline constexpr thread_level thread_single = thread_level::single;
inline constexpr thread_level thread_funneled = thread_level::funneled;
inline constexpr thread_level thread_serialized = thread_level::serialized;
inline constexpr thread_level thread_multiple = thread_level::multiple;

class Environment {
 public:
  Environment() : Environment(nullptr, nullptr) {}
  Environment(int& argc, char**& argv) : Environment(&argc, &argv) {}
  // MPI_Init_thread with `required`; thread_level_provided() says what MPI granted (it may be
  // less: check it where it matters).
  Environment(int& argc, char**& argv, thread_level required)
      : Environment(&argc, &argv, &required) {}
  explicit Environment(thread_level required) : Environment(nullptr, nullptr, &required) {}

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // MPI_Finalize, if the environment called MPI_Init, after freeing nampi's handles.
  NAMPI_OUT_OF_LINE ~Environment();

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

  // The thread support MPI provides (MPI_Query_thread).
  static thread_level thread_level_provided() {
    int level = MPI_THREAD_SINGLE;
    detail::call_mpi("MPI_Query_thread", MPI_Query_thread, &level);
    return static_cast<thread_level>(level);
  }

 private:
  // The unit that makes the environment says whether errors are fatal (NAMPI_ERRORS_ARE_FATAL):
  // the out-of-line constructor may be compiled elsewhere (nampi/detail/out_of_line.hpp).
  Environment(int* argc, char*** argv, const thread_level* required = nullptr)
      : Environment(argc, argv, required, errors_are_fatal) {}
  // MPI_Init or MPI_Init_thread unless MPI runs already, then nampi's own setup.
  NAMPI_OUT_OF_LINE Environment(int* argc, char*** argv, const thread_level* required,
                                bool errors_fatal);

  bool owns_mpi_ = false;
};

#if NAMPI_DEFINE_OUT_OF_LINE
NAMPI_OUT_OF_LINE Environment::Environment(int* argc, char*** argv, const thread_level* required,
                                           bool errors_fatal) {
  if (!initialized()) {
    if (required) {
      int provided = MPI_THREAD_SINGLE;
      detail::call_mpi("MPI_Init_thread", MPI_Init_thread, argc, argv, static_cast<int>(*required),
                       &provided);
    } else {
      detail::call_mpi("MPI_Init", MPI_Init, argc, argv);
    }
    owns_mpi_ = true;
  }
  // Where the program finalizes MPI itself, nampi's datatypes and ops are freed anyway.
  detail::free_at_finalize();
  // Errors must come back as return codes so that they become exceptions
  // (unless the program chose NAMPI_ERRORS_ARE_FATAL, see nampi/error.hpp).
  if (!errors_fatal) {
    detail::call_mpi("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler, MPI_COMM_WORLD,
                     MPI_ERRORS_RETURN);
    detail::call_mpi("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler, MPI_COMM_SELF,
                     MPI_ERRORS_RETURN);
  }
  // nampi's own context of MPI_COMM_WORLD (nampi/detail/own_context.hpp): one MPI_Comm_dup, here
  // where every process is anyway; range collectives and nampi's algorithms send on it.
  detail::make_own_context(MPI_COMM_WORLD);
}

NAMPI_OUT_OF_LINE Environment::~Environment() {
  if (!owns_mpi_ || finalized()) return;
  // Datatypes and ops nampi created must be freed while MPI still runs (MPI_Finalize
  // would, through the attribute free_at_finalize() set; freeing first keeps the order
  // visible).
  detail::free_before_finalize();
  MPI_Finalize();
}
#endif

}  // namespace nampi
