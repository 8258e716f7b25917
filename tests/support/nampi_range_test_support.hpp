// Range communicator fixtures shared by the generated call tests (their "on ranges" cases)
// and the runtime tests: the ranges every call runs on, and the check that a range's call
// issued only point-to-point messages on the parent and local calls.
#pragma once

#include <doctest/doctest.h>

#include <nampi/nampi.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace nampi_test {

// A range of the world: ranks first, first + stride, ... up to last; with tag(tag) unless
// no_tag. then_barrier: the ranks wait for each other after it, or (false) the
// next range runs at once, overlapping this one in time.
struct range_shape {
  const char* name;
  int first;
  int last;
  int stride;
  int tag = nampi::detail::range_handle::no_tag;
  bool then_barrier = true;
};

// The whole world, its upper half (overlapping the world), the even and the odd ranks, one
// after the other; then two overlapping ranges at once: the even ranks and the upper half,
// without tags (their collectives' own tags tell them apart; a process in both runs the even
// ranks' call first, as every process lists them in this order).
inline std::vector<range_shape> range_shapes(int size) {
  std::vector<range_shape> out{{"world", 0, size - 1, 1}, {"upper half", size / 2, size - 1, 1}};
  if (size > 1) out.push_back({"even ranks", 0, size - 1, 2});
  if (size > 2) out.push_back({"odd ranks", 1, size - 1, 2});
  out.push_back({"even ranks, at once with the next", 0, size - 1, 2,
                 nampi::detail::range_handle::no_tag, false});
  out.push_back({"upper half, at once with the one before", size / 2, size - 1, 1});
  return out;
}

// What a range's calls may issue: point-to-point messages, their waits and probes, and calls
// that touch no communicator (reductions of local buffers, datatypes, ops, counts of a status,
// MPI_TAG_UB). Never a collective or a communicator constructor.
inline const std::set<std::string>& point_to_point_or_local() {
  static const std::set<std::string> allowed{"MPI_Send",
                                             "MPI_Recv",
                                             "MPI_Sendrecv",
                                             "MPI_Isend",
                                             "MPI_Irecv",
                                             "MPI_Wait",
                                             "MPI_Waitall",
                                             "MPI_Test",
                                             "MPI_Testall",
                                             "MPI_Probe",
                                             "MPI_Iprobe",
                                             "MPI_Get_count",
                                             "MPI_Get_count_c",
                                             "MPI_Get_elements_x",
                                             "MPI_Type_size_x",
                                             "MPI_Pack",
                                             "MPI_Pack_size",
                                             "MPI_Unpack",
                                             "MPI_Reduce_local",
                                             "MPI_Op_create",
                                             "MPI_Op_free",
                                             "MPI_Op_commutative",
                                             "MPI_Type_get_extent",
                                             "MPI_Type_get_true_extent",
                                             "MPI_Type_create_keyval",
                                             "MPI_Type_get_attr",
                                             "MPI_Type_set_attr",
                                             "MPI_Type_vector",
                                             "MPI_Type_contiguous",
                                             "MPI_Type_create_struct",
                                             "MPI_Type_commit",
                                             "MPI_Type_free",
                                             "MPI_Comm_get_attr"};
  return allowed;
}

inline void check_only_point_to_point(const std::map<std::string, unsigned long long>& calls) {
  for (const auto& call : calls) {  // (clang 14 cannot capture a structured binding in INFO)
    const std::string& function = call.first;
    INFO(function << " called " << call.second << " times on a range");
    CHECK(point_to_point_or_local().count(function) == 1);
  }
}

}  // namespace nampi_test
