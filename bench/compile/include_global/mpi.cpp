// The include-only translation unit of plain MPI (bench/compile_time.py).
#include <mpi.h>

int main() { return 0; }
