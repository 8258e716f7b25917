// Large counts for the reductions one request must carry, on an MPI without
// their `_c` functions: the nonblocking and persistent reduce, allreduce, scan
// and exscan, and reduce_scatter_block in all its forms (spec/bindings:
// `large_count_fallback`). The blocking reduce, allreduce, scan and exscan run
// in chunks instead (large_count.hpp: in_chunks), which keeps MPI's builtin
// reduction algorithms; a request cannot stand for several calls.
//
// The count elements become one element of a derived datatype
// (large_count_type), and the call's op is wrapped in a user op whose function
// finds the element type, the count and the op by the datatype MPI hands it and
// applies the op to them with MPI_Reduce_local, 2^30 elements at a time. The
// wrapper is commutative exactly when the op is (MPI_Op_commutative). The type,
// the wrapper op and the lookup entry live as long as the call (an
// emulation_slot of its result, or a local of a blocking call). MPI_Reduce_local
// is a local call, which a user op may make (BigMPI reduces large counts the same
// way).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

#include "nampi/detail/atomic_cell.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/std_parts.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

struct large_reduction_entry {
  MPI_Datatype element;
  MPI_Op op;
  MPI_Count count;  // elements per element of the derived datatype
  MPI_Aint extent;  // of one element
};

// One reduction's derived datatype and wrapper op: pass count(), type() and op()
// where the call had the count, the datatype and the op. A template only so
// that a unit that includes nampi but makes no such reduction compiles none of
// it (large_reduction below is the one instance); its entries are of the
// parameter's type, so that nothing in it is bound before that (deferred.hpp).
template <typename Entry = large_reduction_entry>
class basic_large_reduction {
 public:
  basic_large_reduction(MPI_Count count, MPI_Datatype element, MPI_Op op)
      : elements_(count, element) {
    MPI_Aint lb = 0, extent = 0;
    call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, element, &lb, &extent);
    int commutative = 1;
    call_mpi("MPI_Op_commutative", MPI_Op_commutative, op, &commutative);
    call_mpi("MPI_Op_create", MPI_Op_create, &reduce_in_pieces, commutative, &op_);
    add(elements_.type(), {element, op, count, extent});
  }
  basic_large_reduction(const basic_large_reduction&) = delete;
  basic_large_reduction& operator=(const basic_large_reduction&) = delete;
  ~basic_large_reduction() {
    remove(elements_.type());
    MPI_Op_free(&op_);
  }

  int count() const noexcept { return elements_.count(); }
  MPI_Datatype type() const noexcept { return elements_.type(); }
  MPI_Op op() const noexcept { return op_; }

 private:
  // The wrapper op's function: `len` elements of the derived datatype, each the
  // call's count of elements, reduced with the call's op in pieces of 2^30. It
  // cannot throw into MPI: a failure aborts with MPI's message.
  static void reduce_in_pieces(void* in, void* inout, int* len, MPI_Datatype* type) {
    Entry e{};
    if (!find(*type, e)) {
      std::fprintf(stderr,
                   "nampi: a large-count reduction op ran on a datatype it does not know\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
      return;
    }
    constexpr MPI_Count piece = MPI_Count{1} << 30;
    char* from = static_cast<char*>(in);
    char* into = static_cast<char*>(inout);
    for (int i = 0; i < *len; ++i) {
      for (MPI_Count done = 0; done < e.count; done += piece) {
        const MPI_Aint at = static_cast<MPI_Aint>(i * e.count + done) * e.extent;
        const int n = static_cast<int>(std::min(piece, e.count - done));
        const int code = MPI_Reduce_local(from + at, into + at, n, e.element, e.op);
        if (code != MPI_SUCCESS) {
          std::fprintf(stderr, "nampi: MPI_Reduce_local in a large-count reduction failed: %s\n",
                       mpi_error::error_string(code).c_str());
          MPI_Abort(MPI_COMM_WORLD, code);
        }
      }
    }
  }

  // The reductions in flight, by their derived datatype (a user op learns
  // nothing else about the call it serves). MPI may run user ops on its
  // progress threads. A few at a time (one per large reduction in flight): a
  // vector searched in order.
  static void add(MPI_Datatype type, const Entry& entry) {
    const spin_guard held(lock());
    entries().push_back({type, entry});
  }
  static void remove(MPI_Datatype type) {
    const spin_guard held(lock());
    auto& all = entries();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].first == type) {
        all[i] = all.back();
        all.pop_back();
        return;
      }
    }
  }
  static bool find(MPI_Datatype type, Entry& entry) {
    const spin_guard held(lock());
    for (const auto& [t, e] : entries()) {
      if (t == type) {
        entry = e;
        return true;
      }
    }
    return false;
  }
  static atomic_cell<bool>& lock() {
    static atomic_cell<bool> held;
    return held;
  }
  static std::vector<std::pair<MPI_Datatype, Entry>>& entries() {
    static std::vector<std::pair<MPI_Datatype, Entry>> e;
    return e;
  }

  large_count_type elements_;
  MPI_Op op_ = MPI_OP_NULL;
};

using large_reduction = basic_large_reduction<>;

}  // namespace nampi::detail
