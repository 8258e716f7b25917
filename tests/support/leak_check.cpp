#include "leak_check.hpp"

#include <cstdio>
#include <initializer_list>

// Weak: nampi_test_main is also linked into programs without the PMPI counter; there
// both are null and the check is skipped.
extern "C" {
__attribute__((weak)) unsigned long long nampi_pmpi_total(int index);
__attribute__((weak)) int nampi_pmpi_index(const char* name);
}

namespace {

// The calls that return a new derived datatype the caller must free, with their large-count
// twins. (MPI_Type_create_f90_* and MPI_Type_match_size return predefined types.)
constexpr std::initializer_list<const char*> datatype_constructors = {
    "MPI_Type_contiguous",           "MPI_Type_contiguous_c",
    "MPI_Type_vector",               "MPI_Type_vector_c",
    "MPI_Type_create_hvector",       "MPI_Type_create_hvector_c",
    "MPI_Type_indexed",              "MPI_Type_indexed_c",
    "MPI_Type_create_hindexed",      "MPI_Type_create_hindexed_c",
    "MPI_Type_create_indexed_block", "MPI_Type_create_indexed_block_c",
    "MPI_Type_create_hindexed_block", "MPI_Type_create_hindexed_block_c",
    "MPI_Type_create_struct",        "MPI_Type_create_struct_c",
    "MPI_Type_create_subarray",      "MPI_Type_create_subarray_c",
    "MPI_Type_create_darray",        "MPI_Type_create_darray_c",
    "MPI_Type_create_resized",       "MPI_Type_create_resized_c",
    "MPI_Type_dup",                  "MPI_Type_hvector",
    "MPI_Type_hindexed",             "MPI_Type_struct",
};

unsigned long long total(std::initializer_list<const char*> names) {
  unsigned long long sum = 0;
  for (const char* name : names) {
    const int index = nampi_pmpi_index(name);
    if (index >= 0) sum += nampi_pmpi_total(index);
  }
  return sum;
}

}  // namespace

namespace nampi_test {

bool check_no_leaks(int rank) {
  if (nampi_pmpi_total == nullptr || nampi_pmpi_index == nullptr) return true;

  const unsigned long long types_created = total(datatype_constructors);
  const unsigned long long types_freed = total({"MPI_Type_free"});
  const unsigned long long commits = total({"MPI_Type_commit"});
  // MPI_Type_get_contents hands out datatypes the caller frees, and the counter cannot
  // see how many: such a program frees more than it created.
  const bool contents_taken = total({"MPI_Type_get_contents", "MPI_Type_get_contents_c"}) != 0;
  const bool types_ok = contents_taken ? types_freed >= types_created : types_freed == types_created;
  const unsigned long long ops_created = total({"MPI_Op_create", "MPI_Op_create_c"});
  const unsigned long long ops_freed = total({"MPI_Op_free"});
  const bool ops_ok = ops_freed == ops_created;

  // One line, so that no other output can come between its parts.
  if (!types_ok || !ops_ok)
    std::fprintf(stderr,
                 "[nampi test] rank %d: leak check failed: %llu datatypes created, %llu freed; "
                 "%llu user ops created, %llu freed\n",
                 rank, types_created, types_freed, ops_created, ops_freed);
  if (rank == 0)
    std::printf(
        "[nampi test] leak check (rank 0, whole program): datatypes created %llu, committed %llu, "
        "freed %llu%s; user ops created %llu, freed %llu\n",
        types_created, commits, types_freed,
        contents_taken ? " (plus those MPI_Type_get_contents returned)" : "", ops_created,
        ops_freed);
  std::fflush(stdout);
  std::fflush(stderr);
  return types_ok && ops_ok;
}

}  // namespace nampi_test
