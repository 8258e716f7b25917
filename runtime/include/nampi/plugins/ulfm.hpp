// The ulfm plugin: fault tolerance on an MPI with ULFM (User-Level Failure Mitigation; Open MPI 5
// launched with `mpirun --with-ft ulfm`).
//
//   nampi::BasicCommunicator<nampi::plugins::ulfm> comm;
//   try {
//     comm.allreduce_single(send_buf(x), op(std::plus<>{}));
//   } catch (const nampi::process_failed&) {  // a peer died (nampi::mpi_error)
//     comm.revoke();                          // every rank's pending and later calls fail
//     nampi::OwnedCommunicator survivors = comm.shrink();
//   } catch (const nampi::communicator_revoked&) {  // another rank revoked it
//     nampi::OwnedCommunicator survivors = comm.shrink();
//   }
//
// A failed peer surfaces as nampi::process_failed, a revoked communicator as
// nampi::communicator_revoked (nampi/error.hpp maps ULFM's error classes on every MPI that
// defines them; the plugin adds the calls).
//
// The members carry the MPI-6 names (revoke, is_revoked, get_failed, ack_failed, agree,
// iagree, shrink, ishrink) and call whichever function the MPI has: MPI_Comm_<name> where it
// declares MPI-6's, else ULFM's MPIX_Comm_<name>, as the configure-time probe found
// (NAMPI_HAVE_MPI_COMM_<NAME>, NAMPI_HAVE_MPIX_COMM_<NAME> in nampi/config.h), never by
// version. failure_ack and failure_get_acked are ULFM's older pair.
//
// The plugin needs shrink, revoke and agree, and that they work: the probe runs them once on
// one process (NAMPI_HAVE_ULFM). A symbol is not a working implementation: MPICH 5's ch4
// device declares and defines them and aborts in them, so there naming the plugin is one
// compile-time error that says so (NAMPI_ULFM_FAILED_RUN_CHECK); where they are not declared
// at all (Open MPI 4.1, the MPI 5 ABI's mpi_abi.h), another. A member the MPI lacks on its own
// (is_revoked, get_failed, ack_failed, iagree, ishrink) fails to compile only where it is used.
//
// Open MPI 5.0 as measured (tests/ulfm): a collective that a peer's death interrupts throws
// process_failed at the ranks that detected it and communicator_revoked at the others (its
// collectives revoke the communicator), so a handler takes both. After a failure its
// MPI_Finalize waits for the dead rank in about one run of three (open-mpi/ompi#11404).
#pragma once

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI declares the MPIX_ functions here
#endif

#include <cstddef>
#include <memory>
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/detail/configuration.hpp"
#include "nampi/detail/coroutine/strand.hpp"
#include "nampi/error.hpp"
#include "nampi/group.hpp"
#include "nampi/mpi/environment.hpp"
#include "nampi/plugin.hpp"
#include "nampi/plugins/ulfm_pending.hpp"

