// The plain MPI twin of the core include-only unit: include_only's (bench/compile_time.py).
#include "../include_only/mpi.cpp"
