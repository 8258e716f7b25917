// vector_allgather's plain MPI program with <nampi/nampi.hpp> included first and nothing
// of it used: what nampi's headers alone cost a real program, before it calls anything.
// Against mpi.cpp this is the floor of apps/vector_allgather's ratio (bench/README.md,
// "Where compile time goes").
#include <nampi/nampi.hpp>

#include "../../apps/vector_allgather/mpi.cpp"
