// Helpers of the generated misuse tests (generated/tests/safety/, generator/misuse.py).
#pragma once

#include <doctest/doctest.h>
#include <mpi.h>

#include <cstddef>
#include <iterator>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

namespace nampi_misuse {

// A duplicate of MPI_COMM_WORLD for one case: messages a rank that throws leaves
// unmatched stay there. It is never freed: MPI would reuse its context for the next
// duplicate, whose calls would then match those messages. (MPI_Finalize releases it.)
inline nampi::Communicator duplicate_world() {
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  return nampi::Communicator(dup);
}

// A copy of an array without its last entry.
template <typename Range>
auto one_short(const Range& values) {
  std::vector<std::ranges::range_value_t<Range>> out(std::begin(values), std::end(values));
  if (!out.empty()) out.pop_back();
  return out;
}

// A count one element past a buffer: its size + 1, or, for a count per rank (MPI reads
// `per` blocks of it), size / per + 1 (per blocks of that reach past the end).
template <typename Range>
int one_past(const Range& buffer, int per) {
  return static_cast<int>(std::size(buffer)) / per + 1;
}

// Displacements of the blocks of `counts` laid out one after the other, with the last
// non-empty block moved one element past the end of `buffer`.
template <typename Counts, typename Range>
std::vector<int> displs_one_past(const Counts& counts, const Range& buffer) {
  std::vector<int> out;
  int at = 0;
  for (const auto c : counts) {
    out.push_back(at);
    at += static_cast<int>(c);
  }
  for (std::size_t i = out.size(); i-- > 0;) {
    const int c = static_cast<int>(*(std::begin(counts) + static_cast<std::ptrdiff_t>(i)));
    if (c > 0) {
      out[i] = static_cast<int>(std::size(buffer)) - c + 1;
      break;
    }
  }
  return out;
}

// `call` throws nampi::usage_error, whose message contains `part`.
template <typename Call>
void check_usage_error(Call&& call, const std::string& part) {
  bool thrown = false;
  try {
    call();
  } catch (const nampi::usage_error& e) {
    thrown = true;
    CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
  }
  CHECK_MESSAGE(thrown, "expected nampi::usage_error containing: " << part);
}

}  // namespace nampi_misuse
