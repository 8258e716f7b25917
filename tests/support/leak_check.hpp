// Whole-program leak check of the test programs (called by the test main after
// MPI_Finalize): every derived datatype and user op the program created, counted by the
// PMPI counter since the start and never reset, must have been freed by then.
#pragma once

namespace nampi_test {

// True if nothing leaked on this rank, or if the program has no PMPI counter linked.
// Prints what leaked (any rank), and on rank 0 the counts it compared.
bool check_no_leaks(int rank);

}  // namespace nampi_test
