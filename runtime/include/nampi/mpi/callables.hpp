// C++ callables for MPI callback typedefs (spec/mpi/callbacks.yaml entries
// with `typed: {callable: <name>}`): the generated typed layer gives every
// function taking such a callback an overload that takes a callable F instead
// of a C function pointer, and passes nampi::mpi::callable::<name>::pointer<F>().
//
// Only capture-free callables (empty, default-constructible class types, e.g. a
// lambda without captures) are accepted: the C callbacks of user ops and error
// handlers carry no user-data pointer, so a callable with state would need
// hidden global storage. A stateless F needs none: the trampoline below is one
// C function per F that default-constructs F and calls it.
#pragma once

#include <mpi.h>

#include <type_traits>

#include "nampi/config.h"
#include "nampi/mpi/handles.hpp"

namespace nampi::mpi::callable {

template <typename F>
inline constexpr bool stateless =
    std::is_class_v<F> && std::is_empty_v<F> && std::is_default_constructible_v<F>;

// MPI_User_function (MPI_Op_create): f(const void* in, void* inout, int len, datatype);
// MPI reduces in into inout, element by element, len elements of that datatype.
struct user_function {
  template <typename F>
  static constexpr bool accepts =
      stateless<F> && std::is_invocable_v<const F&, const void*, void*, int, datatype>;

  template <typename F>
  static MPI_User_function* pointer() noexcept {
    return [](void* in, void* inout, int* len, MPI_Datatype* type) {
      F{}(static_cast<const void*>(in), inout, *len, datatype(*type));
    };
  }
};

#ifdef NAMPI_HAVE_MPI_OP_CREATE_C
// MPI_User_function_c (MPI_Op_create_c): the same with an MPI_Count length.
struct user_function_c {
  template <typename F>
  static constexpr bool accepts =
      stateless<F> && std::is_invocable_v<const F&, const void*, void*, MPI_Count, datatype>;

  template <typename F>
  static MPI_User_function_c* pointer() noexcept {
    return [](void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
      F{}(static_cast<const void*>(in), inout, *len, datatype(*type));
    };
  }
};
#endif

namespace detail {
// A C variadic function cannot be a lambda: one trampoline per (handle, F).
template <typename Handle, typename CHandle, typename F>
void errhandler_trampoline(CHandle* h, int* error_code, ...) {
  F{}(Handle(*h), *error_code);
}

// The error handler typedefs of comm, win, file and session differ only in the handle:
// Fn is the C typedef, f(Handle, int error_code) the callable.
template <typename Handle, typename CHandle, typename Fn>
struct errhandler_function {
  template <typename F>
  static constexpr bool accepts = stateless<F> && std::is_invocable_v<const F&, Handle, int>;

  template <typename F>
  static Fn* pointer() noexcept {
    return &errhandler_trampoline<Handle, CHandle, F>;
  }
};
}  // namespace detail

// MPI_Comm_errhandler_function (MPI_Comm_create_errhandler): f(comm, int error_code).
struct comm_errhandler_function
    : detail::errhandler_function<comm, MPI_Comm, MPI_Comm_errhandler_function> {};

// MPI_Win_errhandler_function (MPI_Win_create_errhandler): f(win, int error_code).
struct win_errhandler_function
    : detail::errhandler_function<win, MPI_Win, MPI_Win_errhandler_function> {};

// MPI_File_errhandler_function (MPI_File_create_errhandler): f(file, int error_code).
struct file_errhandler_function
    : detail::errhandler_function<file, MPI_File, MPI_File_errhandler_function> {};

#ifdef NAMPI_HAVE_MPI_SESSION_CREATE_ERRHANDLER
// MPI_Session_errhandler_function (MPI_Session_create_errhandler, MPI 4.0): f(session, int
// error_code).
struct session_errhandler_function
    : detail::errhandler_function<session, MPI_Session, MPI_Session_errhandler_function> {};
#endif

}  // namespace nampi::mpi::callable
