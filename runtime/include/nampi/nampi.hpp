// nampi: named-parameter C++ bindings for MPI. Include this one header.
#pragma once

// nampi needs C++20: say so once, and parse nothing of nampi without it.
// (GCC 10 reports -std=c++20 as 201709L and is not supported either.)
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 202002L
#error "nampi needs C++20: compile with -std=c++20 (or later)"
#else

#include "nampi/abi_version.hpp"
#include "nampi/communicator.hpp"
#include "nampi/datatype.hpp"
#include "nampi/environment.hpp"
#include "nampi/error.hpp"
#include "nampi/file.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/group.hpp"
#include "nampi/message.hpp"
#include "nampi/ops.hpp"
#include "nampi/range_communicator.hpp"
#include "nampi/request_pool.hpp"
#include "nampi/types.hpp"
#include "nampi/window.hpp"
#include "nampi/wtime.hpp"

#endif  // C++20
