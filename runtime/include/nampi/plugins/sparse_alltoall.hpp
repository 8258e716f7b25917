// The sparse_alltoall plugin: comm.alltoallv_sparse(sparse_send_buf(msgs), on_message(f))
// sends each (destination, message) pair of `msgs` and hands every message that reaches
// this rank to f; without on_message it returns the received (source, message) pairs.
//
// NBX (Hoefler, Siebert, Lumsdaine: "Scalable communication protocols for dynamic sparse data
// exchange"): every message goes by a synchronous send (MPI_Issend completes only once its
// receiver has matched it); the rank probes for messages and, once all its sends completed,
// enters a nonblocking barrier; when the barrier completes every message of every rank has
// been matched, so the exchange is over. No O(p) array, no counts exchanged: a rank's cost
// follows the messages it sends and receives. Empty messages are not sent.
//
// Its messages go on nampi's own context of the communicator (nampi/detail/own_context.hpp), where
// no message of the program meets them, on two tags (nampi's own barrier, below, on two more),
// one call the one, the next call the other: a rank that has left a call's barrier may already
// send the next call's messages to a rank that still probes for the last of this call's,
// which must not take them. (Two tags are enough: no
// rank leaves a call's barrier before every rank has finished the call before.) Which tag
// is next is kept in the communicator's own context (no MPI call), so every view of it
// agrees; a duplicate starts afresh.
// Messages are found by matched probes (MPI_Improbe, then MPI_Mrecv or MPI_Imrecv) where the MPI
// provides them, otherwise (SimGrid's SMPI links them but does not implement them) by
// MPI_Iprobe and an MPI_Recv or MPI_Irecv from the probed source: the same message, as only
// this call receives on its context and tag, and messages from one source do not overtake
// each other.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/detail/contiguous.hpp"
#include "nampi/detail/coroutine/strand.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/detail/own_context.hpp"
#include "nampi/detail/request_list.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/plugins/sparse_alltoall.hpp"
#include "nampi/plugin.hpp"
#include "nampi/types.hpp"

namespace nampi {
namespace plugins {

namespace detail_sparse {

template <typename T>
class received_messages;

// A found message, until its one receive.
#if defined(NAMPI_HAVE_MPI_IMPROBE) && defined(NAMPI_HAVE_MPI_MRECV) && \
    defined(NAMPI_HAVE_MPI_IMRECV)
class found_message {
 public:
  static constexpr const char* receive_name = "MPI_Mrecv";
  // Looks for a message of `tag` on `comm`; true where it found one, which this then holds.
  bool probe(MPI_Comm comm, int tag, MPI_Status& status) {
    int found = 0;
    detail::call_mpi("MPI_Improbe", MPI_Improbe, MPI_ANY_SOURCE, tag, comm, &found, &message_,
                     &status);
    return found != 0;
  }
  bool received() const noexcept { return message_ == MPI_MESSAGE_NULL; }
  int receive(void* data, int count, MPI_Datatype type) {
    return MPI_Mrecv(data, count, type, &message_, MPI_STATUS_IGNORE);
  }
  static constexpr const char* start_name = "MPI_Imrecv";
  int start(void* data, int count, MPI_Datatype type, MPI_Request* request) {
    return MPI_Imrecv(data, count, type, &message_, request);
  }

