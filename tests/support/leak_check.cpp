#include "leak_check.hpp"

#include <cstdio>

// Weak: nampi_test_main is also linked into programs without the PMPI counter; there
// these are null and the check is skipped.
extern "C" {
__attribute__((weak)) unsigned long long nampi_pmpi_total(int index);
__attribute__((weak)) int nampi_pmpi_index(const char* name);
// The generated lists of the calls that make a new datatype / user op (null-terminated).
__attribute__((weak)) extern const char* const nampi_pmpi_datatype_constructors[];
__attribute__((weak)) extern const char* const nampi_pmpi_op_constructors[];
}

namespace {

// Calls of `name` since the program started (0 if this MPI lacks it).
unsigned long long calls(const char* name) {
  const int index = nampi_pmpi_index(name);
  return index < 0 ? 0 : nampi_pmpi_total(index);
}

// Calls of the functions of a null-terminated list.
unsigned long long calls(const char* const* names) {
  unsigned long long sum = 0;
  for (; *names != nullptr; ++names) sum += calls(*names);
  return sum;
}

}  // namespace

namespace nampi_test {

bool check_no_leaks(int rank) {
  if (nampi_pmpi_total == nullptr || nampi_pmpi_index == nullptr ||
      nampi_pmpi_datatype_constructors == nullptr || nampi_pmpi_op_constructors == nullptr)
    return true;

  const unsigned long long types_created = calls(nampi_pmpi_datatype_constructors);
  const unsigned long long types_freed = calls("MPI_Type_free");
  const unsigned long long commits = calls("MPI_Type_commit");
  // MPI_Type_get_contents hands out datatypes the caller frees, and the counter cannot
  // see how many: such a program frees more than it created.
  const bool contents_taken =
      calls("MPI_Type_get_contents") + calls("MPI_Type_get_contents_c") != 0;
  const bool types_ok =
      contents_taken ? types_freed >= types_created : types_freed == types_created;
  const unsigned long long ops_created = calls(nampi_pmpi_op_constructors);
  const unsigned long long ops_freed = calls("MPI_Op_free");
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
