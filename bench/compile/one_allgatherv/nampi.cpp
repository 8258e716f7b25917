// eight_allgathervs with one element type: against eight_allgathervs, what each further
// instance of a call costs once the headers, the environment and the code every allgatherv
// shares are paid (bench/compile_time.py).
#define ONE_ALLGATHERV
#include "../eight_allgathervs/nampi.cpp"
