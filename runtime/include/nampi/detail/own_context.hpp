// nampi's own communication context of a communicator: a duplicate of it (MPI_Comm_dup, the
// "shadow") on which nampi's own algorithms send their messages: range collectives, sparse
// all-to-all, janus_sort, the global RPCs (nampi::universe). A message on the shadow can match only
// a receive on the shadow, so no receive or probe of the program (wildcards included) takes one of
// nampi's messages, and nampi never takes the program's, whatever the tags (the MPI standard's
// advice to libraries).
//
// Where a shadow is made (each is one collective MPI_Comm_dup over the communicator, at a
// point where its processes make a collective call anyway):
//  * MPI_COMM_WORLD: in nampi::Environment's constructor;
//  * every communicator a nampi call creates (split, dup, create, cart_create, ...): right
//    after the MPI call that creates it (adopt_created in communicator.hpp); idup starts a
//    second MPI_Comm_idup beside its own and attaches it in wait() (pending_handle).
// The shadow is an attribute of the communicator (a keyval of nampi's): freeing the
// communicator frees it; a communicator wrapped from a raw MPI_Comm finds it there
// (MPI_Comm_get_attr), and one made without nampi has none: nampi's algorithms refuse to run
// on it (usage_error) instead of sending on the program's context.
//
// Tags on the shadow: below collective_tags_begin the fixed tags of nampi's algorithms
// (own_tags), from it the range collectives' (range/collective_start.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/splitmix.hpp"
#include "nampi/detail/std_parts.hpp"  // std::min, std::max, std::lower_bound without <algorithm>
#include "nampi/detail/trivial_vector.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

namespace own_tags {
inline constexpr int janus_first = 0;              // janus_sort's element messages: 384 tags
inline constexpr int sparse_alltoall_first = 400;  // sparse all-to-all: 2 tags
inline constexpr int rpc = 402;                    // the global RPCs (global/rpc.hpp)
inline constexpr int sparse_barrier_first = 403;   // sparse all-to-all's own barrier: 2 tags
inline constexpr int collective_tags_begin = 1024;
}  // namespace own_tags

// What identifies a range for its collectives: its processes (first, stride, size on the
// parent), the tag it was given (or -1), and whether its parent is a shadow itself (nampi's
// internal ranges, janus_sort's).
struct range_identity {
  int first;
  int stride;
  int size;
  int tag;
  bool internal;

  friend bool operator==(const range_identity&, const range_identity&) = default;
  friend auto operator<=>(const range_identity&, const range_identity&) = default;
};

// The same at every process (splitmix64 of the range's numbers): where a range's collectives
// start among the tag blocks (range/collective_start.hpp).
inline std::uint64_t range_hash(const range_identity& id) noexcept {
  std::uint64_t x = 0;
  for (const std::uint64_t part :
       {static_cast<std::uint64_t>(static_cast<std::uint32_t>(id.first)),
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(id.stride)),
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(id.size)),
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(id.tag)),
        static_cast<std::uint64_t>(id.internal)}) {
    x ^= part;
    x = splitmix64(x);
  }
  return x;
}

class own_context {
 public:
  explicit own_context(MPI_Comm shadow) noexcept : comm_(shadow) {}
  own_context(const own_context&) = delete;
  own_context& operator=(const own_context&) = delete;

  // The shadow communicator.
  MPI_Comm comm() const noexcept { return comm_; }

  // Starts a collective on the range `id` at this process (whose parent rank is `me`): its
  // sequence number on the range, counted from 0 by each of its processes (they call its
  // collectives in the same order, as MPI requires of a communicator's members, so they
  // agree on it), picks its tags: slot (hash + sequence) % slots. A second collective whose
  // messages could be taken for those of one in flight here is refused (usage_error naming
  // both calls and ranges) before it counts or sends anything: the same slot on the same
  // range (slots collectives in flight on it), or on another range that shares this process
  // and at least one more. Returns the slot; end_collective(ticket) when it completes.
  struct ticket {
    std::uint64_t id;
    std::uint64_t slot;
  };
  ticket begin_collective(const range_identity& range, int me, const char* call,
                          std::uint64_t slots) {
    const spin_guard held(lock_);
    sequence& seq = sequence_of(range);
    const std::uint64_t slot = (seq.hash + seq.next) % slots;
    for (const in_flight_entry& other : in_flight_)
      if (other.slot == slot && (other.range == range || share_two(other.range, range, me)))
        throw_usage_error(
            "%s on the range first %d, stride %d, size %d (tag %d) of its communicator: %s on "
            "the range first %d, stride %d, size %d (tag %d), which shares processes with it, is "
            "in flight at this process on the same internal tags; wait for it first, or make one "
            "of the ranges with another tag(t)",
            call, range.first, range.stride, range.size, range.tag, other.call, other.range.first,
            other.range.stride, other.range.size, other.range.tag);
    ++seq.next;
    in_flight_.push_back({++last_id_, slot, range, call});
    return {last_id_, slot};
  }
  void end_collective(std::uint64_t id) noexcept {
    const spin_guard held(lock_);
    if (!in_flight_.empty() && in_flight_.back().id == id) {  // the last begun: most often
      in_flight_.pop_back();
      return;
    }
    in_flight_.erase_if([id](const in_flight_entry& e) { return e.id == id; });
  }

