// What the installed MPI provides (NAMPI_HAVE_<FUNCTION>, NAMPI_HAVE_ULFM): nampi/config.h,
// which CMake's configure step writes where nampi is built or installed (a probe of the MPI's
// symbols). Where it is absent, e.g. headers used straight from the source tree with
// `-I runtime/include -I generated/include`, the functions every MPI of nampi's matrix
// provides (generated from spec/mpi/availability/): newer calls then say, at compile time,
// that the installed MPI does not provide them.
#pragma once

#if __has_include("nampi/config.h")
#include "nampi/config.h"
#else
#include "nampi/generated/config_fallback.h"
#endif
