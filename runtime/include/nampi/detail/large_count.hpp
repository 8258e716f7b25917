// Large counts. Counts the call computes are MPI_Count; a generated call body
// compares each count with INT_MAX (nothing to compare when its type is int):
// if all fit it calls the int function exactly as before; otherwise the `_c`
// twin where the MPI has it (NAMPI_HAVE_MPI_<F>_C), else the int function with
// each large count described as one element of a derived datatype
// (large_count_type). Blocking reductions (builtin ops need builtin types) run in
// chunks of 2^30 elements instead (in_chunks); other calls that cannot be emulated
// (nonblocking reductions, a large count beside int counts arrays) report a
// usage_error. Counts or displacements arrays given as MPI_Count / MPI_Aint take
// the twin, chosen at compile time; where the MPI lacks it, the blocking calls
// emulate it with one MPI_Alltoallw (large_count_alltoallw.hpp), and the others
// do not compile.
#pragma once

#include <mpi.h>

#include <climits>
#include <concepts>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/configuration.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/scratch_array.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

template <typename T>
bool fits_int(T value) {
  if constexpr (std::same_as<T, bool> || !std::integral<T>)
    return true;  // not a count (never the case for a generated call)
  else if constexpr (sizeof(T) < sizeof(int) || std::same_as<T, int>)
    return true;  // an int: the int function takes it as it is, MPI checks its sign
  else if constexpr (std::is_signed_v<T>)
    // One compare: a negative count takes the large path, where MPI reports it.
    return static_cast<std::make_unsigned_t<T>>(value) <= static_cast<unsigned>(INT_MAX);
  else
    return value <= static_cast<unsigned>(INT_MAX);
}

// All counts of a call fit the int function (a constant for int counts).
template <typename... Slots>
bool counts_fit_int(const Slots&... counts) {
  return (fits_int(counts.get()) && ...);
}

// Counts and displacements arrays of int elements: the int function takes them
// (otherwise, MPI_Count or MPI_Aint elements, only the _c twin does).
template <typename... Slots>
inline constexpr bool int_arrays =
    (std::same_as<
         std::remove_cvref_t<decltype(*std::declval<const std::remove_cvref_t<Slots>&>().data())>,
         int> &&
     ...);

// A count as the int function takes it (counts_fit_int held) and as the _c twin takes it.
template <typename Slot>
int to_mpi_count(const Slot& count) {
  return static_cast<int>(count.get());
}
template <typename Slot>
MPI_Count to_mpi_large_count(const Slot& count) {
  return static_cast<MPI_Count>(count.get());
}

// n ints copied into a new array of MPI_Count or MPI_Aint (each a long or a long long; the
// pointer's type says which), for widened_ints below.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE long* widened_copy(const int* from, std::size_t n, long*);
[[gnu::noinline]] NAMPI_OUT_OF_LINE long long* widened_copy(const int* from, std::size_t n,
                                                            long long*);
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE long* widened_copy(const int* from, std::size_t n, long*) {
  long* to = new long[n == 0 ? 1 : n];
  std::copy(from, from + n, to);
  return to;
}
[[gnu::noinline]] NAMPI_OUT_OF_LINE long long* widened_copy(const int* from, std::size_t n,
                                                            long long*) {
  long long* to = new long long[n == 0 ? 1 : n];
  std::copy(from, from + n, to);
  return to;
}
#endif

// An int counts or displacements array as the _c twin's T (a long or a long long). The copy is
// made out of line: the calls' instances share it rather than each compiling its own
// allocation and (vectorized) copy loop, which cost a gatherv's instance about 0.1 G compiler
// instructions, a third of its compile (bench/README.md).
template <typename T>
class widened_ints {
 public:
  widened_ints(const int* from, std::size_t n)
      : data_(widened_copy(from, n, static_cast<T*>(nullptr))) {}
  widened_ints(const widened_ints&) = delete;
  widened_ints& operator=(const widened_ints&) = delete;
  ~widened_ints() { delete[] data_; }
  const T* data() const { return data_; }

