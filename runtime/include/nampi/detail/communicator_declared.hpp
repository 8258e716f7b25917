// Communicator: an MPI communicator with every generated call as a member.
// OwnedCommunicator: one the program created (cart_create, ...), freed by its destructor.
// Here the calls are declared only (nampi/generated/all_calls.hpp); their definitions are in
// nampi/calls/<family>.hpp, which <nampi/communicator.hpp> includes all of and <nampi/core.hpp>
// none of.
#pragma once

#include <mpi.h>

#include <cstdlib>
#include <utility>

#include "nampi/detail/call_context.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/all_calls.hpp"

namespace nampi {

class OwnedCommunicator;
namespace detail {
template <typename Unused>
class basic_range_communicator;
}
using RangeCommunicator = detail::basic_range_communicator<void>;  // nampi/range_communicator.hpp
namespace detail {
template <typename Unused>
class basic_group;
}
using group = detail::basic_group<void>;  // nampi/group.hpp

class Communicator : public generated::all_calls<Communicator> {
 public:
  // MPI_COMM_WORLD.
  Communicator() : Communicator(MPI_COMM_WORLD) {}

  // Wraps (does not own) an MPI communicator; rank and size are read once so
  // that calls never ask MPI for them again. MPI_COMM_NULL gives a null
  // communicator (is_null()), as the ranks a new communicator leaves out get:
  // MPI cannot tell its rank and size.
  // Its own context (nampi/detail/own_context.hpp) is looked up too: none for MPI_COMM_WORLD, one
  // MPI_Comm_get_attr for another communicator (none if nampi made no context yet).
  explicit Communicator(MPI_Comm comm) : comm_(comm) {
    if (comm_ == MPI_COMM_NULL)
      set_null();
    else
      read_rank_and_size();
    context_ = detail::find_own_context(comm_);
  }
  // A view of the typed layer's handle (nampi::mpi::comm, or an owner such as
  // the unique_comm that nampi::mpi::comm_split returns, which keeps owning it).
  explicit Communicator(const mpi::comm& comm) : Communicator(comm.get()) {}

