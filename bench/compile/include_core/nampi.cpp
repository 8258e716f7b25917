// The core include-only unit: <nampi/core.hpp> (the environment, communicators and named
// parameters, every call declared and none defined) and nothing else (bench/compile_time.py).
#include <nampi/core.hpp>

int main() { return 0; }