  // Which of its two tags the next call of an algorithm that alternates them uses (sparse
  // all-to-all, plugins/sparse_alltoall.hpp): 0, 1, 0, ... Kept here, not in an attribute,
  // so that a call asks MPI nothing for it; every view of the communicator shares it.
  int next_alternating_tag() noexcept { return static_cast<int>(alternations_.fetch_add(1) & 1U); }

  // nampi::tasks (nampi/task.hpp) made with the communicator and not finished: each holds one
  // (task_lease), so that freeing the communicator under them is refused (free_own_context).
  void hold_task() noexcept { tasks_.fetch_add(1); }
  void release_task() noexcept { tasks_.fetch_add(-1); }
  long tasks() const noexcept { return tasks_.load(); }

 private:
  struct sequence {
    range_identity range;
    std::uint64_t next;  // the sequence number of its next collective
    std::uint64_t hash;  // range_hash(range), computed once
    // Kept sorted by range (lower_bound above).
    friend bool operator<(const sequence& a, const sequence& b) noexcept {
      return a.range < b.range;
    }
  };
  struct in_flight_entry {
    std::uint64_t id;
    std::uint64_t slot;
    range_identity range;
    const char* call;
  };

  // The range's entry (made at its first collective here). A loop of collectives on one
  // range finds it at once (last_sequence_); other ranges by binary search.
  sequence& sequence_of(const range_identity& range) {
    if (last_sequence_ < sequences_.size() && sequences_[last_sequence_].range == range)
      return sequences_[last_sequence_];
    return find_sequence(range);
  }
  [[gnu::noinline]] sequence& find_sequence(const range_identity& range) {
    const sequence* at =
        std::lower_bound(sequences_.begin(), sequences_.end(), sequence{range, 0, 0});
    const auto index = static_cast<std::size_t>(at - sequences_.begin());
    if (at == sequences_.end() || at->range != range)
      sequences_.insert(index, sequence{range, 0, range_hash(range)});
    last_sequence_ = index;
    return sequences_[index];
  }

  // Whether the ranges a and b (both holding the parent rank `me`) hold another process in
  // common: their common ranks are me + k * lcm(stride_a, stride_b).
  static bool share_two(const range_identity& a, const range_identity& b, int me) noexcept {
    long long x = a.stride, y = b.stride;
    while (y != 0) x = std::exchange(y, x % y);
    const long long step = static_cast<long long>(a.stride) / x * b.stride;
    const long long lo = std::max(a.first, b.first);
    const long long hi = std::min(a.first + static_cast<long long>(a.size - 1) * a.stride,
                                  b.first + static_cast<long long>(b.size - 1) * b.stride);
    return me + step <= hi || me - step >= lo;
  }

  MPI_Comm comm_;
  atomic_cell<bool> lock_;  // threads of MPI_THREAD_MULTIPLE may run collectives at once
  trivial_vector<sequence> sequences_;  // sorted by range
  std::size_t last_sequence_ = 0;       // the entry found last
  trivial_vector<in_flight_entry> in_flight_;
  std::uint64_t last_id_ = 0;
  atomic_cell<long> tasks_{0};
  atomic_cell<unsigned> alternations_{0};
};

// A range collective's registration at its context while it is in flight (move-only):
// own_context::begin_collective's ticket, ended when the collective completes.
class collective_in_flight {
 public:
  collective_in_flight() noexcept = default;
  collective_in_flight(own_context* context, std::uint64_t id) noexcept
      : context_(context), id_(id) {}
  collective_in_flight(collective_in_flight&& other) noexcept
      : context_(std::exchange(other.context_, nullptr)), id_(other.id_) {}
  collective_in_flight& operator=(collective_in_flight&& other) noexcept {
    if (this != &other) {
      end();
      context_ = std::exchange(other.context_, nullptr);
      id_ = other.id_;
    }
    return *this;
  }
  ~collective_in_flight() { end(); }

  void end() noexcept {
    if (context_ != nullptr) std::exchange(context_, nullptr)->end_collective(id_);
  }

 private:
  own_context* context_ = nullptr;
  std::uint64_t id_ = 0;
};