 private:
  T* data_;
};

// A counts or displacements array as the _c twin takes it: the caller's array if
// its elements already have the twin's type, else a copy (only calls with a
// large count pay for it).
template <typename T, typename Slot>
auto to_mpi_large_array(const Slot& array) {
  using E = std::remove_cv_t<std::remove_pointer_t<decltype(array.data())>>;
  if constexpr (std::same_as<E, T>) {
    return std::span<const T>(array.data(), array.size());
  } else if constexpr (std::same_as<E, int> &&
                       (std::same_as<T, long> || std::same_as<T, long long>)) {
    return widened_ints<T>(array.data(), array.size());
  } else {
    // A scratch_array, not a std::vector: a path only counts beyond an int take, so the
    // lighter type is what every unit that calls compiles.
    scratch_array<T> copy(array.size());
    std::copy(array.data(), array.data() + array.size(), copy.data());
    return copy;
  }
}

// The element type of a counts or displacements array slot.
template <typename Slot>
using array_element_t = std::remove_cvref_t<decltype(*std::declval<const Slot&>().data())>;

// The caller's counts array as elements of type To: itself if it has that type,
// else a checked copy (counts of one type, exchanged into an array of another).
template <typename To, typename Slot>
auto counts_as(const Slot& counts, const char* call, const char* what) {
  if constexpr (std::same_as<array_element_t<Slot>, To>) {
    return std::span<const To>(counts.data(), counts.size());
  } else {
    std::vector<To> copy(counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i)
      copy[i] = narrow<To>(counts.data()[i], call, what, "the element type of the counts array");
    return copy;
  }
}

// Stores a count into a slot whose type the caller may have chosen (an int
// given to *_count_out), checked to fit (narrow.hpp).
template <typename Out, typename Value>
void set_count(Out& out, Value value, const char* call, const char* what) {
  out.set(narrow<typename Out::object_type>(value, call, what, "the count type given for it"));
}

// A call whose counts do not fit an int, on an MPI without its `_c` twin and
// without an emulation for them: say which call and which parameter, and what
// the call offers instead (large_count_alltoallw.hpp) where it has something.
[[noreturn]] inline void large_count_unsupported(
    const char* call, const char* twin, const char* params,
    const char* instead = "no emulation with a derived datatype for this call") {
  throw usage_error(std::string("nampi: ") + call + ": " + params +
                    " does not fit an int, and this MPI has no " + twin + " (" + instead + ")");
}

// `count` elements of `type` as something the int functions take: the count
// itself if it fits an int; else one element of a derived datatype made of
// blocks of 2^30 elements (MPI_Type_vector) and the rest (MPI_Type_contiguous),
// joined by MPI_Type_create_struct, committed and freed with this object. The
// receiving side builds its type the same way from its own count; MPI matches
// type signatures, so either side may use the int form or this one.
class large_count_type {
 public:
  // Inline where the count fits (every call of a loop of small messages); the derived
  // datatype is made out of line.
  large_count_type(MPI_Count count, MPI_Datatype type) : count_(0), type_(type) {
    if (std::in_range<int>(count)) [[likely]] {
      count_ = static_cast<int>(count);
      return;
    }
    make_derived(count, type);
  }
  large_count_type(const large_count_type&) = delete;
  large_count_type& operator=(const large_count_type&) = delete;
  // MPI lets a type be freed while an operation that uses it is pending.
  ~large_count_type() {
    if (owned_) MPI_Type_free(&type_);
  }

  int count() const noexcept { return count_; }
  MPI_Datatype type() const noexcept { return type_; }

