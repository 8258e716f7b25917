// Slots: what a named parameter becomes inside a call.
//
// For every parameter a call resolves one slot, chosen at compile time:
//  * input_slot   - the caller gave the value; the call only reads it;
//  * output_slot  - the call computes or receives it, into the caller's object
//                   (`recv_buf(x)`, `*_out(x)`) or into storage of its own when
//                   the caller omitted the parameter.
// Rules (infer.hpp) fill output slots; MPI reads both through data()/get().
#pragma once

#include <mpi.h>

#include <cstddef>
#include <exception>
#include <limits>
#include <span>  // std::ranges::data/size/contiguous_range, lighter than <ranges>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/scratch_array.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"
#include "nampi/ops.hpp"
#include "nampi/parameter.hpp"

namespace nampi::detail {

template <typename T>
concept resizable = requires(T& c, std::size_t n) { c.resize(n); };

// The Default a call gives a buffer it serializes one value per rank (spec key
// serialized_per_rank: scatterv's and alltoallv's send_buf). Such a buffer is
// required, so nothing is ever created from it: it tells a serialized buffer
// to serialize each value of its range on its own (serialization.hpp).
struct serialized_per_rank {};

// Parameter Id, if it is a serialized buffer, holds a sized range (what a
// buffer serialized one value per rank must be).
template <auto Id, typename... Args>
constexpr bool serialized_range() {
  constexpr std::size_t i = index_of<Id, Args...>();
  if constexpr (i < sizeof...(Args)) {
    using P = std::remove_cvref_t<nth_t<i, Args...>>;
    using S = std::remove_cvref_t<typename P::storage_type>;
    if constexpr (serialized_buffer<S>) return std::ranges::sized_range<typename S::value_type>;
  }
  return true;
}

// The element type MPI transfers for a slot: that of its object, unless the
// slot says otherwise (a serialized buffer holds a T but transfers bytes).
template <typename Slot>
struct slot_element {
  using type = element_t<typename Slot::object_type>;
};
template <typename Slot>
  requires requires { typename Slot::element_type; }
struct slot_element<Slot> {
  using type = typename Slot::element_type;
};
template <typename Slot>
using slot_element_t = typename slot_element<std::remove_cvref_t<Slot>>::type;

// Whether a slot is parameter Id's (the no_primary placeholder is no parameter's).
template <auto Id, typename Slot>
constexpr bool slot_has_id() {
  using S = std::remove_cvref_t<Slot>;
  if constexpr (std::is_same_v<std::remove_cv_t<decltype(S::id)>, decltype(Id)>)
    return S::id == Id;
  else
    return false;
}

// The index of parameter Id's slot in a pack of a call's slots (the pack's size if none).
template <auto Id, typename Slots>
constexpr std::size_t slot_index() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    std::size_t found = sizeof...(I);
    (void)((slot_has_id<Id, pack_element_t<I, Slots>>() ? (found = I, true) : false) || ...);
    return found;
  }(std::make_index_sequence<Slots::size>{});
}

// Parameter Id's slot among a call's slots (which must have it).
template <auto Id, typename Slots>
const auto& slot_with_id(const Slots& slots) {
  constexpr std::size_t index = slot_index<Id, Slots>();
  static_assert(index < Slots::size, "nampi internal: the call has no such slot");
  return pick<index>(slots);
}

struct no_pin {};

// Reads a value the caller gave. Holds a reference into the argument object,
// which lives until the end of the caller's full expression.
template <auto Id, typename Object>
class input_slot {
 public:
  using object_type = std::remove_cvref_t<Object>;
  static constexpr auto id = Id;
  static constexpr bool computed = false;  // rules must not fill it
  static constexpr bool returned = false;

  explicit input_slot(const object_type& object) : object_(&object), size_(size_of(object)) {}
  input_slot(const input_slot& other)
      : object_(other.object_ == other.pinned_address() ? pinned_address() : other.object_),
        size_(other.size_),
        pinned_(other.pinned_) {}
  input_slot& operator=(const input_slot&) = delete;

