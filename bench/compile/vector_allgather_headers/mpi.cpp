// vector_allgather's plain MPI program, unchanged: the twin of nampi.cpp beside it
// (bench/compile_time.py).
#include "../../apps/vector_allgather/mpi.cpp"