 private:
  [[gnu::noinline]] void make_derived(MPI_Count count, MPI_Datatype type) {
    constexpr MPI_Count block = MPI_Count{1} << 30;
    const MPI_Count blocks = count / block;
    const MPI_Count rest = count % block;
    NAMPI_ASSERT(std::in_range<int>(blocks), "count %lld is too large",
                 static_cast<long long>(count));
    MPI_Datatype body = MPI_DATATYPE_NULL;
    call_mpi("MPI_Type_vector", MPI_Type_vector, static_cast<int>(blocks), static_cast<int>(block),
             static_cast<int>(block), type, &body);
    if (rest == 0) {
      type_ = body;
    } else {
      MPI_Datatype tail = MPI_DATATYPE_NULL;
      call_mpi("MPI_Type_contiguous", MPI_Type_contiguous, static_cast<int>(rest), type, &tail);
      MPI_Aint lb = 0, extent = 0;
      call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &lb, &extent);
      int lengths[2] = {1, 1};
      MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(blocks * block) * extent};
      MPI_Datatype parts[2] = {body, tail};
      call_mpi("MPI_Type_create_struct", MPI_Type_create_struct, 2, lengths, displacements, parts,
               &type_);
      // The struct keeps what it needs of its parts.
      MPI_Type_free(&body);
      MPI_Type_free(&tail);
    }
    owned_ = true;  // from here on the destructor frees it
    call_mpi("MPI_Type_commit", MPI_Type_commit, &type_);
    count_ = 1;
  }

  int count_;
  MPI_Datatype type_;
  bool owned_ = false;
};

// A reduction of `count` elements of `type` (count above INT_MAX) on an MPI without the
// `_c` twin: reductions work element by element, so the int function runs on consecutive
// chunks of 2^30 elements. `call(chunk, offset)` issues one chunk: `chunk` elements from
// `offset` bytes into each buffer (advanced()).
template <typename Call>
void in_chunks(MPI_Count count, MPI_Datatype type, Call&& call) {
  MPI_Aint lb = 0, extent = 0;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &lb, &extent);
  constexpr MPI_Count chunk = MPI_Count{1} << 30;
  for (MPI_Count done = 0; done < count; done += chunk)
    call(static_cast<int>(std::min(chunk, count - done)), static_cast<MPI_Aint>(done) * extent);
}

// A buffer address `bytes` further on; null (MPI_BOTTOM, a buffer a rank does not use)
// and MPI_IN_PLACE stay what they are.
template <typename T>
T* advanced(T* buffer, MPI_Aint bytes) {
  using void_type = std::conditional_t<std::is_const_v<T>, const void, void>;
  using byte_type = std::conditional_t<std::is_const_v<T>, const char, char>;
  void_type* address = buffer;
  if (address == nullptr || address == MPI_IN_PLACE) return buffer;
  return static_cast<T*>(static_cast<void_type*>(static_cast<byte_type*>(address) + bytes));
}

// The number of `type` elements in a probed or received message, by
// MPI_Get_count. Where that cannot give it as an int (MPI_UNDEFINED): by
// MPI_Get_count_c where the MPI has it, else the byte count (MPI_Get_elements_x
// of MPI_BYTE) divided by the type's size. MPI_UNDEFINED if the message is not a
// whole number of elements.
inline MPI_Count element_count(const MPI_Status& status, MPI_Datatype type) {
  int small = 0;
  call_mpi("MPI_Get_count", MPI_Get_count, &status, type, &small);
  if (small != MPI_UNDEFINED) return small;
  MPI_Count count = MPI_UNDEFINED;
#if defined(NAMPI_HAVE_MPI_GET_COUNT_C)
  call_mpi("MPI_Get_count_c", MPI_Get_count_c, &status, type, &count);
#elif !defined(NAMPI_HAVE_MPI_GET_ELEMENTS_X)
  // No wider count (SimGrid's SMPI): a message too long for an int count stays MPI_UNDEFINED.
#else
  MPI_Count bytes = 0, size = 0;
  call_mpi("MPI_Get_elements_x", MPI_Get_elements_x, &status, MPI_BYTE, &bytes);
  call_mpi("MPI_Type_size_x", MPI_Type_size_x, type, &size);
  if (size > 0 && bytes != MPI_UNDEFINED && bytes % size == 0) count = bytes / size;
#endif
  return count;
}

}  // namespace nampi::detail
