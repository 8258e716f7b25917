// A short list of MPI requests that allocates only past four (request_list).
#pragma once

#include <mpi.h>

#include <cstddef>

#include "nampi/detail/trivial_vector.hpp"

namespace nampi::detail {

// MPI requests of one step of an algorithm (a range collective's round, the receives of a
// sparse all-to-all): up to four in place, so that most steps allocate nothing; more move to
// the heap. Handles are values: moving them is fine while no one holds a pointer to one (MPI
// writes through push()'s pointer during the call only).
class request_list {
 public:
  request_list() = default;
  request_list(const request_list&) = delete;
  request_list& operator=(const request_list&) = delete;

  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }
  MPI_Request* data() noexcept { return more_.empty() ? local_ : more_.data(); }
  MPI_Request& operator[](std::size_t i) noexcept { return data()[i]; }
  // A new request slot (MPI_REQUEST_NULL), valid until the next push.
  MPI_Request* push() {
    if (size_ < in_place && more_.empty()) [[likely]] {
      local_[size_] = MPI_REQUEST_NULL;
      return &local_[size_++];
    }
    return push_more();
  }
  void clear() noexcept {
    size_ = 0;
    more_.clear();
  }

 private:
  [[gnu::noinline]] MPI_Request* push_more() {
    if (more_.empty()) more_.assign(local_, local_ + size_);
    ++size_;
    more_.push_back(MPI_REQUEST_NULL);
    return &more_.back();
  }

  static constexpr std::size_t in_place = 4;
  MPI_Request local_[in_place];
  trivial_vector<MPI_Request> more_;  // all of them, once there were more than in_place
  std::size_t size_ = 0;
};

}  // namespace nampi::detail
