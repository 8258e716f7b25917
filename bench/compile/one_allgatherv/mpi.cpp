// one_allgatherv's program with plain MPI: eight_allgathervs/mpi.cpp with one element type
// (bench/compile_time.py).
#define ONE_ALLGATHERV
#include "../eight_allgathervs/mpi.cpp"
