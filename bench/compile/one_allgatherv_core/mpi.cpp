// one_allgatherv_core's plain MPI twin: one_allgatherv's (bench/compile_time.py).
#include "../one_allgatherv/mpi.cpp"
