// C++ callables for MPI callback typedefs (spec/mpi/callbacks.yaml entries
// with `typed: {callable: <name>}`): the generated typed layer gives every
// function taking such a callback an overload that takes C++ callables instead
// of C function pointers, made into C callbacks by the adapter
// nampi::mpi::callable::<name> below.
//
// Capture-free adapters (user ops, error handlers): the C callbacks carry no
// user-data pointer, so a callable with state would need hidden global storage.
// Only empty, default-constructible class types (a lambda without captures) are
// accepted, and pointer<F>() is one C function per F that default-constructs F
// and calls it.
//
// Adapters with state (keyval copy/delete, generalized requests, data
// representations; `typed.state` in the spec): the C callbacks receive
// extra_state, so the callables may carry captures. The overload keeps them in
// a callable::state passed as extra_state (callable_state.hpp says who owns it
// and until when); c_function<State, I>(f) is the trampoline that finds callable
// I there and returns MPI_SUCCESS, or the error code of what it threw. Where
// MPI predefines C functions for the typedef (MPI_COMM_DUP_FN,
// MPI_CONVERSION_FN_NULL, ...), a C function pointer or nullptr is accepted too
// and passed through; it then receives nampi's state as extra_state, which the
// predefined functions ignore. A callable is called as a non-const lvalue (it may
// keep counts), from whichever thread MPI runs the callback on.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <type_traits>

#include "nampi/detail/configuration.hpp"
#include "nampi/detail/mpi/callable_state.hpp"
#include "nampi/detail/mpi/handles.hpp"

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

// ---- adapters with state

namespace detail {
// A C function of the typedef Fn itself, or a null pointer (nullptr, MPI_CONVERSION_FN_NULL,
// MPICH's MPI_COMM_NULL_COPY_FN): passed to MPI as it is.
template <typename F, typename Fn>
inline constexpr bool c_function_of = std::is_convertible_v<F, Fn*>;

// F& can be called with Args and returns exactly R.
template <typename R, typename F, typename... Args>
constexpr bool returns_exactly() {
  if constexpr (std::is_invocable_v<F&, Args...>)
    return std::is_same_v<std::invoke_result_t<F&, Args...>, R>;
  else
    return false;
}

// The copy callbacks of comm, datatype and win keyvals differ only in the handle.
// f(Handle old, int keyval, void* attribute_val_in) -> std::optional<void*>: the attribute of
// the new object, or no value for none (the object gets no attribute for this keyval). Exactly
// std::optional<void*>: a callable returning a bare pointer could not say "no copy" (nullptr
// would become the copy's value).
template <typename Handle, typename CHandle, typename Fn>
struct copy_attr_function {
  template <typename F>
  static constexpr bool accepts =
      c_function_of<F, Fn> || returns_exactly<std::optional<void*>, F, Handle, int, void*>();
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static Fn* c_function([[maybe_unused]] F& f) noexcept {
    if constexpr (c_function_of<F, Fn>) {
      return f;
    } else {
      return [](CHandle old, int keyval, void* extra_state, void* in, void* out, int* flag) {
        *flag = 0;
        return guarded([&] {
          const std::optional<void*> copy =
              State::from(extra_state).template function<I>()(Handle(old), keyval, in);
          if (copy) {
            *static_cast<void**>(out) = *copy;
            *flag = 1;
          }
        });
      };
    }
  }
};

// The delete callbacks likewise: f(Handle object, int keyval, void* attribute_val).
template <typename Handle, typename CHandle, typename Fn>
struct delete_attr_function {
  template <typename F>
  static constexpr bool accepts =
      c_function_of<F, Fn> || std::is_invocable_v<F&, Handle, int, void*>;
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static Fn* c_function([[maybe_unused]] F& f) noexcept {
    if constexpr (c_function_of<F, Fn>) {
      return f;
    } else {
      return [](CHandle object, int keyval, void* value, void* extra_state) {
        return guarded([&] {
          State::from(extra_state).template function<I>()(Handle(object), keyval, value);
        });
      };
    }
  }
};
}  // namespace detail

// MPI_Comm_copy_attr_function (MPI_Comm_create_keyval; MPI_Comm_dup and MPI_Comm_idup copy):
// f(comm oldcomm, int keyval, void* attribute_val_in) -> std::optional<void*>.
struct comm_copy_attr_function
    : detail::copy_attr_function<comm, MPI_Comm, MPI_Comm_copy_attr_function> {};
// MPI_Comm_delete_attr_function: f(comm, int keyval, void* attribute_val).
struct comm_delete_attr_function
    : detail::delete_attr_function<comm, MPI_Comm, MPI_Comm_delete_attr_function> {};

// MPI_Type_copy_attr_function (MPI_Type_create_keyval; MPI_Type_dup copies):
// f(datatype oldtype, int keyval, void* attribute_val_in) -> std::optional<void*>.
struct type_copy_attr_function
    : detail::copy_attr_function<datatype, MPI_Datatype, MPI_Type_copy_attr_function> {};
