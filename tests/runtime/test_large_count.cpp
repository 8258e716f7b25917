// Large counts: more than 2^31 bytes between two ranks, with the exact MPI
// calls: the `_c` functions where the MPI has them (MPICH 5), else the int
// functions with a derived datatype (Open MPI 5's wheel and 4.1 have no `_c`
// functions), or in chunks for a blocking reduction. The transfers need about
// 2 GiB per buffer, so they run at np2 only; the decision checks run everywhere.
// ctest-labels: large
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

constexpr std::size_t big = (std::size_t{1} << 31) + 10;  // bytes: more than INT_MAX
constexpr std::size_t period = 251;                       // a prime: no alignment hides a shift

// The byte at position i of a message: i mod 251, written and checked in blocks.
std::vector<char> pattern_block() {
  std::vector<char> block(period * 4096);
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i % period);
  return block;
}

void fill_pattern(std::vector<char>& data) {
  const auto block = pattern_block();
  for (std::size_t at = 0; at < data.size(); at += block.size())
    std::memcpy(data.data() + at, block.data(), std::min(block.size(), data.size() - at));
}

bool has_pattern(const std::vector<char>& data) {
  const auto block = pattern_block();
  for (std::size_t at = 0; at < data.size(); at += block.size())
    if (std::memcmp(data.data() + at, block.data(), std::min(block.size(), data.size() - at)) != 0)
      return false;
  return true;
}

bool two_ranks() {
  nampi::Communicator comm;
  if (comm.size() == 2) return true;
  MESSAGE("needs exactly 2 ranks (2 GiB buffers), skipped at np" << comm.size());
  return false;
}

// The calls that move one large buffer with an int function `function`: its
// `_c` twin where the MPI has it, else the derived datatype of large_count_type.
call_counts large_transfer(const std::string& function, bool has_twin) {
  if (has_twin) return {{function + "_c", 1}};
  return {{"MPI_Type_vector", 1},
          {"MPI_Type_contiguous", 1},
          {"MPI_Type_get_extent", 1},
          {"MPI_Type_create_struct", 1},
          {"MPI_Type_commit", 1},
          {"MPI_Type_free", 3},
          {function, 1}};
}

#if defined(NAMPI_HAVE_MPI_SEND_C)
constexpr bool have_send_c = true;
#else
constexpr bool have_send_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_RECV_C)
constexpr bool have_recv_c = true;
#else
constexpr bool have_recv_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_BCAST_C)
constexpr bool have_bcast_c = true;
#else
constexpr bool have_bcast_c = false;
#endif
#if defined(NAMPI_HAVE_MPI_GET_COUNT_C)
constexpr bool have_get_count_c = true;
#else
constexpr bool have_get_count_c = false;
#endif

struct count_slot {
  MPI_Count value;
  MPI_Count get() const { return value; }
};

// An output slot whose type the caller chose: int.
struct int_slot {
  using object_type = int;
  int value = 0;
  void set(int v) { value = v; }
};

}  // namespace

TEST_CASE("the int form up to INT_MAX, the large form beyond") {
  CHECK(nampi::detail::counts_fit_int(count_slot{0}));
  CHECK(nampi::detail::counts_fit_int(count_slot{INT_MAX}));
  CHECK_FALSE(nampi::detail::counts_fit_int(count_slot{MPI_Count{INT_MAX} + 1}));
  CHECK_FALSE(nampi::detail::counts_fit_int(count_slot{1}, count_slot{MPI_Count{INT_MAX} + 1}));
  // Every integer type a caller may give: one compare, or none for int.
  CHECK(nampi::detail::fits_int(-1));
  CHECK(nampi::detail::fits_int(std::size_t{INT_MAX}));
  CHECK_FALSE(nampi::detail::fits_int(std::size_t{INT_MAX} + 1));
  CHECK(nampi::detail::fits_int(static_cast<unsigned>(INT_MAX)));
  CHECK_FALSE(nampi::detail::fits_int(static_cast<unsigned>(INT_MAX) + 1u));
  CHECK_FALSE(nampi::detail::fits_int(MPI_Count{-1}));  // to the _c function, which rejects it
  CHECK(nampi::detail::fits_int(short{-1}));
  CHECK(nampi::detail::to_mpi_large_count(count_slot{MPI_Count{INT_MAX} + 1}) ==
        MPI_Count{INT_MAX} + 1);
}

