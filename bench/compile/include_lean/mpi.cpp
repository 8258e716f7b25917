// The plain MPI twin of the lean include-only unit (bench/compile_time.py).
#include <mpi.h>

int main() { return 0; }
