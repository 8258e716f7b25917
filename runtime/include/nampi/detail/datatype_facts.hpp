// What nampi's own algorithms (range collectives, plugins) need to know of a datatype they are
// handed as a C handle: its extents and its size.
//
// They are asked of MPI once per predefined datatype: MPI's predefined datatypes are never
// freed, so their handles keep naming the same type, and a table made at the first use keeps
// their facts (found by comparing handles: no MPI call). Any other handle is asked each time
// (three local MPI calls): a derived datatype can be freed and its handle reused for another.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "nampi/error.hpp"

namespace nampi::detail {

struct datatype_facts {
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  MPI_Count size = 0;

  // Its elements lie densely from offset 0 (a builtin type, a contiguous one): n of them are
  // n * size bytes to copy as they are.
  bool dense() const noexcept {
    return lb == 0 && true_lb == 0 && size == extent && true_extent == extent;
  }
};

// Asks MPI.
inline datatype_facts query_datatype_facts(MPI_Datatype type) {
  datatype_facts f;
  call_mpi("MPI_Type_get_extent", MPI_Type_get_extent, type, &f.lb, &f.extent);
  call_mpi("MPI_Type_get_true_extent", MPI_Type_get_true_extent, type, &f.true_lb, &f.true_extent);
  call_mpi("MPI_Type_size_x", MPI_Type_size_x, type, &f.size);
  return f;
}

// The facts of a predefined datatype, or nullptr for any other handle.
inline const datatype_facts* predefined_datatype_facts(MPI_Datatype type) {
  struct entry {
    MPI_Datatype type;
    datatype_facts facts;
  };
  // The most used first: the scan stops at the first match.
  static const MPI_Datatype predefined[] = {MPI_INT,
                                            MPI_DOUBLE,
                                            MPI_LONG,
                                            MPI_BYTE,
                                            MPI_CHAR,
                                            MPI_FLOAT,
                                            MPI_UNSIGNED,
                                            MPI_UNSIGNED_LONG,
                                            MPI_LONG_LONG,
                                            MPI_UNSIGNED_LONG_LONG,
                                            MPI_INT64_T,
                                            MPI_UINT64_T,
                                            MPI_INT32_T,
                                            MPI_UINT32_T,
                                            MPI_SHORT,
                                            MPI_UNSIGNED_SHORT,
                                            MPI_SIGNED_CHAR,
                                            MPI_UNSIGNED_CHAR,
                                            MPI_INT8_T,
                                            MPI_UINT8_T,
                                            MPI_INT16_T,
                                            MPI_UINT16_T,
                                            MPI_WCHAR,
                                            MPI_LONG_DOUBLE,
                                            MPI_CXX_BOOL,
                                            MPI_C_BOOL,
                                            MPI_AINT,
                                            MPI_OFFSET,
                                            MPI_COUNT,
                                            MPI_C_FLOAT_COMPLEX,
                                            MPI_C_DOUBLE_COMPLEX,
                                            MPI_C_LONG_DOUBLE_COMPLEX,
                                            MPI_2INT,
                                            MPI_FLOAT_INT,
                                            MPI_DOUBLE_INT,
                                            MPI_LONG_INT,
                                            MPI_SHORT_INT,
                                            MPI_LONG_DOUBLE_INT};
  constexpr std::size_t n = sizeof(predefined) / sizeof(predefined[0]);
  // Made at the first use (MPI is initialized then), thread-safely, once.
  static const struct table {
    entry entries[n];
    std::size_t size = 0;
    table() {
      for (const MPI_Datatype t : predefined)
        if (t != MPI_DATATYPE_NULL) entries[size++] = {t, query_datatype_facts(t)};
    }
  } known;
  for (std::size_t i = 0; i < known.size; ++i)
    if (known.entries[i].type == type) return &known.entries[i].facts;
  return nullptr;
}

// The facts of any datatype: from the table, or asked.
inline datatype_facts facts_of(MPI_Datatype type) {
  if (const datatype_facts* known = predefined_datatype_facts(type)) return *known;
  return query_datatype_facts(type);
}

}  // namespace nampi::detail
