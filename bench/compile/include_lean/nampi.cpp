// The lean include-only unit: a communicator's calls and the environment, without the
// rest of <nampi/nampi.hpp> (groups, range communicators, windows, files, requests,
// messages, types), as the README allows (bench/compile_time.py).
#include <nampi/communicator.hpp>
#include <nampi/environment.hpp>

int main() { return 0; }
