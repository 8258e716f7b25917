// Strong handle types of the typed layer (nampi::mpi) and RAII owners for the
// kinds a program must free.
//
// A handle (`comm`, `datatype`, ...) is a non-owning, trivially copyable
// wrapper of one C handle. Each kind is its own C++ type, also under MPICH
// where every C handle is an `int`, so a datatype cannot be passed where a
// communicator is expected. Construction from a C handle is explicit for the
// same reason (under MPICH an `int` rank would otherwise become a comm).
//
// An owner (`unique_comm`, ...) is a move-only handle that frees itself with
// its kind's free function. It derives from the handle, so it can be passed
// wherever the handle is taken by value (a borrow) or by reference (MPI_X_free
// and friends set it to the null handle, after which the owner frees nothing).
// An owner never frees a null or predefined handle, and frees nothing once
// MPI_Finalize has run (the handle died with MPI): each free asks MPI_Finalized
// first (one extra call per freed handle, visible to the PMPI counter).
#pragma once

#include <mpi.h>

#include <type_traits>
#include <utility>

namespace nampi::mpi {

// One handle kind: its C type, null handle, predefined handles and (for kinds
// with owners) its free function. Only this traits table knows MPI's names.
template <typename Kind>
struct handle_traits;

template <typename Kind>
class handle {
 public:
  using c_type = typename handle_traits<Kind>::c_type;

  // The null handle of the kind (MPI_COMM_NULL, ...).
  handle() noexcept : value_(handle_traits<Kind>::null()) {}
  explicit handle(c_type value) noexcept : value_(value) {}

  c_type get() const noexcept { return value_; }
  // The same, by the name every nampi type that holds an MPI handle gives it.
  c_type mpi_handle() const noexcept { return value_; }
  explicit operator c_type() const noexcept { return value_; }
  // The C handle's address, for C functions that write a handle (MPI_X_free, ...).
  c_type* address() noexcept { return &value_; }

  bool is_null() const noexcept { return value_ == handle_traits<Kind>::null(); }
  bool is_predefined() const noexcept { return handle_traits<Kind>::is_predefined(value_); }

  friend bool operator==(const handle& a, const handle& b) noexcept { return a.value_ == b.value_; }

