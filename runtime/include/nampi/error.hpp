// Error policy of nampi, in one place: MPI failures become exceptions, usage
// errors that can only be seen at run time become assertion failures.
#pragma once

#include <mpi.h>
// Open MPI declares its extensions (ULFM's MPIX_ERR_PROC_FAILED, ...) here; MPICH in mpi.h.
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "nampi/detail/out_of_line.hpp"

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

namespace detail {

// The text of an error message, formatted printf-style into a fixed buffer:
// messages name a call and parameters and give a few numbers, so they fit,
// and formatting them costs each program one libc call instead of the inline
// std::string code that concatenation compiles into every unit (issue 14).
struct message_text {
  char text[MPI_MAX_ERROR_STRING + 512];
};
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::cold]] NAMPI_OUT_OF_LINE message_text vformat_message(const char* format, std::va_list args);
#else
[[gnu::cold]] NAMPI_OUT_OF_LINE message_text vformat_message(const char* format,
                                                             std::va_list args) {
  message_text m;
  std::vsnprintf(m.text, sizeof m.text, format, args);
  return m;
}
#endif
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::cold,
  gnu::format(printf, 1, 2)]] NAMPI_OUT_OF_LINE message_text format_message(const char* format,
                                                                            ...);
#else
[[gnu::cold,
  gnu::format(printf, 1, 2)]] NAMPI_OUT_OF_LINE message_text format_message(const char* format,
                                                                            ...) {
  std::va_list args;
  va_start(args, format);
  const message_text m = vformat_message(format, args);
  va_end(args);
  return m;
}
#endif

}  // namespace detail

// An MPI call returned something other than MPI_SUCCESS.
class mpi_error : public std::runtime_error {
 public:
  mpi_error(const char* call, int code) : mpi_error(call, code, error_class(code)) {}
  // With the error class already known (nampi::detail::throw_mpi_error: one MPI_Error_class).
  mpi_error(const char* call, int code, int cls)
      : std::runtime_error(message(call, code).text), call_(call), code_(code), class_(cls) {}

  int code() const noexcept { return code_; }
  int error_class() const noexcept { return class_; }
  const char* call() const noexcept { return call_; }

  static std::string error_string(int code) { return describe(code).text; }

 private:
  // MPI's error string for `code`.
  [[gnu::cold]] static detail::message_text describe(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
      return detail::format_message("unknown MPI error %d", code);
    return detail::format_message("%.*s", length, text);
  }
  // "<call>: <MPI's error string>".
  [[gnu::cold]] static detail::message_text message(const char* call, int code) {
    return detail::format_message("%s: %s", call, describe(code).text);
  }
  static int error_class(int code) {
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
  }

  const char* call_;
  int code_;
  int class_;
};

// ULFM (fault tolerance, nampi/plugins/ulfm.hpp): a process of the communicator failed
// (error class MPI_ERR_PROC_FAILED or MPI_ERR_PROC_FAILED_PENDING, or their MPIX_ names where
// the MPI has ULFM's). Declared on every MPI
// so that handlers compile anywhere; thrown only by an MPI with ULFM.
class process_failed : public mpi_error {
 public:
  using mpi_error::mpi_error;
};

// ULFM: the communicator was revoked (revoke(); error class MPI_ERR_REVOKED or MPIX_ERR_REVOKED).
class communicator_revoked : public mpi_error {
 public:
  using mpi_error::mpi_error;
};

// A run-time precondition of the C++ API was violated (e.g. a no_resize buffer
// that is too small). Thrown rather than aborting so that tests can observe it.
class usage_error : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {

// Throws the usage_error NAMPI_CHECK reports: "nampi: " and the printf-style message.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline,
  gnu::format(printf, 1, 2)]] NAMPI_OUT_OF_LINE void throw_usage_error(const char* format, ...);
#else
[[noreturn, gnu::cold, gnu::noinline,
  gnu::format(printf, 1, 2)]] NAMPI_OUT_OF_LINE void throw_usage_error(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  const message_text body = vformat_message(format, args);
  va_end(args);
  throw usage_error(format_message("nampi: %s", body.text).text);
}
#endif

