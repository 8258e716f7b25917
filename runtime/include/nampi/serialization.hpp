// Serialized buffers: any type cereal can serialize, sent as bytes.
//
//   comm.send(send_buf(nampi::as_serialized(dict)), dest(1));
//   auto dict = comm.recv(recv_buf(nampi::as_deserializable<Dict>()), source(0));
//   comm.bcast(send_recv_buf(nampi::as_serialized(dict)));  // root's dict everywhere
//   auto mine = comm.scatter(send_buf(nampi::as_serialized(dicts)));  // dicts[i] to rank i
//   auto got = comm.alltoall(send_buf(nampi::as_serialized(dicts)));  // std::vector<Dict>
//
// Serialization is never implicit: a type without an MPI datatype is a compile
// error unless the caller wraps it here. This header is opt-in (nampi.hpp does
// not include it) so that programs that never serialize need no cereal and pay
// none of its compile time.
//
// Semantics:
//  * the wire format is the archive's bytes, sent as MPI_BYTE; the count is the
//    number of bytes, so a receiver learns it the way it learns any count:
//    recv and irecv probe (MPI_Probe + MPI_Get_count), bcast and ibcast first
//    broadcast the size (a blocking MPI_Bcast, also before MPI_Ibcast),
//    gatherv and allgatherv gather the sizes (MPI_Gather / MPI_Allgather, blocking
//    also before the nonblocking forms) and return a std::vector<T>, one value
//    per rank (empty at gatherv's other ranks); gather and allgather hand a
//    serialized buffer to them, since the sizes differ per rank;
//  * scatterv and alltoallv take as_serialized(values) of a sized range with
//    one value per rank (spec key serialized_per_rank): value i goes to rank i,
//    each serialized on its own, and the byte counts (send_counts, computed,
//    never given) are those of the values. A range of another size is a
//    usage_error (always checked: a wrong size would read past the values).
//    scatterv: MPI_Scatter of the counts, then MPI_Scatterv of the bytes; every
//    rank passes a send_buf (the others' values are neither read nor sent, an
//    empty range will do) and gets its value returned, or written into
//    recv_buf(as_serialized(t)), or returned from recv_buf(as_deserializable<T>()).
//    alltoallv: MPI_Alltoall of the counts, then MPI_Alltoallv, returning a
//    std::vector<T>, one value from every rank. scatter and alltoall hand a
//    serialized buffer to them; the nonblocking forms exchange the counts
//    (blocking) before they start;
//  * as_serialized(x) with an lvalue x references it: sent from it, and a call
//    that receives (recv_buf, bcast's send_recv_buf) writes the value into it
//    and returns nothing for it; with an rvalue the call owns the value and
//    returns the one it ends with (the root's own, or the one received);
//  * as_deserializable<T>() receives into a T the call creates and returns;
//  * a send serializes when the call starts, so the object may change as soon
//    as the call returns, even a nonblocking one, whose result owns the bytes
//    until completion; a receive deserializes when it completes (the blocking
//    call's return, or wait()/test() of a nonblocking one);
//  * the archive is nampi::binary_archive (cereal's binary archive) unless
//    chosen: as_serialized<nampi::portable_binary_archive>(x), or any cereal
//    pair as nampi::archive<OutputArchive, InputArchive>. Both sides must use
//    the same archive.
//  * calls that take serialized buffers list them in spec/bindings (send, ssend,
//    recv, bcast, gatherv, allgatherv, scatterv, alltoallv and their nonblocking
//    forms; gather, allgather, scatter and alltoall via serialized_via); any
//    other call rejects them at compile time, and so do persistent calls (they
//    would resend stale bytes).
#pragma once

// nampi needs C++20: say so once, and parse nothing of nampi without it.
// (GCC 10 reports -std=c++20 as 201709L and is not supported either.)
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 202002L
#error "nampi needs C++20: compile with -std=c++20 (or later)"
#else

#include <cereal/archives/binary.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
// The standard types most messages are made of; include cereal/types/<header>.hpp for others.
#include <cereal/types/array.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/unordered_map.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>
#include <cstddef>
#include <istream>
#include <ostream>
#include <span>  // std::ranges::size, range_value_t
#include <streambuf>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi/nampi.hpp"

