// AddressSanitizer's options for the safety test programs (tests/safety/, generated/tests/safety/):
// they look for overflows; leaks are the sanitize build's business (MPI's own would need
// suppressions here). Set in the program, since Open MPI's launcher passes no environment on.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