namespace nampi {
namespace detail::ulfm {

// An MPI function with its name (for the error an exception carries).
template <typename F>
struct function {
  const char* name;
  F* call;
};
template <typename F>
function(const char*, F*) -> function<F>;

// Each operation's function here: MPI-6's MPI_Comm_<op> where the MPI declares it, else
// ULFM's MPIX_Comm_<op>. NAMPI_ULFM_HAS_<OP> says that there is one.
#if defined(NAMPI_HAVE_MPI_COMM_REVOKE)
inline constexpr function revoke{"MPI_Comm_revoke", &MPI_Comm_revoke};
#elif defined(NAMPI_HAVE_MPIX_COMM_REVOKE)
inline constexpr function revoke{"MPIX_Comm_revoke", &MPIX_Comm_revoke};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_SHRINK)
inline constexpr function shrink{"MPI_Comm_shrink", &MPI_Comm_shrink};
#elif defined(NAMPI_HAVE_MPIX_COMM_SHRINK)
inline constexpr function shrink{"MPIX_Comm_shrink", &MPIX_Comm_shrink};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_AGREE)
inline constexpr function agree{"MPI_Comm_agree", &MPI_Comm_agree};
#elif defined(NAMPI_HAVE_MPIX_COMM_AGREE)
inline constexpr function agree{"MPIX_Comm_agree", &MPIX_Comm_agree};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_IS_REVOKED)
#define NAMPI_ULFM_HAS_IS_REVOKED 1
inline constexpr function is_revoked{"MPI_Comm_is_revoked", &MPI_Comm_is_revoked};
#elif defined(NAMPI_HAVE_MPIX_COMM_IS_REVOKED)
#define NAMPI_ULFM_HAS_IS_REVOKED 1
inline constexpr function is_revoked{"MPIX_Comm_is_revoked", &MPIX_Comm_is_revoked};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_GET_FAILED)
#define NAMPI_ULFM_HAS_GET_FAILED 1
inline constexpr function get_failed{"MPI_Comm_get_failed", &MPI_Comm_get_failed};
#elif defined(NAMPI_HAVE_MPIX_COMM_GET_FAILED)
#define NAMPI_ULFM_HAS_GET_FAILED 1
inline constexpr function get_failed{"MPIX_Comm_get_failed", &MPIX_Comm_get_failed};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_ACK_FAILED)
#define NAMPI_ULFM_HAS_ACK_FAILED 1
inline constexpr function ack_failed{"MPI_Comm_ack_failed", &MPI_Comm_ack_failed};
#elif defined(NAMPI_HAVE_MPIX_COMM_ACK_FAILED)
#define NAMPI_ULFM_HAS_ACK_FAILED 1
inline constexpr function ack_failed{"MPIX_Comm_ack_failed", &MPIX_Comm_ack_failed};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_IAGREE)
#define NAMPI_ULFM_HAS_IAGREE 1
inline constexpr function iagree{"MPI_Comm_iagree", &MPI_Comm_iagree};
#elif defined(NAMPI_HAVE_MPIX_COMM_IAGREE)
#define NAMPI_ULFM_HAS_IAGREE 1
inline constexpr function iagree{"MPIX_Comm_iagree", &MPIX_Comm_iagree};
#endif
#if defined(NAMPI_HAVE_MPI_COMM_ISHRINK)
#define NAMPI_ULFM_HAS_ISHRINK 1
inline constexpr function ishrink{"MPI_Comm_ishrink", &MPI_Comm_ishrink};
#elif defined(NAMPI_HAVE_MPIX_COMM_ISHRINK)
#define NAMPI_ULFM_HAS_ISHRINK 1
inline constexpr function ishrink{"MPIX_Comm_ishrink", &MPIX_Comm_ishrink};
#endif

// What iagree writes: the flag, AND-ed over the survivors.
struct agree_state {
  static constexpr const char* call = "iagree";
  MPI_Request request = MPI_REQUEST_NULL;
  int flag = 0;
  bool take() const { return flag != 0; }
  void discard() noexcept {}
};

// What ishrink writes: the new communicator, which gets the parent's error handler (taken
// at the start: the parent need not outlive the call's result).
struct shrink_state {
  static constexpr const char* call = "ishrink";
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Comm shrunk = MPI_COMM_NULL;
  mpi::unique_errhandler handler;
  OwnedCommunicator take() {
    OwnedCommunicator owner(shrunk);  // owns it before anything else can throw
    shrunk = MPI_COMM_NULL;
    mpi::comm_set_errhandler(mpi::comm(owner.mpi_communicator()), handler);
    return owner;
  }
  void discard() noexcept {
    if (shrunk != MPI_COMM_NULL) MPI_Comm_free(&shrunk);
  }
};

}  // namespace detail::ulfm

namespace plugins {

#ifdef NAMPI_HAVE_ULFM

template <typename Comm>
class ulfm_members {
  static_assert(!nampi::errors_are_fatal || detail::dependent_false<Comm>,
                "nampi: the ulfm plugin needs MPI errors returned (NAMPI_ERRORS_ARE_FATAL is set: "
                "a process failure would abort the job)");

 public:
  /// Revokes the communicator (MPI_Comm_revoke): every rank's pending and later calls on it
  /// (but shrink, agree, the failure queries) fail with nampi::communicator_revoked, so that
  /// the ranks which did not see the failure leave their calls too. Local, not collective.
  void revoke() const {
    detail::call_mpi(detail::ulfm::revoke.name, detail::ulfm::revoke.call, comm());
  }

