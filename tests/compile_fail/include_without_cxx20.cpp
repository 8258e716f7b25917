// Misuse: nampi without C++20. Each entry header says so in one #error line,
// and nothing of nampi is parsed after it (not thousands of lines of errors
// from the C++20 code): two headers, two lines.
// compile-flags: -std=c++17
// expect-error: nampi needs C++20: compile with -std=c++20
// expect-error: nampi needs C++20: compile with -std=c++20
#include <nampi/mpi.hpp>
#include <nampi/nampi.hpp>

int main() { return 0; }