// MPI_Type_delete_attr_function: f(datatype, int keyval, void* attribute_val).
struct type_delete_attr_function
    : detail::delete_attr_function<datatype, MPI_Datatype, MPI_Type_delete_attr_function> {};

// MPI_Win_copy_attr_function (MPI_Win_create_keyval): f(win oldwin, int keyval, void*
// attribute_val_in) -> std::optional<void*>. MPI has no call that duplicates a window, so MPI
// never runs it; it exists for symmetry with comm and datatype keyvals.
struct win_copy_attr_function
    : detail::copy_attr_function<win, MPI_Win, MPI_Win_copy_attr_function> {};
// MPI_Win_delete_attr_function: f(win, int keyval, void* attribute_val).
struct win_delete_attr_function
    : detail::delete_attr_function<win, MPI_Win, MPI_Win_delete_attr_function> {};

// MPI_Grequest_query_function (MPI_Grequest_start): f(MPI_Status& status) fills the status of
// the completed request (MPI_Status_set_elements, MPI_Status_set_cancelled, MPI_SOURCE, MPI_TAG).
// The three grequest adapters take callables only: nampi's free trampoline owns the state.
struct grequest_query_function {
  template <typename F>
  static constexpr bool accepts = std::is_invocable_v<F&, MPI_Status&>;
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static MPI_Grequest_query_function* c_function(F&) noexcept {
    return [](void* extra_state, MPI_Status* status) {
      return detail::guarded([&] { State::from(extra_state).template function<I>()(*status); });
    };
  }
};

// MPI_Grequest_free_function: f(), run once when MPI frees the request (MPI_Wait, MPI_Test or
// MPI_Request_free after MPI_Grequest_complete); then the state, with every callable, is deleted.
struct grequest_free_function {
  template <typename F>
  static constexpr bool accepts = std::is_invocable_v<F&>;
  static constexpr bool releases_state = true;

  template <typename State, std::size_t I, typename F>
  static MPI_Grequest_free_function* c_function(F&) noexcept {
    return [](void* extra_state) {
      State& state = State::from(extra_state);
      const int code = detail::guarded([&] { state.template function<I>()(); });
      delete &state;
      return code;
    };
  }
};

// MPI_Grequest_cancel_function: f(bool complete), run by MPI_Cancel; complete says whether
// MPI_Grequest_complete has already been called.
struct grequest_cancel_function {
  template <typename F>
  static constexpr bool accepts = std::is_invocable_v<F&, bool>;
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static MPI_Grequest_cancel_function* c_function(F&) noexcept {
    return [](void* extra_state, int complete) {
      return detail::guarded(
          [&] { State::from(extra_state).template function<I>()(complete != 0); });
    };
  }
};

namespace detail {
// The read and write conversions of MPI_Register_datarep, with an int or (the _c twin) MPI_Count
// count: f(void* userbuf, datatype, Count count, void* filebuf, MPI_Offset position) converts
// count elements between filebuf and userbuf, starting position elements into userbuf.
template <typename Count, typename Fn>
struct datarep_conversion_function {
  template <typename F>
  static constexpr bool accepts =
      c_function_of<F, Fn> || std::is_invocable_v<F&, void*, datatype, Count, void*, MPI_Offset>;
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static Fn* c_function([[maybe_unused]] F& f) noexcept {
    if constexpr (c_function_of<F, Fn>) {
      return f;
    } else {
      return [](void* userbuf, MPI_Datatype type, Count count, void* filebuf, MPI_Offset position,
                void* extra_state) {
        return guarded([&] {
          State::from(extra_state)
              .template function<I>()(userbuf, datatype(type), count, filebuf, position);
        });
      };
    }
  }
};
}  // namespace detail

// MPI_Datarep_conversion_function (MPI_Register_datarep): see detail::datarep_conversion_function.
struct datarep_conversion_function
    : detail::datarep_conversion_function<int, MPI_Datarep_conversion_function> {};

#ifdef NAMPI_HAVE_MPI_REGISTER_DATAREP_C
// MPI_Datarep_conversion_function_c (MPI_Register_datarep_c): the same with an MPI_Count count.
struct datarep_conversion_function_c
    : detail::datarep_conversion_function<MPI_Count, MPI_Datarep_conversion_function_c> {};
#endif

// MPI_Datarep_extent_function (MPI_Register_datarep): f(datatype) -> MPI_Aint, the extent of
// the datatype in the file.
struct datarep_extent_function {
  template <typename F>
  static constexpr bool accepts = detail::c_function_of<F, MPI_Datarep_extent_function> ||
                                  std::is_invocable_r_v<MPI_Aint, F&, datatype>;
  static constexpr bool releases_state = false;

  template <typename State, std::size_t I, typename F>
  static MPI_Datarep_extent_function* c_function([[maybe_unused]] F& f) noexcept {
    if constexpr (detail::c_function_of<F, MPI_Datarep_extent_function>) {
      return f;
    } else {
      return [](MPI_Datatype type, MPI_Aint* extent, void* extra_state) {
        return detail::guarded(
            [&] { *extent = State::from(extra_state).template function<I>()(datatype(type)); });
      };
    }
  }
};

}  // namespace nampi::mpi::callable
