// Misuse: nampi/serialization.hpp without C++20: one #error line, and neither
// cereal nor the rest of nampi is parsed after it.
// compile-flags: -std=c++17
// expect-error: nampi needs C++20: compile with -std=c++20
#include <nampi/serialization.hpp>

int main() { return 0; }
