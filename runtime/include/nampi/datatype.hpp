// Dynamic datatypes: nampi::datatype owns one committed MPI datatype (move-only,
// freed with MPI_Type_free, a predefined handle is never freed), made by the
// builder functions below, one per MPI type constructor. Pass it as
// send_type(t) / recv_type(t) / send_recv_type(t); with an explicit count,
// the call checks that count elements of the type fit the buffer.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/detail/trivial_vector.hpp"
#include "nampi/error.hpp"

namespace nampi {
namespace detail {

// The bytes [begin, end) that n elements of a datatype touch from the start of
// a buffer, given its true lower bound, true extent and extent (MPI's rule: an
// element starts `extent` bytes after the previous one).
inline std::pair<MPI_Aint, MPI_Aint> element_span(MPI_Aint true_lb, MPI_Aint true_extent,
                                                  MPI_Aint extent, std::size_t n) noexcept {
  if (n == 0) return {0, 0};
  const MPI_Aint step = static_cast<MPI_Aint>(n - 1) * extent;
  return {true_lb + std::min<MPI_Aint>(step, 0),
          true_lb + true_extent + std::max<MPI_Aint>(step, 0)};
}

}  // namespace detail

class datatype;

// The old type of a constructor: a C handle, a nampi::datatype or a typed handle.
class type_ref {
 public:
  type_ref(MPI_Datatype type) noexcept : type_(type) {}
  type_ref(mpi::datatype type) noexcept : type_(type.get()) {}
  inline type_ref(const datatype& type) noexcept;
  MPI_Datatype get() const noexcept { return type_; }
  operator mpi::datatype() const noexcept { return mpi::datatype(type_); }

 private:
  MPI_Datatype type_;
};

class datatype {
 public:
  using c_type = MPI_Datatype;

  datatype() noexcept = default;  // MPI_DATATYPE_NULL
  // Takes ownership of a type (a predefined one is kept but never freed) and
  // commits it if asked.
  explicit datatype(mpi::unique_datatype owned, bool commit = true) : owned_(std::move(owned)) {
    if (commit) detail::call_mpi("MPI_Type_commit", MPI_Type_commit, owned_.address());
    detail::call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, get(), &lb_, &extent_);
    detail::call_mpi("MPI_Type_get_true_extent", MPI_Type_get_true_extent, get(), &true_lb_,
                     &true_extent_);
  }

  // The MPI datatype, for C libraries and MPI calls of your own (this object still owns it);
  // get() is its older name.
  MPI_Datatype mpi_handle() const noexcept { return owned_.get(); }
  MPI_Datatype get() const noexcept { return owned_.get(); }
  bool is_null() const noexcept { return owned_.is_null(); }
  MPI_Aint lb() const noexcept { return lb_; }
  MPI_Aint extent() const noexcept { return extent_; }
  MPI_Aint true_lb() const noexcept { return true_lb_; }
  MPI_Aint true_extent() const noexcept { return true_extent_; }

  // The bytes `count` elements of this type touch, from the buffer's start
  // (negative if the type reaches before it).
  std::pair<MPI_Aint, MPI_Aint> span(std::size_t count) const noexcept {
    return detail::element_span(true_lb_, true_extent_, extent_, count);
  }