 private:
  c_type value_;
};

struct comm_kind {};
struct group_kind {};
struct datatype_kind {};
struct op_kind {};
struct info_kind {};
struct win_kind {};
struct file_kind {};
struct session_kind {};
struct request_kind {};
struct message_kind {};
struct errhandler_kind {};

using comm = handle<comm_kind>;
using group = handle<group_kind>;
using datatype = handle<datatype_kind>;
using op = handle<op_kind>;
using info = handle<info_kind>;
using win = handle<win_kind>;
using file = handle<file_kind>;
using session = handle<session_kind>;
using request = handle<request_kind>;
using message = handle<message_kind>;
using errhandler = handle<errhandler_kind>;

namespace detail {

template <typename C, typename... Predefined>
bool is_one_of(C value, Predefined... predefined) noexcept {
  return ((value == predefined) || ...);
}

inline bool mpi_finalized() noexcept {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag != 0;
}

}  // namespace detail

template <>
struct handle_traits<comm_kind> {
  using c_type = MPI_Comm;
  static c_type null() noexcept { return MPI_COMM_NULL; }
  static bool is_predefined(c_type h) noexcept {
    return detail::is_one_of(h, MPI_COMM_WORLD, MPI_COMM_SELF);
  }
  static int free(c_type* h) noexcept { return MPI_Comm_free(h); }
  static bool never_free(c_type h) noexcept { return is_predefined(h); }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<group_kind> {
  using c_type = MPI_Group;
  static c_type null() noexcept { return MPI_GROUP_NULL; }
  static bool is_predefined(c_type h) noexcept { return h == MPI_GROUP_EMPTY; }
  static int free(c_type* h) noexcept { return MPI_Group_free(h); }
  // MPI may return MPI_GROUP_EMPTY from any group constructor.
  static bool never_free(c_type h) noexcept { return is_predefined(h); }
  static constexpr bool lives_in_world_model = true;
};

// Predefined datatypes are too many (and too implementation-specific) to list:
// an owner asks MPI once, when it adopts a handle from the user (see below).
template <>
struct handle_traits<datatype_kind> {
  using c_type = MPI_Datatype;
  static c_type null() noexcept { return MPI_DATATYPE_NULL; }
  static bool is_predefined(c_type h) noexcept {
    if (h == MPI_DATATYPE_NULL) return false;
    int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
    MPI_Type_get_envelope(h, &integers, &addresses, &datatypes, &combiner);
    return combiner == MPI_COMBINER_NAMED;
  }
  static int free(c_type* h) noexcept { return MPI_Type_free(h); }
  // Checked when an owner adopts a user's handle, not at every free (it costs a call).
  static bool never_free(c_type) noexcept { return false; }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<op_kind> {
  using c_type = MPI_Op;
  static c_type null() noexcept { return MPI_OP_NULL; }
  static bool is_predefined(c_type h) noexcept {
    return detail::is_one_of(h, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                             MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE,
                             MPI_NO_OP);
  }
  static int free(c_type* h) noexcept { return MPI_Op_free(h); }
  static bool never_free(c_type h) noexcept { return is_predefined(h); }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<info_kind> {
  using c_type = MPI_Info;
  static c_type null() noexcept { return MPI_INFO_NULL; }
  static bool is_predefined(c_type h) noexcept { return h == MPI_INFO_ENV; }
  static int free(c_type* h) noexcept { return MPI_Info_free(h); }
  static bool never_free(c_type h) noexcept { return is_predefined(h); }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<win_kind> {
  using c_type = MPI_Win;
  static c_type null() noexcept { return MPI_WIN_NULL; }
  static bool is_predefined(c_type) noexcept { return false; }
  static int free(c_type* h) noexcept { return MPI_Win_free(h); }
  static bool never_free(c_type) noexcept { return false; }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<file_kind> {
  using c_type = MPI_File;
  static c_type null() noexcept { return MPI_FILE_NULL; }
  static bool is_predefined(c_type) noexcept { return false; }
  static int free(c_type* h) noexcept { return MPI_File_close(h); }
  static bool never_free(c_type) noexcept { return false; }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<errhandler_kind> {
  using c_type = MPI_Errhandler;
  static c_type null() noexcept { return MPI_ERRHANDLER_NULL; }
  static bool is_predefined(c_type h) noexcept {
#ifdef MPI_ERRORS_ABORT  // MPI-4.0; Open MPI 4.1 lacks it
    if (h == MPI_ERRORS_ABORT) return true;
#endif
    return detail::is_one_of(h, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN);
  }
  static int free(c_type* h) noexcept { return MPI_Errhandler_free(h); }
  static bool never_free(c_type h) noexcept { return is_predefined(h); }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<request_kind> {
  using c_type = MPI_Request;
  static c_type null() noexcept { return MPI_REQUEST_NULL; }
  static bool is_predefined(c_type) noexcept { return false; }
  static int free(c_type* h) noexcept { return MPI_Request_free(h); }
  static bool never_free(c_type) noexcept { return false; }
  static constexpr bool lives_in_world_model = true;
};

template <>
struct handle_traits<message_kind> {
  using c_type = MPI_Message;
  static c_type null() noexcept { return MPI_MESSAGE_NULL; }
  // MPI_MESSAGE_NO_PROC is predefined; messages are never freed (MPI_Mrecv consumes them).
  static bool is_predefined(c_type h) noexcept { return h == MPI_MESSAGE_NO_PROC; }
};

#ifdef MPI_SESSION_NULL  // MPI-4.0 sessions; Open MPI 4.1 and older MPIs lack them
template <>
struct handle_traits<session_kind> {
  using c_type = MPI_Session;
  static c_type null() noexcept { return MPI_SESSION_NULL; }
  static bool is_predefined(c_type) noexcept { return false; }
  static int free(c_type* h) noexcept { return MPI_Session_finalize(h); }
  static bool never_free(c_type) noexcept { return false; }
  // A session outlives MPI_Finalize of the world model: it is finalized on its own.
  static constexpr bool lives_in_world_model = false;
};
#endif

namespace detail {
// Generated functions return new handles with this tag: MPI just created them,
// so they are neither predefined nor owned by anyone else (no check needed).
struct adopt_new_t {
  explicit adopt_new_t() = default;
};
inline constexpr adopt_new_t adopt_new{};
}  // namespace detail

template <typename Kind>
class unique_handle : public handle<Kind> {
  using base = handle<Kind>;
  using traits = handle_traits<Kind>;

 public:
  unique_handle() noexcept = default;
  // Takes ownership of `h`. A predefined handle is kept (usable) but never freed.
  explicit unique_handle(base h) noexcept : base(h), owns_(!h.is_predefined()) {}
  unique_handle(detail::adopt_new_t, base h) noexcept : base(h), owns_(true) {}

  unique_handle(const unique_handle&) = delete;
  unique_handle& operator=(const unique_handle&) = delete;
  unique_handle(unique_handle&& other) noexcept : base(other), owns_(other.owns_) {
    other.forget();
  }
  unique_handle& operator=(unique_handle&& other) noexcept {
    if (this != &other) {
      reset();
      static_cast<base&>(*this) = other;
      owns_ = other.owns_;
      other.forget();
    }
    return *this;
  }
  ~unique_handle() { reset(); }

  // Frees the handle now, unless it is null, not owned, or died with MPI_Finalize.
  void reset() noexcept {
    if (owns_ && !this->is_null() && !traits::never_free(this->get()) &&
        !(traits::lives_in_world_model && detail::mpi_finalized()))
      traits::free(this->address());  // a destructor cannot throw; MPI's handler reports
    forget();
  }
  // Gives up ownership and returns the handle.
  base release() noexcept {
    const base h = *this;
    forget();
    return h;
  }
  bool owns() const noexcept {
    return owns_ && !this->is_null() && !traits::never_free(this->get());
  }

 private:
  void forget() noexcept {
    static_cast<base&>(*this) = base();
    owns_ = false;
  }
  bool owns_ = false;
};

using unique_comm = unique_handle<comm_kind>;
using unique_group = unique_handle<group_kind>;
using unique_datatype = unique_handle<datatype_kind>;
using unique_op = unique_handle<op_kind>;
using unique_info = unique_handle<info_kind>;
using unique_win = unique_handle<win_kind>;
using unique_file = unique_handle<file_kind>;
using unique_errhandler = unique_handle<errhandler_kind>;
#ifdef MPI_SESSION_NULL
using unique_session = unique_handle<session_kind>;
#endif

// Spans of handles are handed to MPI as arrays of C handles.
static_assert(sizeof(comm) == sizeof(MPI_Comm) && std::is_standard_layout_v<comm>);
static_assert(sizeof(datatype) == sizeof(MPI_Datatype) && std::is_standard_layout_v<datatype>);
static_assert(sizeof(request) == sizeof(MPI_Request) && std::is_standard_layout_v<request>);
static_assert(std::is_trivially_copyable_v<request>);

// Predefined handles, as strong types.
inline comm comm_world() noexcept { return comm(MPI_COMM_WORLD); }
inline comm comm_self() noexcept { return comm(MPI_COMM_SELF); }

}  // namespace nampi::mpi