namespace nampi {

// A cereal output archive and the input archive that reads what it writes.
template <typename OutputArchive, typename InputArchive>
struct archive {
  using output = OutputArchive;
  using input = InputArchive;
};

using binary_archive = archive<cereal::BinaryOutputArchive, cereal::BinaryInputArchive>;
// Binary, but readable across byte orders.
using portable_binary_archive =
    archive<cereal::PortableBinaryOutputArchive, cereal::PortableBinaryInputArchive>;

namespace detail {

// Stream buffers over a byte vector: archives write into it and read from it
// without the copies a std::stringstream would make.
class byte_sink : public std::streambuf {
 public:
  explicit byte_sink(std::vector<std::byte>& bytes) : bytes_(&bytes) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto* p = reinterpret_cast<const std::byte*>(s);
    bytes_->insert(bytes_->end(), p, p + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof()))
      bytes_->push_back(static_cast<std::byte>(traits_type::to_char_type(c)));
    return traits_type::not_eof(c);
  }

 private:
  std::vector<std::byte>* bytes_;
};

class byte_source : public std::streambuf {
 public:
  byte_source(std::byte* bytes, std::size_t n) {
    char* begin = reinterpret_cast<char*>(bytes);
    setg(begin, begin, begin + n);
  }
};

// Appends the bytes of `value` as Archive writes it.
template <typename Archive, typename T>
void serialize_into(std::vector<std::byte>& bytes, const T& value) {
  byte_sink sink(bytes);
  std::ostream out(&sink);
  typename Archive::output archive(out);
  archive(value);
}  // (the archive's destructor may still write: XML and JSON close their root there)

// Loads `value` from n bytes that Archive wrote.
template <typename Archive, typename T>
void deserialize(std::byte* bytes, std::size_t n, T& value) {
  byte_source source(bytes, n);
  std::istream in(&source);
  typename Archive::input archive(in);
  archive(value);
}

// The element type a serialized buffer shows the call: one byte (MPI_BYTE)
// that remembers what it encodes, so that the receive buffer a gathering call
// creates for it (default_container below) deserializes each rank's block.
template <typename T, typename Archive>
struct serialized_byte {
  std::byte value;
};

template <typename T, typename Archive>
struct builtin_type<serialized_byte<T, Archive>> : std::true_type {
  static MPI_Datatype get() noexcept { return MPI_BYTE; }
};

// The receive buffer of a gathering call (gatherv, allgatherv) whose send
// buffer is serialized: the ranks' byte blocks, placed by recv_counts and
// recv_displs, deserialized into one T each when the call completes.
template <auto Id, typename T, typename Archive, bool Returned>
class serialized_blocks_slot {
 public:
  using object_type = std::vector<T>;
  using element_type = serialized_byte<T, Archive>;
  static constexpr auto id = Id;
  static constexpr bool computed = true;
  static constexpr bool returned = Returned;

  std::size_t size() const { return bytes_.size(); }
  const std::byte* data() const { return non_null(bytes_.data()); }
  std::byte* data() { return non_null(bytes_.data()); }
  const object_type& get() const { return values_; }

  template <bool Always>
  void resize_for(std::size_t n, const char*, size_check<Always>) {
    bytes_.resize(n);
    received_ = true;  // only where the call receives (gatherv: the root)
  }

  template <typename Slots>
  void finish(const Slots& slots) {
    if (!received_) return;
    const auto& counts = slot_with_id<param_id::recv_counts>(slots);
    const auto& displs = slot_with_id<param_id::recv_displs>(slots);
    values_.resize(counts.size());
    for (std::size_t i = 0; i < counts.size(); ++i)
      deserialize<Archive>(bytes_.data() + displs.data()[i],
                           static_cast<std::size_t>(counts.data()[i]), values_[i]);
    received_ = false;
  }

  object_type extract() { return std::move(values_); }

 private:
  std::vector<std::byte> bytes_;
  object_type values_;
  bool received_ = false;
};