TEST_CASE("large_count_type: a count that fits passes as it is, a larger one is one element") {
  nampi_pmpi_reset();
  {
    const nampi::detail::large_count_type small(INT_MAX, MPI_CHAR);
    CHECK(small.count() == INT_MAX);
    CHECK(small.type() == MPI_CHAR);
  }
  CHECK(nampi_pmpi::snapshot().empty());

  const MPI_Count count = (MPI_Count{3} << 30) + 7;  // 3 blocks and a rest
  {
    const nampi::detail::large_count_type large(count, MPI_INT);
    CHECK(large.count() == 1);
    MPI_Count size = 0;
    MPI_Type_size_x(large.type(), &size);
    CHECK(size == count * static_cast<MPI_Count>(sizeof(int)));
    MPI_Aint lb = -1, extent = 0;
    MPI_Type_get_extent(large.type(), &lb, &extent);
    CHECK(lb == 0);
    CHECK(extent == static_cast<MPI_Aint>(count) * static_cast<MPI_Aint>(sizeof(int)));
  }
  auto calls = nampi_pmpi::snapshot();
  calls.erase("MPI_Type_size_x");
  calls["MPI_Type_get_extent"] -= 1;  // the check above
  auto expected = large_transfer("MPI_Send", false);
  expected.erase("MPI_Send");
  CHECK(calls == expected);

  const MPI_Count whole = MPI_Count{2} << 30;  // blocks only: the vector alone
  nampi_pmpi_reset();
  {
    const nampi::detail::large_count_type blocks(whole, MPI_CHAR);
    CHECK(blocks.count() == 1);
  }
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Type_vector", 1}, {"MPI_Type_commit", 1}, {"MPI_Type_free", 1}});
}

TEST_CASE("a count that does not fit the caller's int is a usage error") {
  nampi::Communicator comm;
  const std::vector<char> data(3);
  int count = 0;
  // The count of a buffer fits; a probed count is checked the same way (set_count).
  comm.allgather(send_buf(data), send_count_out(count));
  CHECK(count == 3);
  int_slot slot;
  CHECK_THROWS_AS(nampi::detail::set_count(slot, MPI_Count{INT_MAX} + 1, "recv", "recv_count"),
                  nampi::usage_error);
  nampi::detail::set_count(slot, MPI_Count{INT_MAX}, "recv", "recv_count");
  CHECK(slot.value == INT_MAX);
}

TEST_CASE("send and recv of 2^31 + 10 bytes, count given and inferred") {
  if (!two_ranks()) return;
  nampi::Communicator comm;
  std::vector<char> data;
  if (comm.rank() == 0) {
    data.resize(big);
    fill_pattern(data);
    nampi_pmpi_reset();
    comm.send(send_buf(data), dest(1));  // the count, inferred, is 2^31 + 10
    CHECK(nampi_pmpi::snapshot() == large_transfer("MPI_Send", have_send_c));
    nampi_pmpi_reset();
    comm.send(send_buf(data), dest(1), tag(1));
    CHECK(nampi_pmpi::snapshot() == large_transfer("MPI_Send", have_send_c));
  } else {
    data.resize(big);
    nampi_pmpi_reset();
    comm.recv(recv_buf<nampi::no_resize>(data), recv_count(big), source(0), tag(0));
    CHECK(nampi_pmpi::snapshot() == large_transfer("MPI_Recv", have_recv_c));
    CHECK(has_pattern(data));
    data = {};

    // Sized by probing: MPI_Get_count cannot say (MPI_UNDEFINED), the large way can.
    nampi_pmpi_reset();
    auto [received, count] = comm.recv<char>(source(0), tag(1), recv_count_out());
    auto expected = large_transfer("MPI_Recv", have_recv_c);
    expected["MPI_Probe"] = 1;
    expected["MPI_Get_count"] = 1;
    if (have_get_count_c) {
      expected["MPI_Get_count_c"] = 1;
    } else {
      expected["MPI_Get_elements_x"] = 1;
      expected["MPI_Type_size_x"] = 1;
    }
    CHECK(nampi_pmpi::snapshot() == expected);
    static_assert(std::is_same_v<decltype(count), MPI_Count>);
    CHECK(count == static_cast<MPI_Count>(big));
    CHECK(received.size() == big);
    CHECK(has_pattern(received));
  }
}

TEST_CASE("bcast of 2^31 + 10 chars, and a small one with the int function") {
  if (!two_ranks()) return;
  nampi::Communicator comm;
  std::vector<char> data(big);
  if (comm.rank() == 0) fill_pattern(data);
  nampi_pmpi_reset();
  comm.bcast(send_recv_buf(data), send_recv_count(data.size()));
  CHECK(nampi_pmpi::snapshot() == large_transfer("MPI_Bcast", have_bcast_c));
  CHECK(has_pattern(data));
  data = {};

  std::vector<char> small(INT_MAX / 1024);
  if (comm.rank() == 0) fill_pattern(small);
  nampi_pmpi_reset();
  comm.bcast(send_recv_buf(small), send_recv_count(small.size()));
  CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Bcast", 1}});
  CHECK(has_pattern(small));
}

#if defined(NAMPI_HAVE_MPI_ALLREDUCE_C)
constexpr bool have_allreduce_c = true;
#else
constexpr bool have_allreduce_c = false;
#endif

// The byte values of a large reduction: (i mod 251) / 2, so that the sum of two ranks stays
// below 256 (Open MPI's AVX reductions saturate where the sum of unsigned chars would wrap:
// open-mpi/ompi#8045). A block of them, a whole number of periods long.
std::vector<unsigned char> halved_block(unsigned factor) {
  std::vector<unsigned char> block(period * 4096);
  for (std::size_t i = 0; i < block.size(); ++i)
    block[i] = static_cast<unsigned char>(factor * ((i % period) / 2));
  return block;
}