// The keyval under which a communicator keeps its own_context; MPI_KEYVAL_INVALID until the
// first context is made (so that looking one up before issues no MPI call).
inline atomic_cell<int>& own_context_keyval() {
  static atomic_cell<int> keyval(MPI_KEYVAL_INVALID);
  return keyval;
}

// The attribute's delete callback (MPI_Comm_free of the communicator, MPI_Comm_delete_attr):
// frees the shadow and the context. A dup of the communicator by MPI_Comm_dup does not copy
// it (MPI_COMM_NULL_COPY_FN): the dup has no context of its own unless nampi made it.
// A task that has not finished would go on with a freed communicator (a dangling handle, or
// one MPI gives to the next communicator it makes): the program ends here, saying so.
inline int free_own_context(MPI_Comm, int, void* value, void*) {
  auto* context = static_cast<own_context*>(value);
  if (const long tasks = context->tasks(); tasks > 0) {
    std::fprintf(stderr,
                 "nampi: a communicator is being freed while %ld nampi::task%s made with it "
                 "%s not finished; a task must not outlive its communicator (run it to its "
                 "end, or destroy it, before the communicator goes)\n",
                 tasks, tasks == 1 ? "" : "s", tasks == 1 ? "has" : "have");
    std::abort();
  }
  MPI_Comm shadow = context->comm();
  delete context;
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized ? MPI_SUCCESS : MPI_Comm_free(&shadow);
}

// MPI_COMM_WORLD's context, once nampi::Environment made it (found without an MPI call).
inline atomic_cell<own_context*>& world_own_context() {
  static atomic_cell<own_context*> context(nullptr);
  return context;
}

// The context of `comm`, or nullptr where it has none.
inline own_context* find_own_context(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return world_own_context().load();
  const int keyval = own_context_keyval().load();
  if (keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return nullptr;
  void* value = nullptr;
  int found = 0;
  call_mpi("MPI_Comm_get_attr", MPI_Comm_get_attr, comm, keyval, &value, &found);
  return found ? static_cast<own_context*>(value) : nullptr;
}

// Makes `shadow` (a communicator of comm's group in a context of its own, which the context
// then owns) the context of `comm`: one MPI_Comm_set_attr (the keyval exists: make_own_context
// made it, or the Environment).
inline own_context* attach_own_context(MPI_Comm comm, MPI_Comm shadow) {
  auto* context = new own_context(shadow);
  const int code = MPI_Comm_set_attr(comm, own_context_keyval().load(), context);
  if (code != MPI_SUCCESS) {
    delete context;
    MPI_Comm_free(&shadow);
    throw_mpi_error("MPI_Comm_set_attr", code);
  }
  return context;
}

// Makes the context of `comm` (collective over comm: MPI_Comm_dup, then MPI_Comm_set_attr),
// or returns the one it has. The keyval is created with the first (in nampi::Environment, so
// that a communicator's creation issues the same MPI calls every time).
inline own_context* make_own_context(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return nullptr;
  int keyval = own_context_keyval().load();
  if (keyval == MPI_KEYVAL_INVALID) {
    call_mpi("MPI_Comm_create_keyval", MPI_Comm_create_keyval, MPI_COMM_NULL_COPY_FN,
             &free_own_context, &keyval, nullptr);
    own_context_keyval().store(keyval);
  }
  if (comm == MPI_COMM_WORLD) {
    if (own_context* made = world_own_context().load()) return made;
  }
  MPI_Comm shadow = MPI_COMM_NULL;
  call_mpi("MPI_Comm_dup", MPI_Comm_dup, comm, &shadow);
  own_context* context = attach_own_context(comm, shadow);
  if (comm == MPI_COMM_WORLD) world_own_context().store(context);
  return context;
}

// The communicator an algorithm of nampi sends on for a communicator with `context` (range
// collectives, plugins, janus_sort): its shadow; a usage_error where it has none, before
// anything is sent.
inline MPI_Comm own_comm(own_context* context, const char* call) {
  NAMPI_CHECK(context != nullptr,
              "%s: the communicator has no nampi context to send on (nampi makes one in "
              "nampi::Environment for MPI_COMM_WORLD and for each communicator a nampi call "
              "creates, such as comm.split(...) or comm.dup())",
              call);
  return context->comm();
}

// Frees MPI_COMM_WORLD's context before MPI_Finalize (MPI_Finalize runs the delete callbacks
// of MPI_COMM_SELF's attributes only): nampi::Environment's destructor, or the callback that
// frees nampi's handles where the program finalizes MPI itself.
inline void free_world_own_context() noexcept {
  if (world_own_context().exchange(nullptr) == nullptr) return;
  MPI_Comm_delete_attr(MPI_COMM_WORLD, own_context_keyval().load());
}

}  // namespace nampi::detail