 private:
  MPI_Message message_ = MPI_MESSAGE_NULL;
};
#else
class found_message {
 public:
  static constexpr const char* receive_name = "MPI_Recv";
  bool probe(MPI_Comm comm, int tag, MPI_Status& status) {
    int found = 0;
    detail::call_mpi("MPI_Iprobe", MPI_Iprobe, MPI_ANY_SOURCE, tag, comm, &found, &status);
    if (found == 0) return false;
    comm_ = comm;
    tag_ = tag;
    source_ = status.MPI_SOURCE;
    return true;
  }
  bool received() const noexcept { return comm_ == MPI_COMM_NULL; }
  int receive(void* data, int count, MPI_Datatype type) {
    const MPI_Comm comm = std::exchange(comm_, MPI_COMM_NULL);
    return MPI_Recv(data, count, type, source_, tag_, comm, MPI_STATUS_IGNORE);
  }
  static constexpr const char* start_name = "MPI_Irecv";
  int start(void* data, int count, MPI_Datatype type, MPI_Request* request) {
    const MPI_Comm comm = std::exchange(comm_, MPI_COMM_NULL);
    return MPI_Irecv(data, count, type, source_, tag_, comm, request);
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0;
  int source_ = MPI_PROC_NULL;
};
#endif

}  // namespace detail_sparse

// One message that reached this rank, probed but not yet received: on_message's
// argument. T: the element type of the messages the call sends. recv() receives it once; a
// message the callback does not receive is received and dropped after it returns.
// If the callback throws, the exception leaves the call once this rank's own sends have
// completed (their receivers matched them): like any collective one rank leaves, the others
// wait for it. Where every rank threw, a barrier on the communicator makes it ready for the
// next exchange (which must not meet a rank that is still in an earlier one).
template <typename T>
class probed_message {
 public:
  probed_message(const detail_sparse::found_message& message, const MPI_Status& status) noexcept
      : message_(message), status_(status) {}
  probed_message(const probed_message&) = delete;
  probed_message& operator=(const probed_message&) = delete;
  // Left unreceived because the callback threw: received and dropped, so that its sender's
  // synchronous send completes.
  ~probed_message() {
    if (received()) return;
    std::vector<T> scratch(static_cast<std::size_t>(std::max(elements<T>(), 0)));
    message_.receive(scratch.data(), static_cast<int>(scratch.size()), mpi_datatype<T>());
  }

  // The sender's rank in the communicator.
  int source() const noexcept { return status_.MPI_SOURCE; }
  // Its number of elements (of U: a message of T received as another type of the same
  // type signature, which MPI allows).
  template <typename U = T>
  std::size_t count() const {
    const int n = elements<U>();
    NAMPI_CHECK(n != MPI_UNDEFINED,
                "alltoallv_sparse: the message from rank %d is not a whole number of elements",
                source());
    return static_cast<std::size_t>(n);
  }
  bool received() const noexcept { return message_.received(); }

  // The message's data as a new vector. The receives are const, as a callback taking
  // `const auto& m` may call them: receiving changes only the handle (mutable), which MPI
  // marks received; a second receive throws.
  template <typename U = T>
  std::vector<U> recv() const {
    std::vector<U> data(count<U>());
    receive(data.data(), data.size());
    return data;
  }

  // Into the caller's buffer (recv_buf(v)): a resizable one is resized to fit (resize_to_fit
  // or grow_only as asked), any other must be large enough (checked in every build: the
  // size comes from the probe).
  template <typename Named>
    requires(detail::is_param<param_id::recv_buf, Named>())
  void recv(Named&& buffer) const {
    auto& object = buffer.value;
    using U = std::remove_cv_t<detail::element_t<decltype(object)>>;
    using Policy = typename std::remove_cvref_t<Named>::policy;
    const std::size_t n = count<U>();
    if constexpr (requires { object.resize(n); } && !std::is_same_v<Policy, no_resize>) {
      if (!std::is_same_v<Policy, grow_only> || object.size() < n) object.resize(n);
    } else {
      NAMPI_CHECK(detail::size_of(object) >= n,
                  "alltoallv_sparse: recv_buf holds %zu elements, the message from rank %d has %zu",
                  detail::size_of(object), source(), n);
    }
    receive(detail::data_of(object), n);
  }

 private:
  template <typename U>
  void receive(U* data, std::size_t n) const {
    NAMPI_CHECK(!received(), "alltoallv_sparse: the message from rank %d was received already",
                source());
    detail::check_mpi_code(
        detail_sparse::found_message::receive_name,
        message_.receive(static_cast<void*>(data),
                         detail::narrow<int>(n, "alltoallv_sparse", "a message's count", "int"),
                         mpi_datatype<U>()));
  }