  const object_type& get() const { return *object_; }
  const auto* data() const { return data_of(*object_); }
  std::size_t size() const { return size_; }
  // Reads only the first n entries (an array longer than the ranks it describes).
  void limit(std::size_t n) { size_ = std::min(size_, n); }

  // A wildcard the caller gave (MPI_ANY_SOURCE, MPI_ANY_TAG), replaced by the value of the
  // message a rule probed, so that the receive after the probe takes that message and no
  // other (infer.hpp: probe_count, sendrecv_count). Integers only.
  void pin(const object_type& value) {
    pinned_ = value;
    object_ = &pinned_;
  }

 private:
  const object_type* pinned_address() const {
    if constexpr (std::is_arithmetic_v<object_type>)
      return &pinned_;
    else
      return nullptr;
  }

  const object_type* object_;
  std::size_t size_;
  [[no_unique_address]] std::conditional_t<std::is_arithmetic_v<object_type>, object_type, no_pin>
      pinned_{};
};

// What a call does with an input the caller moved in (an rvalue argument).
enum class moved_input {
  borrow,     // a blocking call: read it from the argument, which outlives the call
  keep,       // a nonblocking call: own it until the call completes
  hand_back,  // the same, and return it (the message data) from wait()
};

// The policy of a form's slot in a body its family's forms share (generator/shared_bodies.py):
// `m` where the form returns before the call completes (its tag says so), else borrow.
template <typename Form>
constexpr moved_input moved_for(moved_input m) {
  return Form::returns_before_completion ? m : moved_input::borrow;
}

// Reads a value the caller moved into a nonblocking call: the slot keeps it
// until the call completes, and hands the message data (a buffer or a single
// value) back in the result.
template <auto Id, typename Object, bool HandBack>
class owned_input_slot {
 public:
  using object_type = std::remove_cvref_t<Object>;
  static constexpr auto id = Id;
  static constexpr bool computed = false;
  static constexpr bool returned = HandBack;

  explicit owned_input_slot(object_type&& object)
      : object_(std::move(object)), size_(size_of(object_)) {}

  const object_type& get() const { return object_; }
  const auto* data() const { return data_of(object_); }
  std::size_t size() const { return size_; }
  void limit(std::size_t n) { size_ = std::min(size_, n); }
  object_type extract() { return std::move(object_); }
  // As input_slot::pin: the slot owns its value.
  void pin(const object_type& value) { object_ = value; }

 private:
  object_type object_;
  std::size_t size_;
};

// Receives a value. Owned storage (omitted parameter, or an rvalue the caller
// moved in) travels back in the result if Returned; a referenced object is
// written in place.
template <auto Id, typename Object, typename Policy, bool Owned, bool Returned>
class output_slot {
 public:
  using object_type = std::remove_cvref_t<Object>;
  static constexpr auto id = Id;
  static constexpr bool computed = true;
  static constexpr bool returned = Returned;

  template <typename... Init>
  explicit output_slot(Init&&... init)
      : object_(std::forward<Init>(init)...), size_(size_of(object_)) {}

  object_type& get() { return object_; }
  const object_type& get() const { return object_; }
  void set(const object_type& value) { object_ = value; }
  auto* data() { return data_of(get()); }
  const auto* data() const { return data_of(get()); }
  // The elements the call uses: what resize_for made room for, which a caller's
  // container may exceed (recv_counts_out(v) with v longer than the ranks).
  std::size_t size() const { return size_; }

  // resize_for(n, call, size_check<Always>) does nothing at all: a buffer the
  // caller gave without a resize policy, whose check NAMPI_TRUST_GIVEN_SIZES drops.
  template <bool Always>
  static constexpr bool does_nothing_for =
      is_buffer_v<object_type> && std::is_same_v<Policy, no_resize> && !Always &&
      !check_given_sizes;

