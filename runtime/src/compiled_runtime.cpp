// The library nampi_compiled (CMake: nampi::compiled): the runtime's out-of-line functions
// (nampi/detail/out_of_line.hpp), compiled once for a program whose units define
// NAMPI_COMPILED_RUNTIME=1, where each unit would otherwise compile those it calls.
// Includes every header that defines one (tests/generator/test_compiled_runtime.py checks
// the list).
#define NAMPI_RUNTIME_SOURCE 1
#ifndef NAMPI_COMPILED_RUNTIME
#define NAMPI_COMPILED_RUNTIME 1
#endif

#include "nampi/detail/buffer_checks.hpp"
#include "nampi/detail/call_state.hpp"
#include "nampi/detail/datatype_facts.hpp"
#include "nampi/detail/handle_registry.hpp"
#include "nampi/detail/infer.hpp"
#include "nampi/detail/large_count.hpp"
#include "nampi/detail/narrow.hpp"
#include "nampi/detail/range/messages.hpp"
#include "nampi/detail/trivial_vector.hpp"
#include "nampi/environment.hpp"
#include "nampi/error.hpp"
#include "nampi/types.hpp"
