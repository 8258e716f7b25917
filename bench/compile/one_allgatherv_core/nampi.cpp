// one_allgatherv with the lean include: <nampi/core.hpp> and the one family it calls,
// <nampi/calls/allgatherv.hpp>, instead of <nampi/nampi.hpp> (bench/compile_time.py).
#define ONE_ALLGATHERV
#define CORE_INCLUDE
#include "../eight_allgathervs/nampi.cpp"