  // Makes room for n elements as the resize policy allows; a buffer that stays
  // too small throws usage_error before MPI writes. The check is on in every
  // build when n is a size nampi computed (Check::always).
  template <bool Always>
  [[gnu::always_inline]] void resize_for(std::size_t n, const char* call, size_check<Always>) {
    if constexpr (!is_buffer_v<object_type>) {
      if constexpr (Always || check_given_sizes)
        if (n > 1) [[unlikely]]
          throw_one_value(call, param_name(Id), n);
      return;
    } else if constexpr (std::is_same_v<Policy, resize_to_fit>) {
      if constexpr (Owned && std::is_constructible_v<object_type, std::size_t>) {
        // Storage the call created: build it at its size (cheaper than growing).
        if (size_of(object_) != n) {
          if constexpr (std::is_nothrow_move_assignable_v<object_type> &&
                        std::is_nothrow_move_constructible_v<object_type>) {
            // Rebuilt in place rather than move-assigned: the same effect where the move
            // assignment cannot throw (its allocator moves along, or all are equal; a pmr
            // container's is kept by the assignment below), and less to compile.
            object_type sized(n);
            std::destroy_at(&object_);
            std::construct_at(&object_, std::move(sized));
          } else {
            object_ = object_type(n);
          }
        }
      } else if constexpr (resizable<object_type>) {
        if (size_of(object_) != n) object_.resize(n);  // the common case: already right
      } else
        static_assert(resizable<object_type>, "nampi: resize_to_fit needs a resizable container");
    } else if constexpr (std::is_same_v<Policy, grow_only>) {
      if constexpr (resizable<object_type>) {
        if (object_.size() < n) object_.resize(n);
      } else {
        static_assert(resizable<object_type>, "nampi: grow_only needs a resizable container");
      }
    } else if constexpr (does_nothing_for<Always>) {
      return;
    } else {
      if constexpr (Always || check_given_sizes)
        if (size_of(object_) < n) [[unlikely]]
          throw_too_small(call, param_name(Id), size_of(object_), n);
    }
    size_ = n;
  }

  // Only a returned (owned) slot is extracted. The return type is deduced, so
  // that a slot over a caller's C array does not declare a function returning an array.
  auto extract() { return std::move(object_); }

  // A communicator a nonblocking call created (to_mpi_pending_new_comm) is adopted
  // once the call completed: make_result runs this when it builds the call's result.
  template <typename Slots>
    requires requires(object_type& o) { o.adopt_pending(); }
  void finish(const Slots&) {
    object_.adopt_pending();
  }

 private:
  std::conditional_t<Owned, object_type, object_type&> object_;
  std::size_t size_;
};

// A rule may skip computing a size that resize_for(n, call, size_check<Always>) on
// Out would not use (see output_slot::does_nothing_for).
template <typename Out, bool Always>
concept resize_does_nothing = std::remove_cvref_t<Out>::template does_nothing_for<Always>;

// The caller's policy, else the binding's default; a binding default that
// resizes falls back to no_resize for containers that cannot be resized
// (std::array, std::span, C arrays).
template <typename Given, typename Default, typename Object>
using choose_policy =
    std::conditional_t<std::is_same_v<Given, policy_unspecified>,
                       std::conditional_t<resizable<std::remove_cvref_t<Object>> ||
                                              !is_buffer_v<std::remove_cvref_t<Object>>,
                                          Default, no_resize>,
                       Given>;

// A binding's default policy for a buffer its rule sizes from parameter Count (spec/rules.yaml
// grows_only_if_given): a count the caller gives is how many elements the call uses, not how
// large the buffer is, so resize_to_fit then only grows the buffer, never shrinks it.
template <typename Policy, auto Count, typename... Args>
using policy_unless_given =
    std::conditional_t<std::is_same_v<Policy, resize_to_fit> && !computes<Count, Args...>,
                       grow_only, Policy>;

// The op parameter's slot also holds the call's lease of an op table entry
// (user_ops.hpp), taken when the call starts: it ends with the slot, that is
// when a blocking call returns or a nonblocking or persistent call's result,
// which keeps its slots until completion, is destroyed or read.
template <typename Inner>
class op_slot : public Inner {
 public:
  explicit op_slot(Inner inner) : Inner(std::move(inner)) {}
  op_lease lease;
};

