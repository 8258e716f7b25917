// The ulfm plugin: fault tolerance on an MPI with ULFM (User-Level Failure Mitigation, the
// MPIX_Comm_* functions; Open MPI 5 launched with `mpirun --with-ft ulfm`).
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
// defines them; the plugin adds the calls). Whether the MPI has ULFM is probed at configure
// time (NAMPI_HAVE_ULFM in nampi/config.h: MPIX_Comm_shrink, _revoke and _agree declared and
// linkable); where it lacks them, naming the plugin is one compile-time error. A symbol is
// not a working implementation: MPICH 5 (ch4) declares these functions and aborts in
// MPIX_Comm_agree. The members that an MPI may lack on its own (is_revoked, get_failed,
// ack_failed) fail to compile only where they are used.
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
#include <vector>

#include "nampi/communicator.hpp"
#include "nampi/configuration.hpp"
#include "nampi/error.hpp"
#include "nampi/group.hpp"
#include "nampi/mpi/environment.hpp"
#include "nampi/plugin.hpp"

namespace nampi {
namespace detail::ulfm {

// False, but only once Comm is known: a static_assert on it fires where the plugin is used.
template <typename Comm>
inline constexpr bool never = false;

}  // namespace detail::ulfm

namespace plugins {

#ifdef NAMPI_HAVE_ULFM

template <typename Comm>
class ulfm_members {
  static_assert(!nampi::errors_are_fatal || detail::ulfm::never<Comm>,
                "nampi: the ulfm plugin needs MPI errors returned (NAMPI_ERRORS_ARE_FATAL is set: "
                "a process failure would abort the job)");

 public:
  /// Revokes the communicator (MPIX_Comm_revoke): every rank's pending and later calls on it
  /// (but shrink, agree, the failure queries) fail with nampi::communicator_revoked, so that
  /// the ranks which did not see the failure leave their calls too. Local, not collective.
  void revoke() const { detail::call_mpi("MPIX_Comm_revoke", MPIX_Comm_revoke, comm()); }

  /// Whether the communicator was revoked, here or by another rank (MPIX_Comm_is_revoked).
  bool is_revoked() const {
#ifdef NAMPI_HAVE_MPIX_COMM_IS_REVOKED
    int flag = 0;
    detail::call_mpi("MPIX_Comm_is_revoked", MPIX_Comm_is_revoked, comm(), &flag);
    return flag != 0;
#else
    static_assert(detail::ulfm::never<Comm>,
                  "nampi: ulfm: is_revoked() needs MPIX_Comm_is_revoked, which this MPI lacks");
    return false;
#endif
  }

  /// A new communicator of the ranks that have not failed, in their order (MPIX_Comm_shrink):
  /// collective over the survivors; works on a revoked communicator. It returns errors as
  /// this one does (its error handler is copied), so failures stay exceptions.
  OwnedCommunicator shrink() const {
    MPI_Comm shrunk = MPI_COMM_NULL;
    detail::call_mpi("MPIX_Comm_shrink", MPIX_Comm_shrink, comm(), &shrunk);
    OwnedCommunicator owner(shrunk);  // owns it before anything else can throw
    // The typed layer's owner frees the reference get_errhandler added (not a predefined one).
    mpi::comm_set_errhandler(mpi::comm(shrunk), mpi::comm_get_errhandler(mpi::comm(comm())));
    return owner;
  }

  /// The logical AND of every surviving rank's `flag` (MPIX_Comm_agree): collective, works on
  /// a revoked communicator. Throws process_failed where a rank failed that this rank has not
  /// acknowledged (failure_ack): the value is still agreed, but then not returned.
  bool agree(bool flag) const {
    int value = flag ? 1 : 0;
    detail::call_mpi("MPIX_Comm_agree", MPIX_Comm_agree, comm(), &value);
    return value != 0;
  }