  // MPI_Get_count in elements of U (MPI_UNDEFINED: not a whole number of them). The status is
  // one probe filled, so it cannot fail (and the destructor may not throw).
  template <typename U>
  int elements() const noexcept {
    int n = MPI_UNDEFINED;
    MPI_Get_count(&status_, mpi_datatype<U>(), &n);
    return n;
  }

  // The returning form's receive (detail_sparse::received_messages): started, not waited for.
  friend class detail_sparse::received_messages<T>;
  void start(T* data, std::size_t n, MPI_Request* request) const {
    detail::check_mpi_code(
        detail_sparse::found_message::start_name,
        message_.start(static_cast<void*>(data),
                       detail::narrow<int>(n, "alltoallv_sparse", "a message's count", "int"),
                       mpi_datatype<T>(), request));
  }

  mutable detail_sparse::found_message message_;
  MPI_Status status_;
};

namespace detail_sparse {

inline constexpr int first_tag = detail::own_tags::sparse_alltoall_first;  // and first_tag + 1

// The tag of this call on the communicator whose context is `context`, and the other one for
// its next call.
inline int next_tag(detail::own_context& context) {
  return first_tag + context.next_alternating_tag();
}

// How NBX learns that every message of every rank has been received: a nonblocking barrier that
// each rank enters once its own sends have all been matched. MPI's MPI_Ibarrier where it
// scales (MPICH, Open MPI: dissemination or recursive doubling inside MPI), nampi's own
// dissemination barrier (below) where MPI's is linear: SimGrid's SMPI, where every rank waits
// for rank 0 and rank 0 for all (measured in docs/plugins.md). NAMPI_SPARSE_OWN_BARRIER=0 or 1
// chooses either anywhere.
#if !defined(NAMPI_SPARSE_OWN_BARRIER)
#if defined(SMPI_H)  // SimGrid's <mpi.h> includes its <smpi/smpi.h>
#define NAMPI_SPARSE_OWN_BARRIER 1
#else
#define NAMPI_SPARSE_OWN_BARRIER 0
#endif
#endif

// MPI's MPI_Ibarrier on the context. Left by an exception (a callback threw), it stays
// pending, as it always has.
class mpi_ibarrier {
 public:
  mpi_ibarrier(MPI_Comm comm, int /*rank*/, int /*size*/, int /*tag*/) {
    detail::call_mpi("MPI_Ibarrier", MPI_Ibarrier, comm, &request_);
  }
  mpi_ibarrier(const mpi_ibarrier&) = delete;
  mpi_ibarrier& operator=(const mpi_ibarrier&) = delete;
  bool test() {
    int done = 0;
    detail::call_mpi("MPI_Test", MPI_Test, &request_, &done, MPI_STATUS_IGNORE);
    return done != 0;
  }

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
};

// nampi's own nonblocking barrier on the context: ceil(log2 p) rounds; in the round of
// distance d a rank sends an empty message to rank + d and receives one from rank - d (mod p),
// on a tag of its own (which alternates between calls, as the data tags do). Each test()
// tests the round in flight and posts the next once it completed. (The range barrier,
// range/collectives.hpp, is the same algorithm, but as a range_task it waits for its round
// when destroyed: here, left by a callback's exception while other ranks still wait for this
// one's receives, that would hang.)
class dissemination_barrier {
 public:
  dissemination_barrier(MPI_Comm comm, int rank, int size, int tag)
      : comm_(comm), rank_(rank), size_(size), tag_(tag) {
    post();
  }
  dissemination_barrier(const dissemination_barrier&) = delete;
  dissemination_barrier& operator=(const dissemination_barrier&) = delete;
  // Left by an exception (a callback threw): as an MPI_Ibarrier left pending, the round in
  // flight is not waited for (its messages are empty: nothing is written anywhere).
  ~dissemination_barrier() {
    for (MPI_Request& r : requests_)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }

  bool test() {
    while (distance_ < size_) {
      int done = 0;
      detail::call_mpi("MPI_Testall", MPI_Testall, 2, requests_, &done, MPI_STATUSES_IGNORE);
      if (done == 0) return false;
      distance_ *= 2;
      post();
    }
    return true;
  }

 private:
  void post() {
    if (distance_ >= size_) return;
    detail::call_mpi("MPI_Irecv", MPI_Irecv, static_cast<void*>(&got_), 0, MPI_BYTE,
                     (rank_ - distance_ + size_) % size_, tag_, comm_, &requests_[0]);
    detail::call_mpi("MPI_Isend", MPI_Isend, static_cast<const void*>(&none_), 0, MPI_BYTE,
                     (rank_ + distance_) % size_, tag_, comm_, &requests_[1]);
  }

  MPI_Comm comm_;
  int rank_, size_, tag_;
  int distance_ = 1;
  char none_ = 0, got_ = 0;
  MPI_Request requests_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

using termination_barrier =
    std::conditional_t<NAMPI_SPARSE_OWN_BARRIER != 0, dissemination_barrier, mpi_ibarrier>;

// What the exchange does with each message it finds. on_message's form hands it to the
// callback, which receives it there and then (or leaves it, and it is dropped).
template <typename T, typename Deliver>
struct delivered_messages {
  Deliver& deliver;
  void take(const found_message& found, const MPI_Status& status) {
    probed_message<T> message(found, status);  // one the callback leaves is dropped
    deliver(message);
  }
  void finish() {}
};

// The returning form receives each message into a vector of its own with a nonblocking receive
// and goes on looking for the next: the messages of several senders travel at once, where one
// blocking receive after another would wait a message's latency (a large message's transfer)
// for each in turn. They are waited for when the exchange is over (finish), or when it is
// left by an exception (MPI may still write the vectors until then: the messages are matched,
// so their data comes).
template <typename T>
class received_messages {
 public:
  received_messages() = default;
  received_messages(const received_messages&) = delete;
  received_messages& operator=(const received_messages&) = delete;
  ~received_messages() {
    if (!requests_.empty())
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }

  void take(const found_message& found, const MPI_Status& status) {
    const probed_message<T> message(found, status);  // dropped if counting or sizing throws
    const std::size_t n = message.count();
    std::vector<T>& data = received_.emplace_back(message.source(), std::vector<T>(n)).second;
    // A moved vector keeps its elements where they are: received_ may grow meanwhile.
    message.start(data.data(), n, requests_.push());
  }
  void finish() {
    if (requests_.empty()) return;
    detail::call_mpi("MPI_Waitall", MPI_Waitall, static_cast<int>(requests_.size()),
                     requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
  }
  // (source, data) in the order they arrived.
  std::vector<std::pair<int, std::vector<T>>> release() { return std::move(received_); }

 private:
  std::vector<std::pair<int, std::vector<T>>> received_;
  detail::request_list requests_;  // four senders' in place: most calls allocate none for them
};

// The NBX exchange: sends every non-empty message of `messages` ((destination, range of T)
// pairs), hands each message that arrives to `receiver` (take), returns when all are
// exchanged and received (finish).
template <typename T, typename Messages, typename Receiver>
void exchange(detail::own_context* context, int rank, int size, const Messages& messages,
              Receiver& receiver) {
  const MPI_Comm comm = detail::own_comm(context, "alltoallv_sparse");
  // Every destination is checked before the call takes its tag or sends anything: a call
  // that throws here leaves the alternation of the tags as it was.
  for (const auto& [destination, message] : messages) {
    const int dest = static_cast<int>(destination);
    NAMPI_CHECK(detail::size_of(message) == 0 || (dest >= 0 && dest < size),
                "alltoallv_sparse: destination %d is not a rank of the communicator (size %d)",
                dest, size);
  }
  const int tag = next_tag(*context);
  // Its sends complete before the call returns or throws (an exception from `deliver` or a
  // check): MPI reads the caller's messages until then.
  struct pending_sends {
    std::vector<MPI_Request> requests;
    ~pending_sends() {
      if (!requests.empty())
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
  } pending;
  std::vector<MPI_Request>& sends = pending.requests;
  for (const auto& [destination, message] : messages) {
    const std::size_t n = detail::size_of(message);
    if (n == 0) continue;
    const int dest = static_cast<int>(destination);
    sends.push_back(MPI_REQUEST_NULL);
    detail::call_mpi("MPI_Issend", MPI_Issend, static_cast<const void*>(detail::data_of(message)),
                     detail::narrow<int>(n, "alltoallv_sparse", "a message's count", "int"),
                     mpi_datatype<T>(), dest, tag, comm, &sends.back());
  }
  std::optional<termination_barrier> barrier;  // entered once this rank's sends were matched
  const int barrier_tag = detail::own_tags::sparse_barrier_first + (tag - first_tag);
  // Every 64 looks that found nothing the rank gives its core away (as MPI's own blocking
  // calls do), so that a rank it waits for can run where ranks share cores.
  unsigned idle = 0;
  for (;;) {
    detail_sparse::found_message found;
    MPI_Status status;
    if (found.probe(comm, tag, status)) {
      receiver.take(found, status);
      continue;  // more may be waiting
    }
    if (!barrier) {
      int done = 0;
      detail::call_mpi("MPI_Testall", MPI_Testall, static_cast<int>(sends.size()), sends.data(),
                       &done, MPI_STATUSES_IGNORE);
      if (done != 0) {
        sends.clear();  // completed: nothing left to wait for
        barrier.emplace(comm, rank, size, barrier_tag);
      }
    } else if (barrier->test()) {
      receiver.finish();
      return;
    }
    if (++idle % 64 == 0) sched_yield();
  }
}

}  // namespace detail_sparse

// The plugin's members (a plugin and its member may not share a name: the plugin is an alias
// of this class).
template <typename Comm>
class sparse_alltoall_members {
 public:
  // spec/plugins/sparse_alltoall.yaml: alltoallv_sparse
  /// Sends each message to its destination and receives every message sent to this rank.
  /// @param sparse_send_buf (destination, message) pairs, each message a contiguous range;
  /// empty ones are not sent (required)
  /// @param on_message called with each nampi::plugins::probed_message that arrives; omitted:
  /// returns std::vector<std::pair<int, std::vector<T>>> (source, data) in arrival order
  template <typename... Args>
  auto alltoallv_sparse(Args&&... args) const {
    if constexpr (generated::alltoallv_sparse_check<std::remove_cvref_t<Args>...>::ok) {
      const Comm& comm = static_cast<const Comm&>(*this);
      // Collective (its ibarrier): one task of a nampi::run per communicator.
      detail::coro::note_collective(comm, "alltoallv_sparse");
      const auto& messages = plugin::value<sparse_alltoall_params::sparse_send_buf>(args...);
      using Pair = std::remove_cvref_t<decltype(*std::begin(messages))>;
      using Message = std::remove_cvref_t<std::tuple_element_t<1, Pair>>;
      static_assert(detail::is_buffer_v<Message>,
                    "nampi: alltoallv_sparse: each message of sparse_send_buf must be a "
                    "contiguous range (std::vector<T>, std::span<T>, ...)");
      using T = std::remove_cv_t<detail::element_t<Message>>;
      if constexpr (plugin::given<sparse_alltoall_params::on_message, Args...>) {
        auto& deliver = plugin::value<sparse_alltoall_params::on_message>(args...);
        detail_sparse::delivered_messages<T, std::remove_reference_t<decltype(deliver)>> to{
            deliver};
        detail_sparse::exchange<T>(comm.own_context(), comm.rank(), comm.size(), messages, to);
      } else {
        detail_sparse::received_messages<T> received;
        detail_sparse::exchange<T>(comm.own_context(), comm.rank(), comm.size(), messages,
                                   received);
        return received.release();
      }
    } else {
      return detail::failed_call{};
    }
  }
};

template <typename Comm>
using sparse_alltoall = sparse_alltoall_members<Comm>;

}  // namespace plugins
}  // namespace nampi