  // Builders: each creates the type with its MPI constructor and commits it. They call
  // MPI directly rather than through nampi::mpi (the typed layer's datatypes chapter is
  // not part of <nampi/nampi.hpp>: every program would parse it). Arrays that MPI reads
  // with one count must be as long as the first (checked in every build: nampi passes
  // that count).
  static datatype contiguous(int count, type_ref old) {
    return built("MPI_Type_contiguous", MPI_Type_contiguous, count, old.get());
  }
  static datatype vector(int count, int blocklength, int stride, type_ref old) {
    return built("MPI_Type_vector", MPI_Type_vector, count, blocklength, stride, old.get());
  }
  // stride in bytes
  static datatype hvector(int count, int blocklength, MPI_Aint stride, type_ref old) {
    return built("MPI_Type_create_hvector", MPI_Type_create_hvector, count, blocklength, stride,
                 old.get());
  }
  static datatype indexed(const std::vector<int>& blocklengths,
                          const std::vector<int>& displacements, type_ref old) {
    const int n = count_of("indexed", "blocklengths", blocklengths.size());
    same_length("indexed", "displacements", displacements.size(), blocklengths.size());
    return built("MPI_Type_indexed", MPI_Type_indexed, n, blocklengths.data(), displacements.data(),
                 old.get());
  }
  // displacements in bytes
  static datatype hindexed(const std::vector<int>& blocklengths,
                           const std::vector<MPI_Aint>& displacements, type_ref old) {
    const int n = count_of("hindexed", "blocklengths", blocklengths.size());
    same_length("hindexed", "displacements", displacements.size(), blocklengths.size());
    return built("MPI_Type_create_hindexed", MPI_Type_create_hindexed, n, blocklengths.data(),
                 displacements.data(), old.get());
  }
  static datatype indexed_block(int blocklength, const std::vector<int>& displacements,
                                type_ref old) {
    const int n = count_of("indexed_block", "displacements", displacements.size());
    return built("MPI_Type_create_indexed_block", MPI_Type_create_indexed_block, n, blocklength,
                 displacements.data(), old.get());
  }
  // displacements in bytes ("struct" is a keyword)
  static datatype structure(const std::vector<int>& blocklengths,
                            const std::vector<MPI_Aint>& displacements,
                            const std::vector<type_ref>& types) {
    const int n = count_of("structure", "blocklengths", blocklengths.size());
    same_length("structure", "displacements", displacements.size(), blocklengths.size());
    same_length("structure", "types", types.size(), blocklengths.size());
    detail::trivial_vector<MPI_Datatype> handles(types.size(), MPI_DATATYPE_NULL);
    for (std::size_t i = 0; i < types.size(); ++i) handles[i] = types[i].get();
    return built("MPI_Type_create_struct", MPI_Type_create_struct, n, blocklengths.data(),
                 displacements.data(), handles.data());
  }
  static datatype subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                           const std::vector<int>& starts, type_ref old, int order = MPI_ORDER_C) {
    const int n = count_of("subarray", "sizes", sizes.size());
    same_length("subarray", "subsizes", subsizes.size(), sizes.size());
    same_length("subarray", "starts", starts.size(), sizes.size());
    return built("MPI_Type_create_subarray", MPI_Type_create_subarray, n, sizes.data(),
                 subsizes.data(), starts.data(), order, old.get());
  }
  // A template only so that an MPI without MPI_Type_create_darray (SimGrid's SMPI) fails
  // where it is used.
  template <typename Unused = void>
  static datatype darray(int size, int rank, const std::vector<int>& gsizes,
                         const std::vector<int>& distribs, const std::vector<int>& dargs,
                         const std::vector<int>& psizes, type_ref old, int order = MPI_ORDER_C) {
#if defined(NAMPI_HAVE_MPI_TYPE_CREATE_DARRAY)
    const int n = count_of("darray", "gsizes", gsizes.size());
    same_length("darray", "distribs", distribs.size(), gsizes.size());
    same_length("darray", "dargs", dargs.size(), gsizes.size());
    same_length("darray", "psizes", psizes.size(), gsizes.size());
    return built("MPI_Type_create_darray", MPI_Type_create_darray, size, rank, n, gsizes.data(),
                 distribs.data(), dargs.data(), psizes.data(), order, old.get());
#else
    static_assert(detail::dependent_false<Unused>,
                  "nampi: the installed MPI does not provide MPI_Type_create_darray");
    (void)size, (void)rank, (void)gsizes, (void)distribs, (void)dargs, (void)psizes, (void)old,
        (void)order;
    return resized(old, 0, 0);
#endif
  }
  static datatype resized(type_ref old, MPI_Aint lb, MPI_Aint extent) {
    return built("MPI_Type_create_resized", MPI_Type_create_resized, old.get(), lb, extent);
  }

 private:
  // A new type from MPI's constructor `function` (its last argument: the new type), owned.
  template <typename Function, typename... Args>
  static datatype built(const char* name, Function function, Args... args) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    detail::call_mpi(name, function, args..., &made);
    return datatype(mpi::unique_datatype(mpi::detail::adopt_new, mpi::datatype(made)));
  }
  static int count_of(const char* builder, const char* array, std::size_t size) {
    return detail::narrow<int>(size, builder, array, "an int count");
  }
  static void same_length(const char* builder, const char* array, std::size_t size,
                          std::size_t count) {
    NAMPI_CHECK(size == count, "datatype::%s: '%s' holds %zu entries, %zu needed (one per block)",
                builder, array, size, count);
  }

  mpi::unique_datatype owned_;
  MPI_Aint lb_ = 0;
  MPI_Aint extent_ = 0;
  MPI_Aint true_lb_ = 0;
  MPI_Aint true_extent_ = 0;
};

inline type_ref::type_ref(const datatype& type) noexcept : type_(type.get()) {}

}  // namespace nampi