// What a call's body finds for a parameter the caller omitted. A body holds its arguments as
// pack<Args&..., omitted_argument> (`nampi_arguments`), so that pick<index_of<Id, Args...>()>
// finds parameter Id's argument or, where it is absent, this trailing one.
struct omitted_argument {};

// The slot of parameter Id, from its argument in a call's body (see omitted_argument).
//  Default        - storage type when the call must create the value itself
//                   (serialized_per_rank: a required buffer's, see above);
//  Policy         - the binding's resize policy when the caller names none;
//  ReturnOmitted  - an omitted parameter is returned (the receive buffer);
//  Moved          - what a nonblocking call does with an input moved in.
// A function of that one argument, not of the call's whole argument list: so a call
// instantiated again for other arguments (another element type) reuses it where this argument
// is the same, and an omitted parameter's is shared by every call that omits it alike (each
// small function an instance adds costs it about 0.7 M compiler instructions at -O2).
// AsOp: the op parameter's slot, with its lease (op_slot).
template <auto Id, typename Default, typename Policy, bool ReturnOmitted,
          moved_input Moved = moved_input::borrow, bool AsOp = is_op_param<Id>, typename Param>
auto slot_for(Param& param) {
  using Storage = typename Param::storage_type;
  if constexpr (AsOp) {
    return op_slot(slot_for<Id, Default, Policy, ReturnOmitted, Moved, false>(param));
  } else if constexpr (serialized_buffer<Storage>) {
    // nampi/serialization.hpp: the buffer makes its own slot, which owns the bytes.
    return std::remove_cvref_t<Storage>::template make_slot<Id, Param::direction, Default>(
        std::forward<Storage>(param.value));
  } else if constexpr (Param::direction == role::in) {
    if constexpr (Moved != moved_input::borrow && !std::is_lvalue_reference_v<Storage>)
      return owned_input_slot<Id, Storage, Moved == moved_input::hand_back>(std::move(param.value));
    else
      return input_slot<Id, Storage>(param.value);
  } else if constexpr (std::is_lvalue_reference_v<Storage>) {
    return output_slot<Id, Storage, choose_policy<typename Param::policy, Policy, Storage>, false,
                       false>(param.value);
  } else {
    // Moved in: take ownership; the result hands it back.
    return output_slot<Id, Storage, choose_policy<typename Param::policy, Policy, Storage>, true,
                       true>(std::move(param.value));
  }
}
template <auto Id, typename Default, typename Policy, bool ReturnOmitted,
          moved_input Moved = moved_input::borrow>
auto slot_for(omitted_argument&) {
  if constexpr (requires { Default::template omitted_slot<Id, ReturnOmitted>(); })
    return Default::template omitted_slot<Id, ReturnOmitted>();  // serialization.hpp's blocks
  else if constexpr (!ReturnOmitted && scratch_eligible<Default>)
    return output_slot<Id, scratch_array<typename Default::value_type>, resize_to_fit, true,
                       false>{};  // the call's own counts or displacements
  else
    return output_slot<Id, Default, resize_to_fit, true, ReturnOmitted>{};
}

// The same for code that holds a call's arguments as a pack of its own (plugins).
template <auto Id, typename Default, typename Policy, bool ReturnOmitted,
          moved_input Moved = moved_input::borrow, typename... Args>
auto resolve(Args&... args) {
  pack<Args&..., omitted_argument> arguments{{{args}..., {}}};
  return slot_for<Id, Default, Policy, ReturnOmitted, Moved>(
      pick<index_of<Id, Args...>()>(arguments));
}
// Conversions from a slot to the C argument of an MPI function; which one a
// parameter uses is its `to_mpi` field in spec/parameters.yaml.

// Room for one T that MPI never reads or writes: what an empty buffer hands MPI.
template <typename T>
alignas(T) inline unsigned char empty_buffer_storage[sizeof(T)];