// The usage errors of the size checks on every call's path, out of line with
// their values as arguments: the check costs its caller a compare and a branch.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold,
  gnu::noinline]] NAMPI_OUT_OF_LINE void throw_too_small(const char* call, const char* param,
                                                         std::size_t holds, std::size_t needed);
#else
[[noreturn, gnu::cold,
  gnu::noinline]] NAMPI_OUT_OF_LINE void throw_too_small(const char* call, const char* param,
                                                         std::size_t holds, std::size_t needed) {
  throw usage_error(
      format_message("nampi: %s: '%s' holds %zu %s, %zu needed (pass a resize policy such as "
                     "resize_to_fit)",
                     call, param, holds, holds == 1 ? "element" : "elements", needed)
          .text);
}
#endif
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_one_value(const char* call,
                                                                              const char* param,
                                                                              std::size_t needed);
#else
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_one_value(const char* call,
                                                                              const char* param,
                                                                              std::size_t needed) {
  throw usage_error(
      format_message("nampi: %s: '%s' holds one value, %zu needed", call, param, needed).text);
}
#endif
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_short_array(
    const char* call, const char* param, std::size_t holds, std::size_t needed, const char* peer);
#else
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_short_array(
    const char* call, const char* param, std::size_t holds, std::size_t needed, const char* peer) {
  throw usage_error(format_message("nampi: %s: '%s' holds %zu %s, one per %s (%zu) needed", call,
                                   param, holds, holds == 1 ? "entry" : "entries", peer, needed)
                        .text);
}
#endif
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_bad_displacements(
    const char* call, const char* counts, bool negative, long long last);
#else
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_bad_displacements(
    const char* call, const char* counts, bool negative, long long last) {
  if (negative)
    throw usage_error(format_message("nampi: %s: '%s' holds a negative count", call, counts).text);
  throw usage_error(format_message("nampi: %s: displacement %lld does not fit the displacements' "
                                   "type (give them as std::vector<MPI_Aint>)",
                                   call, last)
                        .text);
}
#endif

// Out of line: an MPI call site costs a compare, a branch and a call, not the
// exception's construction and unwinding code.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_mpi_error(const char* name,
                                                                              int code);
#else
[[noreturn, gnu::cold, gnu::noinline]] NAMPI_OUT_OF_LINE void throw_mpi_error(const char* name,
                                                                              int code) {
#if defined(MPIX_ERR_PROC_FAILED) || defined(MPIX_ERR_PROC_FAILED_PENDING) || \
    defined(MPIX_ERR_REVOKED) || defined(MPI_ERR_PROC_FAILED) || defined(MPI_ERR_REVOKED)
  // ULFM's classes get types of their own (the class is asked once, as mpi_error does), under
  // ULFM's MPIX_ names and MPI-6's MPI_ names, whichever the MPI defines.
  int cls = code;
  MPI_Error_class(code, &cls);
#ifdef MPIX_ERR_PROC_FAILED
  if (cls == MPIX_ERR_PROC_FAILED) throw process_failed(name, code, cls);
#endif
#ifdef MPIX_ERR_PROC_FAILED_PENDING
  if (cls == MPIX_ERR_PROC_FAILED_PENDING) throw process_failed(name, code, cls);
#endif
#ifdef MPIX_ERR_REVOKED
  if (cls == MPIX_ERR_REVOKED) throw communicator_revoked(name, code, cls);
#endif
#ifdef MPI_ERR_PROC_FAILED
  if (cls == MPI_ERR_PROC_FAILED) throw process_failed(name, code, cls);
#endif
#ifdef MPI_ERR_PROC_FAILED_PENDING
  if (cls == MPI_ERR_PROC_FAILED_PENDING) throw process_failed(name, code, cls);
#endif
#ifdef MPI_ERR_REVOKED
  if (cls == MPI_ERR_REVOKED) throw communicator_revoked(name, code, cls);
#endif
  throw mpi_error(name, code, cls);
#else
  throw mpi_error(name, code);
#endif
}
#endif