  /// Whether the communicator was revoked, here or by another rank (MPI_Comm_is_revoked).
  bool is_revoked() const {
#ifdef NAMPI_ULFM_HAS_IS_REVOKED
    int flag = 0;
    detail::call_mpi(detail::ulfm::is_revoked.name, detail::ulfm::is_revoked.call, comm(), &flag);
    return flag != 0;
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: is_revoked() needs MPI_Comm_is_revoked or MPIX_Comm_is_revoked, "
                  "which this MPI lacks");
    return false;
#endif
  }

  /// A new communicator of the ranks that have not failed, in their order (MPI_Comm_shrink):
  /// collective over the survivors; works on a revoked communicator. It returns errors as
  /// this one does (its error handler is copied), so failures stay exceptions.
  OwnedCommunicator shrink() const {
    detail::coro::note_collective(comm(), "shrink");  // one task of a run per communicator
    MPI_Comm shrunk = MPI_COMM_NULL;
    detail::call_mpi(detail::ulfm::shrink.name, detail::ulfm::shrink.call, comm(), &shrunk);
    OwnedCommunicator owner(shrunk);  // owns it before anything else can throw
    // The typed layer's owner frees the reference get_errhandler added (not a predefined one).
    mpi::comm_set_errhandler(mpi::comm(shrunk), mpi::comm_get_errhandler(mpi::comm(comm())));
    return owner;
  }

  /// shrink(), started (MPI_Comm_ishrink): the result's wait() returns the new communicator.
  auto ishrink() const {
#ifdef NAMPI_ULFM_HAS_ISHRINK
    detail::coro::note_collective(comm(), "ishrink");  // one task of a run per communicator
    auto state = std::make_unique<detail::ulfm::shrink_state>();
    state->handler = mpi::comm_get_errhandler(mpi::comm(comm()));
    detail::call_mpi(detail::ulfm::ishrink.name, detail::ulfm::ishrink.call, comm(), &state->shrunk,
                     &state->request);
    return ulfm_pending<detail::ulfm::shrink_state>(std::move(state));
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: ishrink() needs MPI_Comm_ishrink or MPIX_Comm_ishrink, which this "
                  "MPI lacks");
    return ulfm_pending<detail::ulfm::shrink_state>(nullptr);
#endif
  }

  /// The logical AND of every surviving rank's `flag` (MPI_Comm_agree): collective, works on
  /// a revoked communicator. Throws process_failed where a rank failed that this rank has not
  /// acknowledged (ack_failed): the value is still agreed, but then not returned.
  bool agree(bool flag) const {
    detail::coro::note_collective(comm(), "agree");  // one task of a run per communicator
    int value = flag ? 1 : 0;
    detail::call_mpi(detail::ulfm::agree.name, detail::ulfm::agree.call, comm(), &value);
    return value != 0;
  }

  /// agree(flag), started (MPI_Comm_iagree): the result's wait() returns the agreed value.
  auto iagree(bool flag) const {
#ifdef NAMPI_ULFM_HAS_IAGREE
    detail::coro::note_collective(comm(), "iagree");  // one task of a run per communicator
    auto state = std::make_unique<detail::ulfm::agree_state>();
    state->flag = flag ? 1 : 0;
    detail::call_mpi(detail::ulfm::iagree.name, detail::ulfm::iagree.call, comm(), &state->flag,
                     &state->request);
    return ulfm_pending<detail::ulfm::agree_state>(std::move(state));
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: iagree() needs MPI_Comm_iagree or MPIX_Comm_iagree, which this "
                  "MPI lacks");
    (void)flag;
    return ulfm_pending<detail::ulfm::agree_state>(nullptr);
#endif
  }

  /// Acknowledges the failures this rank knows of (MPIX_Comm_failure_ack, or ack_failed of
  /// all of get_failed() where only MPI-6's pair exists): MPI_ANY_SOURCE receives and agree
  /// no longer fail because of them.
  void failure_ack() const {
#ifdef NAMPI_HAVE_MPIX_COMM_FAILURE_ACK
    detail::call_mpi("MPIX_Comm_failure_ack", MPIX_Comm_failure_ack, comm());
#elif defined(NAMPI_ULFM_HAS_ACK_FAILED) && defined(NAMPI_ULFM_HAS_GET_FAILED)
    ack_failed(get_failed().size());
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: failure_ack() needs MPIX_Comm_failure_ack or "
                  "MPI_Comm_ack_failed, which this MPI lacks");