// The data pointer of a buffer, never null: an empty std::vector has none, but
// some MPIs reject a null buffer even where they transfer nothing (MPICH with a
// positive count for a process without neighbours, Open MPI in
// MPI_Neighbor_allgatherv), so an empty buffer gets a valid address instead.
// Only bindings marked `non_null_buffers` in spec/bindings/ pay for the test.
template <typename T>
T* non_null(T* data) noexcept {
  if (data == nullptr) [[unlikely]]
    return reinterpret_cast<T*>(empty_buffer_storage<std::remove_cv_t<T>>);
  return data;
}

// Buffers and arrays: the data pointer (a single value is a buffer of one).
template <typename Slot>
auto* to_mpi_pointer(Slot& slot) {
  return slot.data();
}

// One-sided buffers (spec/bindings/windows.yaml): MPI reads or writes them until the epoch's
// synchronization, after the call returned. Each form's check (parameter.hpp:
// variable_argument) admits only variables, or, in a nonblocking call, one the result owns;
// so the pointer stays valid, and one MPI writes (get's origin_buf, result_buf, win_create's
// base) points at non-const memory, which the input slot only shows as const.
template <typename Slot>
const auto* to_mpi_lasting_pointer(Slot& slot) {
  return slot.data();
}

template <typename Slot>
auto* to_mpi_writable_pointer(Slot& slot) {
  using E = std::remove_const_t<std::remove_pointer_t<decltype(slot.data())>>;
  return const_cast<E*>(slot.data());
}

// The same, never null for a buffer (see non_null).
template <typename Slot>
auto* to_mpi_non_null_pointer(Slot& slot) {
  if constexpr (is_buffer_v<typename Slot::object_type>)
    return non_null(slot.data());
  else
    return slot.data();
}

// An argument MPI only reads, for an mpi.h that declares it without the standard's const
// (SimGrid's SMPI: MPI_Compare_and_swap's compare_addr; spec/mpi `implementations:`).
template <typename T>
T* without_const(const T* data) noexcept {
  return const_cast<T*>(data);
}

// A handle wrapper (nampi::datatype, the typed layer's handles) as its C
// handle, a nampi::Communicator (intercomm_create's peer_comm) as its MPI_Comm;
// any other value as it is.
template <typename T>
decltype(auto) c_value(const T& value) {
  if constexpr (requires {
                  typename T::c_type;
                  value.get();
                })
    return static_cast<typename T::c_type>(value.get());
  else if constexpr (requires { value.mpi_communicator(); })
    return value.mpi_communicator();
  else
    return (value);
}

// Plain values: counts, ranks, tags, datatypes.
template <typename Slot>
decltype(auto) to_mpi_value(Slot& slot) {
  return c_value(slot.get());
}

// Reduction operations on elements of type T: builtin functors, MPI_Op
// handles, or user callables (a stateful one leases a table entry).
template <typename T, typename Slot>
op_handle to_mpi_op(Slot& slot) {
  return mpi_op<T>(slot.get(), slot.lease);
}

// Status objects are passed by address; an omitted status is ignored.
struct status_ignored {};

template <typename Slot>
MPI_Status* to_mpi_status(Slot& slot) {
  if constexpr (std::is_same_v<typename Slot::object_type, status_ignored>)
    return MPI_STATUS_IGNORE;
  else
    return &slot.get();
}

// Edge weights of a distributed graph; omitted, they are MPI_UNWEIGHTED.
struct unweighted {};

template <typename Slot>
const int* to_mpi_weights(Slot& slot) {
  if constexpr (std::is_same_v<typename Slot::object_type, unweighted>)
    return MPI_UNWEIGHTED;
  else if (slot.size() == 0)
    return MPI_WEIGHTS_EMPTY;  // weighted, but no edge here
  else
    return slot.data();
}

