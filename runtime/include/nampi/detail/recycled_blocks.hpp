// Memory that a call allocates and frees again at once, call after call: a range call's
// coroutine frame (range/task.hpp) and a nonblocking call's slots (call_state.hpp). A freed
// block is kept in a small cache of its thread and handed to the next allocation of its size
// class, so that a steady loop of calls costs two array accesses where malloc and free cost
// about 150 instructions together (issue 36: a range collective's instructions outside MPI).
//
// At most `per_class` blocks of each of `classes` size classes (16 bytes apart, up to 1 KiB)
// stay cached per thread (in practice a few KiB: a program's calls use a few classes; at
// most 264 KiB, if a thread used every class); larger blocks go straight to the heap. A block
// freed on another thread than the one that allocated it joins the freeing thread's cache
// (it is plain heap memory). A thread's cache is freed when the thread ends.
#pragma once

#include <cstddef>
#include <new>

// Under AddressSanitizer blocks go straight to the heap, so that a use after free is caught,
// unless NAMPI_RECYCLE_BLOCKS=1 is given (tests/runtime/test_recycled_blocks.cpp): then the
// blocks kept are poisoned, and a use of one while it is kept is caught.
#if defined(__SANITIZE_ADDRESS__)
#define NAMPI_BLOCKS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NAMPI_BLOCKS_UNDER_ASAN 1
#endif
#endif
#ifndef NAMPI_RECYCLE_BLOCKS
#ifdef NAMPI_BLOCKS_UNDER_ASAN
#define NAMPI_RECYCLE_BLOCKS 0
#else
#define NAMPI_RECYCLE_BLOCKS 1
#endif
#endif
#if NAMPI_RECYCLE_BLOCKS && defined(NAMPI_BLOCKS_UNDER_ASAN)
#include <sanitizer/asan_interface.h>
#define NAMPI_BLOCK_KEPT(block, bytes) ASAN_POISON_MEMORY_REGION(block, bytes)
#define NAMPI_BLOCK_TAKEN(block, bytes) ASAN_UNPOISON_MEMORY_REGION(block, bytes)
#else
#define NAMPI_BLOCK_KEPT(block, bytes) (void)0
#define NAMPI_BLOCK_TAKEN(block, bytes) (void)0
#endif

namespace nampi::detail {

// A thread's cached blocks. Trivial, so that reaching it is one thread-local access; the
// first block it keeps registers drain_at_thread_exit (arm()), which frees them at the end.
struct block_cache {
  // The size classes are glibc malloc's chunk sizes (16 bytes apart, 8 of each chunk for
  // its header, up to its per-thread cache's largest): a block is allocated at the size
  // malloc would give it anyway, so the blocks that are not kept (more than per_class of a
  // class in use at once) meet malloc's fast paths as they would without this cache.
  static constexpr std::size_t granule = 16;
  static constexpr std::size_t header = 8;
  static constexpr std::size_t classes = 64;   // up to 1,032 bytes
  static constexpr std::size_t per_class = 8;  // a batch of requests in flight at once

  void* blocks[classes][per_class];
  unsigned char counts[classes];
  bool armed;   // its drain at the thread's end is registered
  bool closed;  // drained (the thread is ending): blocks go straight back to the heap

  // bytes 1..24: class 0 (a 32-byte chunk), 25..40: class 1, ...
  static std::size_t class_of(std::size_t bytes) noexcept {
    const std::size_t chunks = (bytes + header + granule - 1) / granule;
    return chunks < 2 ? 0 : chunks - 2;
  }
  // The largest size of a class: what its blocks are allocated with.
  static std::size_t bytes_of(std::size_t c) noexcept { return (c + 2) * granule - header; }
};

#if NAMPI_RECYCLE_BLOCKS
constinit inline thread_local block_cache thread_blocks{};

[[gnu::noinline]] inline void arm_block_cache() {
  struct drain_at_thread_exit {
    ~drain_at_thread_exit() {
      block_cache& cache = thread_blocks;
      for (std::size_t c = 0; c < block_cache::classes; ++c)
        while (cache.counts[c] > 0) {
          void* block = cache.blocks[c][--cache.counts[c]];
          NAMPI_BLOCK_TAKEN(block, block_cache::bytes_of(c));
          ::operator delete(block);
        }
      cache.closed = true;
    }
  };
  thread_local drain_at_thread_exit drain;  // made here, the first time: its end registered
  thread_blocks.armed = true;
}
#endif

// At least `bytes`, aligned as operator new aligns.
inline void* take_block(std::size_t bytes) {
#if NAMPI_RECYCLE_BLOCKS
  const std::size_t c = block_cache::class_of(bytes);
  if (c < block_cache::classes) {
    block_cache& cache = thread_blocks;
    if (cache.counts[c] > 0) {
      void* block = cache.blocks[c][--cache.counts[c]];
      NAMPI_BLOCK_TAKEN(block, block_cache::bytes_of(c));
      return block;
    }
    return ::operator new(block_cache::bytes_of(c));
  }
#endif
  return ::operator new(bytes);
}

// A block of take_block(bytes), with the same `bytes`.
inline void give_block(void* block, std::size_t bytes) noexcept {
#if NAMPI_RECYCLE_BLOCKS
  const std::size_t c = block_cache::class_of(bytes);
  block_cache& cache = thread_blocks;
  if (c < block_cache::classes && cache.counts[c] < block_cache::per_class && !cache.closed) {
    if (!cache.armed) arm_block_cache();
    NAMPI_BLOCK_KEPT(block, block_cache::bytes_of(c));
    cache.blocks[c][cache.counts[c]++] = block;
    return;
  }
#else
  (void)bytes;
#endif
  ::operator delete(block);
}

// A base whose class's objects come from the thread's recycled blocks (class-specific new and
// delete; found by a coroutine's frame allocation in its promise type too). For classes of at
// most operator new's alignment.
struct recycled_allocation {
  static void* operator new(std::size_t bytes) { return take_block(bytes); }
  static void operator delete(void* block, std::size_t bytes) noexcept { give_block(block, bytes); }
};
struct heap_allocation {};  // the other choice: plain new and delete

}  // namespace nampi::detail
