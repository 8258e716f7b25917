// Which of the tasks run at once is running on this thread, for the one rule that depends on
// it: a communicator's collectives.
//
// MPI matches the collectives of a communicator by their order at each process. Tasks that
// run at once (the tasks given to one nampi::run, the parts of a when_all) are resumed in the
// order their requests complete, which differs from process to process: two of them calling
// collectives on one communicator would pair one task's collective with another's on some
// processes (a silently wrong result, or a hang). So, inside a run, the first strand that
// calls a collective on a communicator claims it, and a collective of another strand on it is
// refused (usage_error) at every process, whatever the order there. The task that awaits a
// when_all lends its communicators to the parts (it is suspended until they have all ended),
// and gets what they claimed when the last part ends.
//
// A strand is a task given to run() or a part of a when_all, with every task it awaits one
// after another (those run in its order, the same at every process). Generated calls of the
// bindings marked `collective` in spec/bindings/ call note_collective(); so do the plugins'.
// Outside tasks it costs one thread-local load.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "nampi/detail/trivial_vector.hpp"
#include "nampi/error.hpp"

namespace nampi::detail::coro {

class strand;

// One run's claims: the strand that calls the collectives of each communicator.
class collective_claims {
 public:
  inline void note(MPI_Comm comm, const strand& by, const char* call);
  // A when_all ended: its parts' claims pass to the task that awaited it.
  inline void pass_to(const strand& parent);
  void clear() noexcept { claims_.clear(); }

 private:
  struct claim {
    MPI_Comm comm;
    const strand* by;
  };
  trivial_vector<claim> claims_;
};

class strand {
 public:
  strand(collective_claims& claims, std::size_t index, const strand* parent) noexcept
      : claims_(&claims), index_(index), parent_(parent), note_(&note_on) {}

  collective_claims& claims() const noexcept { return *claims_; }

  // A collective of this strand on `comm` (note_collective). Through a pointer set where a
  // strand is made, so that only a unit that runs tasks compiles the claims' code (a unit
  // that only calls collectives would otherwise compile it, and its std::vector's growth,
  // for a branch it never takes: 0.09 s of every such unit's compile).
  void note(MPI_Comm comm, const char* call) const { note_(comm, *this, call); }
  const strand* parent() const noexcept { return parent_; }

  // "task 2 of the run", "part 1 of a when_all" (counted from 1), for messages.
  const char* kind() const noexcept { return parent_ == nullptr ? "task" : "part"; }
  const char* of() const noexcept { return parent_ == nullptr ? "the run" : "a when_all"; }
  std::size_t number() const noexcept { return index_ + 1; }

 private:
  static void note_on(MPI_Comm comm, const strand& by, const char* call) {
    by.claims().note(comm, by, call);
  }

  collective_claims* claims_;
  std::size_t index_;  // its place among the tasks started together, the same at every process
  const strand* parent_;
  void (*note_)(MPI_Comm, const strand&, const char*);
};

// The strand running on this thread (set by the scheduler around each resumption), or null.
inline thread_local strand* running_strand = nullptr;

void collective_claims::note(MPI_Comm comm, const strand& by, const char* call) {
  for (claim& c : claims_) {
    if (c.comm != comm) continue;
    if (c.by == &by) return;
    // The task awaiting this when_all (or one that awaits it) is suspended until every part
    // has ended: its communicator passes to this part, and back when the when_all ends.
    for (const strand* up = by.parent(); up != nullptr; up = up->parent()) {
      if (c.by == up) {
        c.by = &by;
        return;
      }
    }
    throw_usage_error(
        "%s: %s %zu of %s calls a collective on a communicator whose collectives %s %zu of %s "
        "calls; tasks that run at once reach their collectives in an order that differs from "
        "process to process, and MPI matches a communicator's collectives by their order: give "
        "each task a communicator of its own (comm.dup() before nampi::run), or await the tasks "
        "one after another",
        call, by.kind(), by.number(), by.of(), c.by->kind(), c.by->number(), c.by->of());
  }
  claims_.push_back({comm, &by});
}

void collective_claims::pass_to(const strand& parent) {
  for (claim& c : claims_)
    if (c.by->parent() == &parent) c.by = &parent;
}

// Called by a collective call on `comm` (an MPI_Comm, or anything with mpi_handle(): a
// communicator, a range of one) before it communicates.
inline void note_collective(MPI_Comm comm, const char* call) {
  if (strand* s = running_strand; s != nullptr) [[unlikely]]
    s->note(comm, call);
}
template <typename Comm>
inline void note_collective(const Comm& comm, const char* call) {
  note_collective(comm.mpi_handle(), call);
}

}  // namespace nampi::detail::coro
