// The include-only unit with global process addressing: <nampi/nampi.hpp> and
// <nampi/global.hpp>, nothing called; against include_only, what the global layer adds to a
// unit that includes it (issue 35 asks for at most 0.5 s; bench/compile_time.py).
#include <nampi/global.hpp>
#include <nampi/nampi.hpp>

int main() { return 0; }