TEST_CASE("allreduce of 2^31 + 10 unsigned chars: the _c function, else chunks of 2^30") {
  if (!two_ranks()) return;
  nampi::Communicator comm;
  std::vector<unsigned char> data(big);
  const auto mine = halved_block(1);
  for (std::size_t at = 0; at < data.size(); at += mine.size())
    std::memcpy(data.data() + at, mine.data(), std::min(mine.size(), data.size() - at));
  nampi_pmpi_reset();
  comm.allreduce(send_recv_buf(data), op(std::plus<>{}));  // the count, inferred, is 2^31 + 10
  if (have_allreduce_c)
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Allreduce_c", 1}});
  else  // 2 chunks of 2^30 and one of 10
    CHECK(nampi_pmpi::snapshot() == call_counts{{"MPI_Type_get_extent", 1}, {"MPI_Allreduce", 3}});
  const auto sum = halved_block(2);  // both ranks gave the same values
  bool all_equal = true;
  for (std::size_t at = 0; at < data.size() && all_equal; at += sum.size())
    all_equal =
        std::memcmp(data.data() + at, sum.data(), std::min(sum.size(), data.size() - at)) == 0;
  CHECK(all_equal);
}

// The calls of a reduction of one large derived element with a wrapper op
// (large_count_reduction.hpp), without the op's own MPI_Reduce_local calls (how
// often MPI runs the op depends on its algorithm; each run issues 3 for 2^31 + 10
// elements: pieces of 2^30, 2^30 and 10).
call_counts reduced_by_wrapper_op(const std::string& function) {
  return {{"MPI_Type_vector", 1},     {"MPI_Type_contiguous", 1},
          {"MPI_Type_get_extent", 2}, {"MPI_Type_create_struct", 1},
          {"MPI_Type_commit", 1},     {"MPI_Type_free", 3},
          {"MPI_Op_commutative", 1},  {"MPI_Op_create", 1},
          {"MPI_Op_free", 1},         {function, 1}};
}

// Removes the wrapper op's MPI_Reduce_local calls from `calls`, checking they come in 3s.
call_counts without_reduce_local(call_counts calls) {
  CHECK(calls["MPI_Reduce_local"] % 3 == 0);
  calls.erase("MPI_Reduce_local");
  return calls;
}

bool equals_block(const std::vector<unsigned char>& data, const std::vector<unsigned char>& block) {
  for (std::size_t at = 0; at < data.size(); at += block.size())
    if (std::memcmp(data.data() + at, block.data(), std::min(block.size(), data.size() - at)) != 0)
      return false;
  return true;
}

TEST_CASE("iallreduce of 2^31 + 10 unsigned chars: the _c function, else a wrapper op") {
  if (!two_ranks()) return;
#if defined(NAMPI_HAVE_MPI_IALLREDUCE_C)
  constexpr bool have_twin = true;
#else
  constexpr bool have_twin = false;
#endif
  nampi::Communicator comm;
  std::vector<unsigned char> data(big);
  const auto mine = halved_block(1);
  for (std::size_t at = 0; at < data.size(); at += mine.size())
    std::memcpy(data.data() + at, mine.data(), std::min(mine.size(), data.size() - at));
  nampi_pmpi_reset();
  auto pending = comm.iallreduce(send_recv_buf(data), op(std::plus<>{}));
  pending.wait();
  auto expected =
      have_twin ? call_counts{{"MPI_Iallreduce_c", 1}} : reduced_by_wrapper_op("MPI_Iallreduce");
  expected["MPI_Wait"] = 1;
  CHECK(without_reduce_local(nampi_pmpi::snapshot()) == expected);
  CHECK(equals_block(data, halved_block(2)));
}

TEST_CASE("reduce_scatter_block of 2^31 + 10 unsigned chars per rank, at np1") {
  nampi::Communicator comm;
  if (comm.size() != 1) {
    MESSAGE("needs exactly 1 rank (2 GiB per rank to send and as many to receive)");
    return;
  }
#if defined(NAMPI_HAVE_MPI_REDUCE_SCATTER_BLOCK_C)
  constexpr bool have_twin = true;
#else
  constexpr bool have_twin = false;
#endif
  std::vector<unsigned char> data(big);
  const auto mine = halved_block(1);
  for (std::size_t at = 0; at < data.size(); at += mine.size())
    std::memcpy(data.data() + at, mine.data(), std::min(mine.size(), data.size() - at));
  nampi_pmpi_reset();
  const auto piece = comm.reduce_scatter_block(send_buf(data), op(std::plus<>{}));
  auto expected = have_twin ? call_counts{{"MPI_Reduce_scatter_block_c", 1}}
                            : reduced_by_wrapper_op("MPI_Reduce_scatter_block");
  CHECK(without_reduce_local(nampi_pmpi::snapshot()) == expected);
  CHECK(piece.size() == big);
  CHECK(equals_block(piece, mine));  // one rank: its own values
}
