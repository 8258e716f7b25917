// Error policy of nampi, in one place: MPI failures become exceptions, usage
// errors that can only be seen at run time become assertion failures.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

// MPI errors become nampi::mpi_error exceptions: nampi installs MPI_ERRORS_RETURN
// on MPI_COMM_WORLD and MPI_COMM_SELF and checks every return code (two
// instructions per call). Define NAMPI_ERRORS_ARE_FATAL to 1 (the same in every
// translation unit) to keep MPI's default handler instead, as plain MPI
// programs do: an error aborts the program with MPI's message, and the check
// goes away.
#ifndef NAMPI_ERRORS_ARE_FATAL
#define NAMPI_ERRORS_ARE_FATAL 0
#endif

namespace nampi {

inline constexpr bool errors_are_fatal = NAMPI_ERRORS_ARE_FATAL != 0;

// An MPI call returned something other than MPI_SUCCESS.
class mpi_error : public std::runtime_error {
 public:
  mpi_error(const char* call, int code)
      : std::runtime_error(std::string(call) + ": " + error_string(code)),
        call_(call),
        code_(code),
        class_(error_class(code)) {}

  int code() const noexcept { return code_; }
  int error_class() const noexcept { return class_; }
  const char* call() const noexcept { return call_; }

  static std::string error_string(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
      return "unknown MPI error " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
  }

 private:
  static int error_class(int code) {
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
  }

  const char* call_;
  int code_;
  int class_;
};

// A run-time precondition of the C++ API was violated (e.g. a no_resize buffer
// that is too small). Thrown rather than aborting so that tests can observe it.
class usage_error : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {

// Calls an MPI function and throws mpi_error unless it succeeded. With
// NAMPI_ERRORS_ARE_FATAL, MPI's own handler aborts on an error before the call
// returns, so there is no code to check.
template <typename Function, typename... Args>
inline void call_mpi(const char* name, Function function, Args... args) {
  if constexpr (errors_are_fatal) {
    (void)name;
    function(args...);
  } else {
    const int code = function(args...);
    if (code != MPI_SUCCESS) [[unlikely]]
      throw mpi_error(name, code);
  }
}

}  // namespace detail
}  // namespace nampi

// Run-time usage checks (e.g. a no_resize buffer that is too small) follow
// `assert`: on in debug builds, off with NDEBUG, so that release builds cost
// exactly what hand-written MPI costs. Define NAMPI_ASSERTION_LEVEL (0 or 1)
// to choose either way.
#ifndef NAMPI_ASSERTION_LEVEL
#ifdef NDEBUG
#define NAMPI_ASSERTION_LEVEL 0
#else
#define NAMPI_ASSERTION_LEVEL 1
#endif
#endif

#if NAMPI_ASSERTION_LEVEL > 0
#define NAMPI_ASSERT(condition, message)                              \
  do {                                                                \
    if (!(condition)) [[unlikely]]                                    \
      throw ::nampi::usage_error(std::string("nampi: ") + (message)); \
  } while (false)
#else
#define NAMPI_ASSERT(condition, message) \
  do {                                   \
  } while (false)
#endif
