// Point-to-point messages on a range's parent communicator, for the range backend's
// algorithms: any count (above INT_MAX as one element of a derived datatype,
// nampi/detail/large_count.hpp), and the buffers they need.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstring>

#include "nampi/detail/datatype_facts.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/out_of_line.hpp"
#include "nampi/detail/range/handle.hpp"
#include "nampi/detail/range/tags.hpp"
#include "nampi/detail/scratch_array.hpp"
#include "nampi/error.hpp"

namespace nampi::detail::range_messages {

inline void send(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm) {
  const large_count_type t(count, type);
  call_mpi("MPI_Send", MPI_Send, buf, t.count(), t.type(), dest, tag, comm);
}

inline void recv(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                 MPI_Status* status = MPI_STATUS_IGNORE) {
  const large_count_type t(count, type);
  call_mpi("MPI_Recv", MPI_Recv, buf, t.count(), t.type(), source, tag, comm, status);
}

// One exchange: MPI_PROC_NULL on either side leaves that side out.
inline void sendrecv(const void* send_buf, MPI_Count send_count, MPI_Datatype send_type, int dest,
                     int send_tag, void* recv_buf, MPI_Count recv_count, MPI_Datatype recv_type,
                     int source, int recv_tag, MPI_Comm comm,
                     MPI_Status* status = MPI_STATUS_IGNORE) {
  const large_count_type s(send_count, send_type);
  const large_count_type r(recv_count, recv_type);
  call_mpi("MPI_Sendrecv", MPI_Sendrecv, send_buf, s.count(), s.type(), dest, send_tag, recv_buf,
           r.count(), r.type(), source, recv_tag, comm, status);
}

// copy() below, out of line: any datatypes.
#if !NAMPI_DEFINE_OUT_OF_LINE
[[gnu::noinline]] NAMPI_OUT_OF_LINE void copy_packed(const void* from, MPI_Count count,
                                                     MPI_Datatype from_type, void* to,
                                                     MPI_Count count_to, MPI_Datatype to_type,
                                                     const range_handle& r);
#else
[[gnu::noinline]] NAMPI_OUT_OF_LINE void copy_packed(const void* from, MPI_Count count,
                                                     MPI_Datatype from_type, void* to,
                                                     MPI_Count count_to, MPI_Datatype to_type,
                                                     const range_handle& r) {
  const datatype_facts from_facts = facts_of(from_type);
  const MPI_Count size = from_facts.size;
  if (from_type == to_type && count == count_to && from_facts.dense()) {
    std::memmove(to, from, static_cast<std::size_t>(count * size));
    return;
  }
  if (count * size > INT_MAX / 2) {  // too big to pack (int sizes): a message to itself
    const int self = r.parent_of(r.rank);
    const int tag = r.collective_tag(range_tags::copy);
    sendrecv(from, count, from_type, self, tag, to, count_to, to_type, self, tag, r.parent);
    return;
  }
  const large_count_type in(count, from_type);
  const large_count_type out(count_to, to_type);
  int bytes = 0;
  call_mpi("MPI_Pack_size", MPI_Pack_size, in.count(), in.type(), r.parent, &bytes);
  scratch_array<std::byte> packed(static_cast<std::size_t>(bytes));
  int position = 0;
  call_mpi("MPI_Pack", MPI_Pack, from, in.count(), in.type(), packed.data(), bytes, &position,
           r.parent);
  const int packed_bytes = position;
  position = 0;
  call_mpi("MPI_Unpack", MPI_Unpack, static_cast<const void*>(packed.data()), packed_bytes,
           &position, to, out.count(), out.type(), r.parent);
}
#endif

// The copy() below for `count` elements of one `type` whose facts `f` the caller has asked
// already (no second lookup).
inline void copy_of_type(const void* from, void* to, MPI_Count count, MPI_Datatype type,
                         const datatype_facts& f, const range_handle& r) {
  if (from == to || count == 0) return;
  if (f.dense()) {
    std::memmove(to, from, static_cast<std::size_t>(count * f.size));
    return;
  }
  copy_packed(from, count, type, to, count, type, r);
}

// `count` elements of `from_type` at `from` into `count_to` elements of `to_type` at `to`
// (the same type signature) at this process, without a message: a message to itself would
// be matched behind every unexpected message queued from other ranks (a rank that runs ahead
// queues many), so each copy would cost a walk of that queue. Dense data of one type is
// copied as bytes; anything else is packed and unpacked (MPI_Pack, MPI_Unpack: any datatype).
// Inline where the data are of one predefined dense type; the rest out of line.
inline void copy(const void* from, MPI_Count count, MPI_Datatype from_type, void* to,
                 MPI_Count count_to, MPI_Datatype to_type, const range_handle& r) {
  if ((from == to && from_type == to_type) || count == 0) return;
  if (from_type == to_type && count == count_to) {
    const datatype_facts* known = predefined_datatype_facts(from_type);
    if (known != nullptr && known->dense())
      return copy_of_type(from, to, count, from_type, *known, r);
  }
  copy_packed(from, count, from_type, to, count_to, to_type, r);
}

// The facts of `type` for `count` elements of it: none asked where there are none.
inline datatype_facts facts_for(MPI_Count count, MPI_Datatype type) {
  return count == 0 ? datatype_facts{} : facts_of(type);
}

// The memory of `count` elements of `type` (its true extent): a reduction's partial results.
// Up to 64 bytes in place (a few values: no allocation), more on the heap. It stays where it
// is made (its address is in data()).
class scratch {
 public:
  scratch(MPI_Count count, MPI_Datatype type) : scratch(count, facts_for(count, type)) {}
  // With the type's facts `f` asked already.
  scratch(MPI_Count count, const datatype_facts& f) {
    if (count == 0) {  // nothing to hold (a rank that receives nothing): a valid address
      data_ = local_;
      return;
    }
    const MPI_Count bytes = f.true_extent + (count - 1) * f.extent;
    NAMPI_CHECK(bytes >= 0, "range: a negative buffer size for %lld elements",
                static_cast<long long>(count));
    std::byte* base = local_;
    if (static_cast<std::size_t>(bytes) + 1 > sizeof(local_)) {
      bytes_ = scratch_array<std::byte>(static_cast<std::size_t>(bytes) + 1);
      base = bytes_.data();
    }
    data_ = base - f.true_lb;  // MPI addresses the first element at its true lower bound
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  void* data() const noexcept { return data_; }

 private:
  alignas(std::max_align_t) std::byte local_[64];
  scratch_array<std::byte> bytes_;
  std::byte* data_ = nullptr;
};

// The extent of one element of `type`: how far apart consecutive elements lie.
inline MPI_Aint extent_of(MPI_Datatype type) { return facts_of(type).extent; }

}  // namespace nampi::detail::range_messages