// A handle the MPI call creates (to_mpi: new_comm, new_win, new_file). MPI writes the new
// handle into this temporary, which lives until the end of the call's full expression and then
// hands it to the slot's owner (an OwnedCommunicator, a Window, a File): that one owns it and
// reads what it needs (a communicator's rank and size). If the MPI call failed (an exception
// is on its way), there is nothing to adopt.
template <typename Owner, typename Handle>
class new_handle_target {
 public:
  new_handle_target(Owner& owner, Handle null) noexcept : owner_(&owner), handle_(null) {}
  new_handle_target(const new_handle_target&) = delete;
  new_handle_target& operator=(const new_handle_target&) = delete;
  ~new_handle_target() noexcept(false) {
    if (std::uncaught_exceptions() != exceptions_) return;
    // A communicator gets nampi's own context too (OwnedCommunicator::adopt_created).
    if constexpr (requires(Owner& o, Handle h) { o.adopt_created(h); })
      owner_->adopt_created(handle_);
    else
      owner_->adopt(handle_);
  }

  operator Handle*() noexcept { return &handle_; }

 private:
  Owner* owner_;
  Handle handle_;
  int exceptions_ = std::uncaught_exceptions();
};

template <typename Slot>
auto to_mpi_new_comm(Slot& slot) {
  return new_handle_target<typename Slot::object_type, MPI_Comm>(slot.get(), MPI_COMM_NULL);
}

// A window a creation call makes (nampi/window.hpp); MPI_Win_allocate also writes the base
// address of the memory it allocated, where the window keeps it (its baseptr argument).
template <typename Slot>
auto to_mpi_new_win(Slot& slot) {
  return new_handle_target<typename Slot::object_type, MPI_Win>(slot.get(), MPI_WIN_NULL);
}
template <typename Slot>
void* to_mpi_new_win_base(Slot& slot) {
  return slot.get().base_address();
}

// A file file_open opens (nampi/file.hpp); it reports errors by return code (a file's default
// error handler), so adopting it issues no MPI call.
template <typename Slot>
auto to_mpi_new_file(Slot& slot) {
  return new_handle_target<typename Slot::object_type, MPI_File>(slot.get(), MPI_FILE_NULL);
}

// A string argument (a file name, a data representation): a string literal, a const char*,
// a std::string or a std::string_view (copied: MPI needs the terminating zero). The copy
// lives in the argument until the MPI call returns.
struct c_string_arg {
  std::string owned;
  const char* borrowed = nullptr;
  operator const char*() const noexcept { return borrowed != nullptr ? borrowed : owned.c_str(); }
};

template <typename Slot>
c_string_arg to_mpi_c_string(Slot& slot) {
  const auto& value = slot.get();
  if constexpr (std::is_convertible_v<decltype(value), const char*>)
    return {{}, static_cast<const char*>(value)};
  else
    return {std::string(value), nullptr};
}

// The number of bytes of `count` elements of E (to_mpi: element_bytes): a window's size,
// given in elements of its type (comm.win_allocate<double>(size(n))). Checked in every build:
// nampi computes it.
template <typename E, typename Slot>
MPI_Aint to_mpi_element_bytes(Slot& slot) {
  const auto count = static_cast<long long>(c_value(slot.get()));
  NAMPI_CHECK(
      count >= 0 &&
          static_cast<unsigned long long>(count) <=
              static_cast<unsigned long long>(std::numeric_limits<MPI_Aint>::max()) / sizeof(E),
      "%s: %lld elements of %zu bytes do not fit an MPI_Aint", param_name(Slot::id), count,
      sizeof(E));
  return static_cast<MPI_Aint>(count) * static_cast<MPI_Aint>(sizeof(E));
}

// The same for a nonblocking call (comm.idup()), whose new communicator may not be
// used before the call completes: MPI writes the handle into the slot's owner, which
// the nonblocking result keeps in place until then, and the slot's finish() has the
// owner adopt it when wait() or test() takes the result.
template <typename Slot>
MPI_Comm* to_mpi_pending_new_comm(Slot& slot, MPI_Comm parent) {
  return slot.get().pending_handle(parent);
}

}  // namespace nampi::detail
