// The thread's recycled blocks (nampi/detail/recycled_blocks.hpp): a block freed is handed to
// the next allocation of its size class, up to eight per class; larger
// blocks and a ninth go back to the heap; a loop of nonblocking calls, on a range and on a
// communicator, allocates nothing once it runs (counted with a replaced global operator new);
// blocks freed on a thread that ends are freed with it. Under AddressSanitizer nothing is recycled
// (so that a use after free is caught): the reuse checks are skipped there, the rest holds.
#include <doctest/doctest.h>

#include <cstdlib>
#include <functional>
#include <nampi/nampi.hpp>
#include <new>
#include <thread>
#include <vector>

using namespace nampi::params;

namespace {
bool counting = false;
long allocations = 0;
}  // namespace

// Counts the allocations made while `counting` (this program's own operator new). Out of
// line, so that GCC does not see free() meet a pointer from operator new where they inline
// (-Wmismatched-new-delete at -O2).
[[gnu::noinline]] void* operator new(std::size_t bytes) {
  if (counting) ++allocations;
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

constexpr bool recycles = NAMPI_RECYCLE_BLOCKS != 0;

// Allocations made by `body`.
template <typename Body>
long allocations_of(Body&& body) {
  allocations = 0;
  counting = true;
  body();
  counting = false;
  return allocations;
}

}  // namespace

TEST_CASE("recycled blocks: a freed block serves the next allocation of its size class") {
  void* a = nampi::detail::take_block(100);
  nampi::detail::give_block(a, 100);
  void* b = nampi::detail::take_block(90);  // 89..104 bytes (malloc's 112-byte chunks): one class
  if (recycles) CHECK(b == a);
  void* c = nampi::detail::take_block(90);  // the cache of the class is empty now
  CHECK(c != b);
  nampi::detail::give_block(b, 90);
  nampi::detail::give_block(c, 90);
  // The next class up is another cache.
  void* d = nampi::detail::take_block(105);
  nampi::detail::give_block(d, 105);
  void* e = nampi::detail::take_block(90);
  if (recycles) CHECK(e != d);
  nampi::detail::give_block(e, 90);
}

TEST_CASE("recycled blocks: eight per class are kept, more and larger blocks go to the heap") {
  constexpr std::size_t bytes = 200;
  constexpr int kept = static_cast<int>(nampi::detail::block_cache::per_class);
  std::vector<void*> blocks;
  for (int i = 0; i <= kept; ++i) blocks.push_back(nampi::detail::take_block(bytes));
  for (void* b : blocks) nampi::detail::give_block(b, bytes);
  // Taken again without a heap allocation: the eight kept (the ninth went back).
  const long heap = allocations_of([&] {
    for (int i = 0; i < kept; ++i)
      blocks[static_cast<std::size_t>(i)] = nampi::detail::take_block(bytes);
  });
  CHECK(heap == (recycles ? 0 : kept));
  CHECK(allocations_of([&] { blocks.back() = nampi::detail::take_block(bytes); }) == 1);
  for (void* b : blocks) nampi::detail::give_block(b, bytes);
  // A block above 1 KiB is never kept.
  void* big = nampi::detail::take_block(4096);
  nampi::detail::give_block(big, 4096);
  void* again = nullptr;
  CHECK(allocations_of([&] { again = nampi::detail::take_block(4096); }) == 1);
  nampi::detail::give_block(again, 4096);
}

TEST_CASE("recycled blocks: a thread's blocks, and blocks freed there from another, end with it") {
  void* from_main = nampi::detail::take_block(64);
  std::thread worker([from_main] {
    void* own = nampi::detail::take_block(64);
    nampi::detail::give_block(own, 64);
    nampi::detail::give_block(from_main, 64);  // joins the worker's cache
    void* reused = nampi::detail::take_block(64);
    if (recycles) CHECK(reused == from_main);
    nampi::detail::give_block(reused, 64);
  });
  worker.join();  // its cache (own and from_main) is freed here: LeakSanitizer and valgrind see no
                  // leak
}

TEST_CASE("recycled blocks: a loop of nonblocking calls allocates nothing once it runs") {
  nampi::Communicator world;
  const int rank = world.rank();
  const int size = world.size();
  auto all = world.range(first(0), last(size - 1));
  std::vector<long> mine(1), prefix(1), sum(1);
  auto one_round = [&](int i) {
    mine[0] = rank + i;
    all.iscan(send_buf(mine), op(std::plus<>{}), recv_buf(prefix)).wait();
    world.iallreduce(send_buf(mine), op(std::plus<>{}), recv_buf(sum)).wait();
  };
  one_round(0);  // the first calls fill the caches (and nampi's tables)
  const long heap = allocations_of([&] {
    for (int i = 1; i <= 50; ++i) one_round(i);
  });
  if (recycles) CHECK(heap == 0);
  // And the values are right: the last round's prefix and sum.
  long expected_prefix = 0, expected_sum = 0;
  for (int r = 0; r < size; ++r) {
    if (r <= rank) expected_prefix += r + 50;
    expected_sum += r + 50;
  }
  CHECK(prefix[0] == expected_prefix);
  CHECK(sum[0] == expected_sum);
}