// What a call creates for a serialized buffer's elements: the blocks above.
template <typename T, typename Archive>
struct serialized_blocks {
  template <auto Id, bool Returned>
  static auto omitted_slot() {
    return serialized_blocks_slot<Id, T, Archive, Returned>{};
  }
};

template <typename T, typename Archive>
struct default_container<serialized_byte<T, Archive>> {
  using type = serialized_blocks<T, Archive>;
};

template <auto Id, typename Value, typename Archive, bool Receives, bool Returned>
class serialized_slot;

// What a call creates for the one block it receives of a serialized buffer
// (scatterv's share): one T, deserialized when the call completes.
template <typename T, typename Archive>
struct serialized_value {
  static_assert(std::is_default_constructible_v<T>,
                "nampi: a serialized value the call creates must be default constructible (it is "
                "loaded into a default-constructed one)");
  template <auto Id, bool Returned>
  static auto omitted_slot() {
    return serialized_slot<Id, T, Archive, true, Returned>(T{});
  }
};

template <typename T, typename Archive>
struct block_container<serialized_byte<T, Archive>> {
  using type = serialized_value<T, Archive>;
};

// A serialized range whose value i goes to rank i (scatterv's root, alltoallv;
// spec key serialized_per_rank). Each value is serialized on its own, the
// blocks one after the other in rank order; MPI sees the bytes and the element
// type of one value, so that the receive side creates one value (scatterv) or
// one per rank (alltoallv's blocks). Range is R& (the caller's) or R (owned).
template <auto Id, typename Range, typename Archive>
class serialized_per_rank_slot {
 public:
  using object_type = std::remove_cvref_t<Range>;
  using value_type = std::ranges::range_value_t<object_type>;
  using element_type = serialized_byte<value_type, Archive>;  // MPI_BYTE
  static constexpr auto id = Id;
  static constexpr bool computed = false;
  static constexpr bool returned = false;

  explicit serialized_per_rank_slot(Range&& values) : values_(std::forward<Range>(values)) {}

  // The bytes exist once the counts rule (infer::serialized_counts) has asked
  // for the block sizes: at scatterv's root, at every rank of alltoallv. Other
  // ranks of scatterv send nothing, so their values are never serialized.
  std::size_t size() const { return bytes_.size(); }
  const std::byte* data() const { return non_null(bytes_.data()); }
  const object_type& get() const { return values_; }

  std::size_t values() const { return std::ranges::size(values_); }
  std::size_t block_size(std::size_t i) const {
    serialize_once();
    return ends_[i] - (i == 0 ? 0 : ends_[i - 1]);
  }

 private:
  void serialize_once() const {
    if (!ends_.empty() || values() == 0) return;
    ends_.reserve(values());
    for (const auto& value : values_) {
      serialize_into<Archive>(bytes_, value);
      ends_.push_back(bytes_.size());
    }
  }

  // Filled lazily by the const readers (rules read slots through const references).
  mutable std::vector<std::byte> bytes_;
  mutable std::vector<std::size_t> ends_;  // where each value's bytes end
  Range values_;
};

template <typename T, typename Archive>
inline constexpr bool serializable_with =
    cereal::traits::is_output_serializable<T, typename Archive::output>::value &&
    cereal::traits::is_input_serializable<T, typename Archive::input>::value;

// A serialized buffer's slot. Value is T& (the caller's object) or T (owned).
// MPI sees bytes: data()/size() of the serialized value on the sending side,
// of a buffer that rules resize (resize_for) on the receiving side.
template <auto Id, typename Value, typename Archive, bool Receives, bool Returned>
class serialized_slot {
 public:
  using object_type = std::remove_cvref_t<Value>;
  using element_type = serialized_byte<object_type, Archive>;  // MPI_BYTE
  static constexpr auto id = Id;
  static constexpr bool computed = Receives;  // receiving: sized by the call's rules
  static constexpr bool returned = Returned;

  explicit serialized_slot(Value&& value) : value_(std::forward<Value>(value)) {}

  // Serialized on first use: a bcast's non-root ranks never read their value.
  std::size_t size() const {
    serialize_once();
    return bytes_.size();
  }
  const std::byte* data() const {
    serialize_once();
    return non_null(bytes_.data());
  }
  std::byte* data() {
    serialize_once();
    return non_null(bytes_.data());
  }
  const object_type& get() const { return value_; }