// An MPI function's return code: mpi_error unless it succeeded. With
// NAMPI_ERRORS_ARE_FATAL, MPI's own handler aborts on an error before the call
// returns, so there is no code to check.
[[gnu::always_inline]] inline void check_mpi_code([[maybe_unused]] const char* name,
                                                  [[maybe_unused]] int code) {
  if constexpr (!errors_are_fatal)
    if (code != MPI_SUCCESS) [[unlikely]]
      throw_mpi_error(name, code);
}

// Calls an MPI function and throws mpi_error unless it succeeded.
template <typename Function, typename... Args>
inline void call_mpi(const char* name, Function function, Args... args) {
  check_mpi_code(name, function(args...));
}

}  // namespace detail
}  // namespace nampi

// Run-time usage checks come in three kinds:
//  * NAMPI_CHECK: a size nampi computed (an inferred count, a probed size, the
//    number of ranks, a datatype's extent) against the caller's memory. On in
//    every build: nampi made the number up, so nobody else can have checked it,
//    and a release build must never be less safe than plain MPI.
//  * Sizes the caller gave (a count, displacements, a datatype next to a buffer
//    nampi sees): where MPI reads or writes decides whether memory stays intact,
//    so they are checked in every build too (check_given_sizes below), unless the
//    program opts out with NAMPI_TRUST_GIVEN_SIZES and trusts them as plain MPI
//    does.
//  * NAMPI_ASSERT: other values the caller gave that protect no memory (a tag's
//    range, a root's range, the state of a call). They follow `assert`: on in
//    debug builds, off with NDEBUG. Define NAMPI_ASSERTION_LEVEL (0 or 1) to
//    choose either way.
// The message (printf-style: a format and its values) is built in one cold
// function, only when the check fails, so that a check costs its caller a
// compare, a branch and a call, and compiles no string code (issue 14).
#define NAMPI_CHECK(condition, ...)                    \
  do {                                                 \
    if (!(condition)) [[unlikely]]                     \
      ::nampi::detail::throw_usage_error(__VA_ARGS__); \
  } while (false)

#ifndef NAMPI_ASSERTION_LEVEL
#ifdef NDEBUG
#define NAMPI_ASSERTION_LEVEL 0
#else
#define NAMPI_ASSERTION_LEVEL 1
#endif
#endif

#if NAMPI_ASSERTION_LEVEL > 0
#define NAMPI_ASSERT(condition, ...) NAMPI_CHECK(condition, __VA_ARGS__)
#else
// Off: the condition and message are still named (so no parameter reads as
// unused), never evaluated.
#define NAMPI_ASSERT(condition, ...)                   \
  do {                                                 \
    if constexpr (false) {                             \
      (void)(condition);                               \
      ::nampi::detail::throw_usage_error(__VA_ARGS__); \
    }                                                  \
  } while (false)
#endif

namespace nampi::detail {

// False, but only once its arguments are known: a static_assert on it fires where a template
// is used, not where it is defined (a call this MPI lacks, a misuse).
template <typename...>
inline constexpr bool dependent_false = false;

// Whether sizes the caller gave are checked against the buffers they describe: in every
// build, unless the program defines NAMPI_TRUST_GIVEN_SIZES (an explicit, visible opt-out:
// given counts, displacements and datatypes then cost nothing, as in plain MPI, and a wrong
// one writes where plain MPI would). Sizes nampi computes are checked regardless.
#if defined(NAMPI_TRUST_GIVEN_SIZES)
inline constexpr bool check_given_sizes = false;
#else
inline constexpr bool check_given_sizes = true;
#endif

}  // namespace nampi::detail

// NAMPI_CHECK of a size: where `always` (a size nampi computed), or a size the caller gave
// unless NAMPI_TRUST_GIVEN_SIZES; `always` is a constant expression.
#define NAMPI_CHECK_IF(always, condition, ...)                      \
  do {                                                              \
    if constexpr ((always) || ::nampi::detail::check_given_sizes) { \
      NAMPI_CHECK(condition, __VA_ARGS__);                          \
    }                                                               \
  } while (false)

namespace nampi::detail {

// Whether a size check is of a value nampi computed (Always: on in every build)
// or only of values the caller gave (check_given_sizes decides).
template <bool Always>
struct size_check {
  static constexpr bool always = Always;
};

}  // namespace nampi::detail
