// Partitioned calls (MPI 4.0): a persistent call whose message is split into
// equal partitions that travel independently.
//
// `auto send = comm.psend_init(send_buf(v), partitions(4), dest(1));` sets the
// call up once (the count per partition inferred as v.size() / 4). Each
// `send.start()` begins a round; the sender then marks the partitions whose
// data is final with `pready(i)`, `pready_range(lo, hi)` or
// `pready_list({i, j})`, and `wait()` completes the round once every
// partition was marked. The receiver (`comm.precv_init(recv_buf(w),
// partitions(4), source(0))`) starts, polls `parrived(i)` for the partitions
// it can use early, and waits.
//
// partitioned_call is a persistent_call (start, wait, test, value, start_all,
// MPI_Request_free on destruction); the partition operations exist on the
// side they belong to only: pready* on a receive, or parrived on a send, is a
// compile error that says so (and on a persistent_call there are none). Each
// needs a started call (checked at run time). Destroying a started
// send waits for it, which never returns unless every partition was marked.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/configuration.hpp"
#include "nampi/detail/infer.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/error.hpp"
#include "nampi/persistent.hpp"
#include "nampi/types.hpp"

namespace nampi {

// Which end of a partitioned message a call is (MPI_Psend_init or MPI_Precv_init).
enum class partition_side { send, recv };

template <partition_side Side, typename ArgList, std::size_t StatusIndex, typename... Slots>
class [[nodiscard]] partitioned_call : public persistent_call<ArgList, StatusIndex, Slots...> {
  using base = persistent_call<ArgList, StatusIndex, Slots...>;

 public:
  static constexpr partition_side side = Side;

  using base::base;

  // As persistent_call::start(), returning this call (for start().pready(0)).
  partitioned_call& start() {
    base::start();
    return *this;
  }

  // Marks partition `partition` of the started send ready (MPI_Pready).
  template <partition_side S = Side>
  partitioned_call& pready(int partition) {
    check_side<S, partition_side::send>();
#if defined(NAMPI_HAVE_MPI_PREADY)
    detail::call_mpi("MPI_Pready", MPI_Pready, partition, this->started_request("pready"));
#else
    not_provided<S, partition_side::send>();
    (void)partition;
#endif
    return *this;
  }

  // Marks partitions low..high (both included) ready (MPI_Pready_range).
  template <partition_side S = Side>
  partitioned_call& pready_range(int low, int high) {
    check_side<S, partition_side::send>();
#if defined(NAMPI_HAVE_MPI_PREADY_RANGE)
    detail::call_mpi("MPI_Pready_range", MPI_Pready_range, low, high,
                     this->started_request("pready_range"));
#else
    not_provided<S, partition_side::send>();
    (void)low, (void)high;
#endif
    return *this;
  }

  // Marks the listed partitions ready (MPI_Pready_list).
  template <partition_side S = Side>
  partitioned_call& pready_list(std::span<const int> partitions) {
    check_side<S, partition_side::send>();
#if defined(NAMPI_HAVE_MPI_PREADY_LIST)
    MPI_Request request = this->started_request("pready_list");
    // Some mpi.h declare the list without const (MPICH 4.0, Open MPI 5); MPI only reads it.
    detail::call_mpi(
        "MPI_Pready_list", MPI_Pready_list,
        detail::narrow<int>(partitions.size(), this->call_name(), "pready_list", "an int"),
        const_cast<int*>(partitions.data()), request);
#else
    not_provided<S, partition_side::send>();
    (void)partitions;
#endif
    return *this;
  }
  template <partition_side S = Side>
  partitioned_call& pready_list(std::initializer_list<int> partitions) {
    return pready_list<S>(std::span<const int>(partitions.begin(), partitions.size()));
  }

  // Has partition `partition` of the started receive arrived (MPI_Parrived)?
  // Its elements can then be read although wait() has not returned.
  template <partition_side S = Side>
  bool parrived(int partition) {
    check_side<S, partition_side::recv>();
#if defined(NAMPI_HAVE_MPI_PARRIVED)
    int flag = 0;
    detail::call_mpi("MPI_Parrived", MPI_Parrived, this->started_request("parrived"), partition,
                     &flag);
    return flag != 0;
#else
    not_provided<S, partition_side::recv>();
    (void)partition;
    return false;
#endif
  }

 private:
  // The operations are templates only to make these messages possible (S is always Side).
  template <partition_side S, partition_side Needed>
  static constexpr void check_side() {
    static_assert(S == Side, "nampi: a partitioned call's side is fixed by the call");
    static_assert(S != partition_side::recv || Needed == partition_side::recv,
                  "nampi: pready, pready_range and pready_list mark the partitions of a "
                  "partitioned send (psend_init); a receive polls them with parrived()");
    static_assert(S != partition_side::send || Needed == partition_side::send,
                  "nampi: parrived polls the partitions of a partitioned receive (precv_init); "
                  "a send marks them with pready()");
  }
  // Reported only where the side is right: a misuse gives one message.
  template <partition_side S, partition_side Needed>
  static constexpr void not_provided() {
    if constexpr (S == Side && S == Needed)
      static_assert(detail::dependent_false<std::integral_constant<partition_side, S>>,
                    "nampi: the installed MPI does not provide partitioned communication");
  }
};

namespace detail {

// Sets up a partitioned call (see family.hpp.j2): `init(slots..., request)`
// issues MPI_Psend_init or MPI_Precv_init on the slots in their final place.
template <partition_side Side, typename ArgList, std::size_t StatusIndex, typename Init,
          typename... Slots>
auto init_partitioned(const char* call, Init&& init, Slots&&... slots) {
  return partitioned_call<Side, ArgList, StatusIndex, std::remove_cvref_t<Slots>...>(
      start_tag{}, call, std::forward<Init>(init), std::forward<Slots>(slots)...);
}

}  // namespace detail
}  // namespace nampi