  // Room for n received bytes (the receiving ranks' rules call it).
  template <bool Always>
  void resize_for(std::size_t n, const char*, size_check<Always>) {
    bytes_.resize(n);
    state_ = state::received;
  }

  // After completion: received bytes become the value (make_result calls it).
  template <typename Slots>
  void finish(const Slots&) {
    if constexpr (std::is_const_v<std::remove_reference_t<Value>>) {
      static_assert(!Receives,
                    "nampi: a call that receives into as_serialized(x) needs a non-const x");
    } else if constexpr (Receives && serializable_with<object_type, Archive>) {
      if (state_ != state::received) return;  // the root of a bcast keeps its value
      deserialize<Archive>(bytes_.data(), bytes_.size(), value_);
      state_ = state::done;
    }
  }

  object_type extract() { return std::move(value_); }

 private:
  void serialize_once() const {
    if (state_ != state::unserialized) return;
    if constexpr (serializable_with<object_type, Archive>) serialize_into<Archive>(bytes_, value_);
    state_ = state::serialized;
  }

  enum class state { unserialized, serialized, received, done };
  // Filled lazily by the const readers (size() is read through const slots).
  mutable std::vector<std::byte> bytes_;
  mutable state state_ = state::unserialized;
  Value value_;
};

// What as_serialized and as_deserializable return: the value (or a reference
// to it) and the archive, until a call turns it into its slot.
template <typename Value, typename Archive>
class serialized {
 public:
  using nampi_serialized = void;  // parameter.hpp: serialized_buffer
  using value_type = std::remove_cvref_t<Value>;

  explicit serialized(Value&& value) : value_(std::forward<Value>(value)) {}

  // A wrapper the caller kept in a variable lends its value; a temporary one
  // hands it over. Split (slot.hpp: serialized_per_rank) makes a range's
  // values go one per rank.
  template <auto Id, role Role, typename Split, typename Self>
  static auto make_slot(Self&& self) {
    constexpr bool receives = Role != role::in;
    using T = std::remove_cvref_t<Value>;
    constexpr bool lent = std::is_lvalue_reference_v<Value> || std::is_lvalue_reference_v<Self>;
    if constexpr (std::is_same_v<Split, serialized_per_rank>) {
      if constexpr (lent)
        return serialized_per_rank_slot<Id, decltype((self.value_)), Archive>(self.value_);
      else
        return serialized_per_rank_slot<Id, T, Archive>(std::move(self.value_));
    } else if constexpr (lent) {
      using Ref = decltype((self.value_));  // T& or const T&
      return serialized_slot<Id, Ref, Archive, receives, false>(self.value_);
    } else {
      return serialized_slot<Id, T, Archive, receives, receives>(std::move(self.value_));
    }
  }

 private:
  Value value_;
};

}  // namespace detail

// Sends x serialized (and, in a call that receives into it, deserializes into it).
template <typename Archive = binary_archive, typename T>
auto as_serialized(T&& x) {
  static_assert(detail::serializable_with<std::remove_cvref_t<T>, Archive>,
                "nampi: as_serialized: cereal cannot serialize this type with the chosen archive: "
                "give it a serialize(Archive&) member or free function (or save/load), and "
                "include cereal/types/<header>.hpp for the standard types it holds");
  return detail::serialized<T, Archive>(std::forward<T>(x));
}

// Receives a T serialized by the sender; the call returns the T.
template <typename T, typename Archive = binary_archive>
auto as_deserializable() {
  static_assert(detail::serializable_with<T, Archive>,
                "nampi: as_deserializable: cereal cannot serialize this type with the chosen "
                "archive: give it a serialize(Archive&) member or free function (or save/load), "
                "and include cereal/types/<header>.hpp for the standard types it holds");
  static_assert(std::is_default_constructible_v<T>,
                "nampi: as_deserializable: the type must be default constructible (the received "
                "value is loaded into a default-constructed one)");
  return detail::serialized<T, Archive>(T{});
}

}  // namespace nampi

#endif  // C++20