#endif
  }

  /// The failed ranks acknowledged so far, as a group (MPIX_Comm_failure_get_acked, or the
  /// first ack_failed(0) of get_failed()'s group).
  group failure_get_acked() const {
#ifdef NAMPI_HAVE_MPIX_COMM_FAILURE_GET_ACKED
    MPI_Group acked = MPI_GROUP_NULL;
    detail::call_mpi("MPIX_Comm_failure_get_acked", MPIX_Comm_failure_get_acked, comm(), &acked);
    return group(acked);
#elif defined(NAMPI_ULFM_HAS_ACK_FAILED) && defined(NAMPI_ULFM_HAS_GET_FAILED)
    // The acknowledged ones lead get_failed's group (MPI-6's ULFM).
    group failed = get_failed();
    const int acked = ack_failed(0);
    std::vector<int> ranks(static_cast<std::size_t>(acked));
    for (int i = 0; i < acked; ++i) ranks[static_cast<std::size_t>(i)] = i;
    return failed.incl(ranks);
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: failure_get_acked() needs MPIX_Comm_failure_get_acked or "
                  "MPI_Comm_get_failed and MPI_Comm_ack_failed, which this MPI lacks");
    return group();
#endif
  }

  /// Every failed rank this rank knows of, acknowledged or not (MPI_Comm_get_failed).
  group get_failed() const {
#ifdef NAMPI_ULFM_HAS_GET_FAILED
    MPI_Group failed = MPI_GROUP_NULL;
    detail::call_mpi(detail::ulfm::get_failed.name, detail::ulfm::get_failed.call, comm(), &failed);
    return group(failed);
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: get_failed() needs MPI_Comm_get_failed or MPIX_Comm_get_failed, "
                  "which this MPI lacks");
    return group();
#endif
  }

  /// Acknowledges the first `count` ranks of get_failed()'s group; returns how many are
  /// acknowledged now (MPI_Comm_ack_failed; count 0 only asks).
  int ack_failed(int count) const {
#ifdef NAMPI_ULFM_HAS_ACK_FAILED
    int acked = 0;
    detail::call_mpi(detail::ulfm::ack_failed.name, detail::ulfm::ack_failed.call, comm(), count,
                     &acked);
    return acked;
#else
    static_assert(detail::dependent_false<Comm>,
                  "nampi: ulfm: ack_failed() needs MPI_Comm_ack_failed or MPIX_Comm_ack_failed, "
                  "which this MPI lacks");
    (void)count;
    return 0;
#endif
  }

 private:
  MPI_Comm comm() const { return static_cast<const Comm&>(*this).mpi_communicator(); }
};

#else  // !NAMPI_HAVE_ULFM

// The members without ULFM: the class's one static_assert is the only message; the members
// return detail::failed_call (it converts to anything), or for iagree and ishrink a result
// whose members do, so calls to them add none.
struct failed_pending {
  detail::failed_call wait() const { return {}; }
  detail::failed_call test() const { return {}; }
  bool valid() const { return false; }
};

template <typename Comm>
class ulfm_members {
#ifdef NAMPI_ULFM_FAILED_RUN_CHECK
  static_assert(detail::dependent_false<Comm>,
                "nampi: the ulfm plugin needs an MPI whose ULFM works; this one declares "
                "shrink, revoke and agree, but they failed nampi's configure-time run check "
                "(MPICH 5's ch4 device aborts in them; see nampi/config.h)");
#else
  static_assert(detail::dependent_false<Comm>,
                "nampi: the ulfm plugin needs an MPI with ULFM (MPI_Comm_shrink or "
                "MPIX_Comm_shrink); this one lacks it");
#endif

 public:
  detail::failed_call revoke() const { return {}; }
  detail::failed_call is_revoked() const { return {}; }
  detail::failed_call shrink() const { return {}; }
  failed_pending ishrink() const { return {}; }
  detail::failed_call agree(bool) const { return {}; }
  failed_pending iagree(bool) const { return {}; }
  detail::failed_call failure_ack() const { return {}; }
  detail::failed_call failure_get_acked() const { return {}; }
  detail::failed_call get_failed() const { return {}; }
  detail::failed_call ack_failed(int) const { return {}; }
};

#endif  // NAMPI_HAVE_ULFM

template <typename Comm>
using ulfm = ulfm_members<Comm>;

}  // namespace plugins
}  // namespace nampi
