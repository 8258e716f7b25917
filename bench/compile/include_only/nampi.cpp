// The include-only translation unit: what including nampi costs a program before it
// calls anything (bench/compile_time.py; issue 14 asks for at most 0.4 s on the
// machine it was measured on).
#include <nampi/nampi.hpp>

int main() { return 0; }