  // A view of an owned communicator is fine, but not of a temporary one: it
  // would be freed at the end of the statement and the view would dangle.
  Communicator(const Communicator&) = default;
  Communicator& operator=(const Communicator&) = default;
  Communicator(OwnedCommunicator&&) = delete;
  Communicator& operator=(OwnedCommunicator&&) = delete;
  Communicator(mpi::unique_comm&&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  // The MPI communicator, for C libraries (PETSc, HDF5, ...) and MPI calls of your own: every
  // nampi type that holds an MPI handle gives it by mpi_handle(). It stays this object's: do
  // not free it.
  MPI_Comm mpi_handle() const noexcept { return comm_; }
  MPI_Comm mpi_communicator() const noexcept { return comm_; }  // the same, by its older name
  // MPI_COMM_NULL: what a rank left out of a new communicator gets (rank
  // MPI_UNDEFINED, size 0); no call can run on it.
  bool is_null() const noexcept { return comm_ == MPI_COMM_NULL; }

  // The ranks first(f), first + stride(s), ... up to last(l) of this communicator, as a
  // range communicator: no MPI call, O(1) (nampi/range_communicator.hpp).
  template <typename... Args>
  RangeCommunicator range(Args&&... args) const;

  // The communicator's group (MPI_Comm_group; nampi/group.hpp).
  nampi::group group() const;

  // Intercommunicators (comm.intercomm_create(...)): whether this is one
  // (MPI_Comm_test_inter), and the size and group of the other side
  // (MPI_Comm_remote_size, MPI_Comm_remote_group; MPI reports an error on an
  // intracommunicator). rank() and size() are this side's. Defined in nampi/group.hpp.
  // Templates only so that an MPI without them (SimGrid's SMPI) fails where they are used.
  bool is_inter() const;
  template <typename Unused = void>
  int remote_size() const;
  template <typename Unused = void>
  nampi::group remote_group() const;

  // Ends the program on every process of this communicator's job (MPI_Abort),
  // with `errorcode` as the exit status where the environment allows. No
  // destructor runs; MPI_Abort does not return, and should it, std::abort ends
  // this process.
  [[noreturn]] void abort(int errorcode) const noexcept {
    MPI_Abort(comm_, errorcode);
    std::abort();
  }

  // Its backend is MPI itself: every call form the installed MPI has.
  template <typename Call>
  static constexpr bool provides = true;

  // What the inference rules of a call need to know (see infer.hpp).
  detail::call_context call_context(const char* call) const noexcept {
    return {call, comm_, rank_, size_};
  }

  // nampi's own context of this communicator (nampi/detail/own_context.hpp), or nullptr where it
  // has none (a communicator made without nampi).
  detail::own_context* own_context() const noexcept { return context_; }

 protected:
  struct null_tag {};
  explicit Communicator(null_tag) noexcept : comm_(MPI_COMM_NULL), rank_(MPI_UNDEFINED), size_(0) {}

  // Points this object at `comm` and reads its rank and size (none for MPI_COMM_NULL). An
  // adopted communicator is new to nampi: it has no own context unless adopt_created makes one.
  void assign(MPI_Comm comm) {
    set_null();
    comm_ = comm;
    if (comm_ != MPI_COMM_NULL) read_rank_and_size();
  }
  void context_of_created(detail::own_context* context) noexcept { context_ = context; }
  void set_null() noexcept {
    comm_ = MPI_COMM_NULL;
    rank_ = MPI_UNDEFINED;
    size_ = 0;
    context_ = nullptr;
  }

 private:
  void read_rank_and_size() {
    detail::call_mpi("MPI_Comm_rank", MPI_Comm_rank, comm_, &rank_);
    detail::call_mpi("MPI_Comm_size", MPI_Comm_size, comm_, &size_);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  detail::own_context* context_ = nullptr;
};

// A communicator this object owns: move-only, freed with MPI_Comm_free by its
// destructor unless it is MPI_COMM_NULL or predefined, or MPI is finalized
// (it died with MPI; asking costs one MPI_Finalized). Calls that create a
// communicator (comm.cart_create(...), ...) return one; it converts to a
// Communicator view wherever one is taken by reference.
class OwnedCommunicator : public Communicator {
 public:
  // MPI_COMM_NULL.
  OwnedCommunicator() noexcept : Communicator(null_tag{}) {}
  // Takes ownership of `comm` (a predefined communicator is used, never freed).
  explicit OwnedCommunicator(MPI_Comm comm) : Communicator(null_tag{}) { adopt(comm); }
  // Takes over what a typed-layer owner owns (nampi::mpi::comm_split(...), ...):
  // `owner` lets go, so the communicator is freed once, by this object.
  explicit OwnedCommunicator(mpi::unique_comm&& owner)
      : Communicator(null_tag{}), owner_(std::move(owner)) {
    assign(owner_.get());  // if reading rank and size throws, owner_ still frees it
  }

  OwnedCommunicator(const OwnedCommunicator&) = delete;
  OwnedCommunicator& operator=(const OwnedCommunicator&) = delete;
  OwnedCommunicator(OwnedCommunicator&& other) noexcept
      : Communicator(static_cast<const Communicator&>(other)),
        owner_(std::move(other.owner_)),
        pending_(std::exchange(other.pending_, MPI_COMM_NULL)),
        pending_shadow_(std::exchange(other.pending_shadow_, MPI_COMM_NULL)),
        shadow_request_(std::exchange(other.shadow_request_, MPI_REQUEST_NULL)) {
    other.set_null();
  }
  OwnedCommunicator& operator=(OwnedCommunicator&& other) noexcept {
    if (this != &other) {
      free_pending();
      owner_ = std::move(other.owner_);  // frees what this object owned
      pending_ = std::exchange(other.pending_, MPI_COMM_NULL);
      pending_shadow_ = std::exchange(other.pending_shadow_, MPI_COMM_NULL);
      shadow_request_ = std::exchange(other.shadow_request_, MPI_REQUEST_NULL);
      Communicator::operator=(static_cast<const Communicator&>(other));
      other.set_null();
    }
    return *this;
  }
  ~OwnedCommunicator() { free_pending(); }  // owner_ frees the rest

  // Frees what it owns, then owns `comm` and reads its rank and size (two MPI
  // calls, none for MPI_COMM_NULL). Generated calls hand it the communicator
  // they create (slot.hpp: to_mpi_new_comm).
  void adopt(MPI_Comm comm) {
    set_null();
    owner_ = mpi::unique_comm(mpi::comm(comm));
    assign(comm);
  }

  // adopt() for a communicator a nampi call just created (slot.hpp: to_mpi_new_comm), with
  // nampi's own context made for it: its processes are in the creating call together, so
  // the context's MPI_Comm_dup costs no extra synchronisation point in the program's order.
  void adopt_created(MPI_Comm comm) {
    set_null();
    owner_ = mpi::unique_comm(mpi::comm(comm));
    assign(comm);
    context_of_created(detail::make_own_context(comm));
  }

  // For a call that creates the communicator when it completes (comm.idup(),
  // slot.hpp: to_mpi_pending_new_comm): frees what this object owns and returns
  // where MPI writes the new handle. adopt_pending() takes it over (reads its rank
  // and size) once the call completed; this object is null until then, and frees
  // one never adopted.
  // nampi's own context of it starts here too, as one more MPI_Comm_idup of `parent` (the
  // same group in a context of its own), issued before the call's: every process starts
  // both at the same point, so no process waits inside wait() for a collective that another
  // has not started (a blocking MPI_Comm_dup there could). adopt_pending() waits for it
  // (MPI_Wait) and attaches it (MPI_Comm_set_attr).
  MPI_Comm* pending_handle(MPI_Comm parent) {
    adopt(MPI_COMM_NULL);
    free_pending();
    detail::call_mpi("MPI_Comm_idup", MPI_Comm_idup, parent, &pending_shadow_, &shadow_request_);
    return &pending_;
  }
  void adopt_pending() {
    if (pending_ == MPI_COMM_NULL) return;
    adopt(std::exchange(pending_, MPI_COMM_NULL));
    detail::call_mpi("MPI_Wait", MPI_Wait, &shadow_request_, MPI_STATUS_IGNORE);
    context_of_created(
        detail::attach_own_context(mpi_communicator(), std::exchange(pending_shadow_, MPI_COMM_NULL)));
  }

  // Gives up ownership: returns the MPI communicator, which the caller must free.
  MPI_Comm release() noexcept {
    set_null();
    return owner_.release().get();
  }

 private:
  // Frees the communicator with MPI_Comm_free unless it is null, predefined or
  // died with MPI_Finalize (nampi/detail/mpi/handles.hpp); this object's rank and size
  // are only a view of it.
  mpi::unique_comm owner_;
  MPI_Comm pending_ = MPI_COMM_NULL;  // written by MPI, not adopted yet (pending_handle)
  MPI_Comm pending_shadow_ = MPI_COMM_NULL;  // its own context's, the same
  MPI_Request shadow_request_ = MPI_REQUEST_NULL;

  void free_pending() noexcept {
    if (shadow_request_ != MPI_REQUEST_NULL && !mpi::detail::mpi_finalized()) {
      MPI_Wait(&shadow_request_, MPI_STATUS_IGNORE);  // started with the call's: completes too
      const mpi::unique_comm never_adopted(
          mpi::comm(std::exchange(pending_shadow_, MPI_COMM_NULL)));
    }
    if (pending_ == MPI_COMM_NULL) return;
    const mpi::unique_comm never_adopted(mpi::comm(std::exchange(pending_, MPI_COMM_NULL)));
  }
};

}  // namespace nampi