  /// Acknowledges the failures this rank knows of (MPIX_Comm_failure_ack, or
  /// MPIX_Comm_ack_failed where only that exists): MPI_ANY_SOURCE receives and agree no
  /// longer fail because of them.
  void failure_ack() const {
#ifdef NAMPI_HAVE_MPIX_COMM_FAILURE_ACK
    detail::call_mpi("MPIX_Comm_failure_ack", MPIX_Comm_failure_ack, comm());
#elif defined(NAMPI_HAVE_MPIX_COMM_ACK_FAILED) && defined(NAMPI_HAVE_MPIX_COMM_GET_FAILED)
    ack_failed(get_failed().size());
#else
    static_assert(detail::ulfm::never<Comm>,
                  "nampi: ulfm: failure_ack() needs MPIX_Comm_failure_ack or "
                  "MPIX_Comm_ack_failed, which this MPI lacks");
#endif
  }

  /// The failed ranks acknowledged so far, as a group (MPIX_Comm_failure_get_acked, or the
  /// first MPIX_Comm_ack_failed(comm, 0) of MPIX_Comm_get_failed's group).
  group failure_get_acked() const {
#ifdef NAMPI_HAVE_MPIX_COMM_FAILURE_GET_ACKED
    MPI_Group acked = MPI_GROUP_NULL;
    detail::call_mpi("MPIX_Comm_failure_get_acked", MPIX_Comm_failure_get_acked, comm(), &acked);
    return group(acked);
#elif defined(NAMPI_HAVE_MPIX_COMM_ACK_FAILED) && defined(NAMPI_HAVE_MPIX_COMM_GET_FAILED)
    // The acknowledged ones lead get_failed's group (MPI-5 ULFM).
    group failed = get_failed();
    const int acked = ack_failed(0);
    std::vector<int> ranks(static_cast<std::size_t>(acked));
    for (int i = 0; i < acked; ++i) ranks[static_cast<std::size_t>(i)] = i;
    return failed.incl(ranks);
#else
    static_assert(detail::ulfm::never<Comm>,
                  "nampi: ulfm: failure_get_acked() needs MPIX_Comm_failure_get_acked or "
                  "MPIX_Comm_get_failed and MPIX_Comm_ack_failed, which this MPI lacks");
    return group();
#endif
  }

  /// Every failed rank this rank knows of, acknowledged or not (MPIX_Comm_get_failed).
  group get_failed() const {
#ifdef NAMPI_HAVE_MPIX_COMM_GET_FAILED
    MPI_Group failed = MPI_GROUP_NULL;
    detail::call_mpi("MPIX_Comm_get_failed", MPIX_Comm_get_failed, comm(), &failed);
    return group(failed);
#else
    static_assert(detail::ulfm::never<Comm>,
                  "nampi: ulfm: get_failed() needs MPIX_Comm_get_failed, which this MPI lacks");
    return group();
#endif
  }

  /// Acknowledges the first `count` ranks of get_failed()'s group; returns how many are
  /// acknowledged now (MPIX_Comm_ack_failed; count 0 only asks).
  int ack_failed(int count) const {
#ifdef NAMPI_HAVE_MPIX_COMM_ACK_FAILED
    int acked = 0;
    detail::call_mpi("MPIX_Comm_ack_failed", MPIX_Comm_ack_failed, comm(), count, &acked);
    return acked;
#else
    static_assert(detail::ulfm::never<Comm>,
                  "nampi: ulfm: ack_failed() needs MPIX_Comm_ack_failed, which this MPI lacks");
    (void)count;
    return 0;
#endif
  }

 private:
  MPI_Comm comm() const { return static_cast<const Comm&>(*this).mpi_communicator(); }
};

#else  // !NAMPI_HAVE_ULFM

// The members without ULFM: the class's one static_assert is the only message; the members
// return detail::failed_call (it converts to anything), so calls to them add none.
template <typename Comm>
class ulfm_members {
  static_assert(detail::ulfm::never<Comm>,
                "nampi: the ulfm plugin needs an MPI with ULFM (MPIX_Comm_shrink); this one "
                "lacks it");

 public:
  detail::failed_call revoke() const { return {}; }
  detail::failed_call is_revoked() const { return {}; }
  detail::failed_call shrink() const { return {}; }
  detail::failed_call agree(bool) const { return {}; }
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
