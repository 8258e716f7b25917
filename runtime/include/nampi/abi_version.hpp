// The MPI 5 standard ABI a program was built for, if any: MPI 5.0's MPI_Abi_get_version,
// asked where the MPI has it (NAMPI_HAVE_MPI_ABI_GET_VERSION, found by the configure probe).
//
//   if (const auto abi = nampi::abi_version()) std::printf("ABI %d.%d\n", abi->major, abi->minor);
//
// A program compiled with mpicxx_abi (mpi_abi.h, libmpi_abi: make test MPI=mpich-abi) gets the
// ABI's version (MPICH 5.0.2: 1.0) and runs on any MPI that provides that ABI; built against an
// MPI's own mpi.h it gets none: MPICH 5 answers -1.-1 there, and an MPI before 5.0 lacks the call.
#pragma once

#include <mpi.h>

#include <optional>

#include "nampi/detail/configuration.hpp"
#include "nampi/error.hpp"

namespace nampi {

struct abi_version_info {
  int major;
  int minor;
};

// Whether this unit was compiled against mpi_abi.h (the wrapper's -DMPI_ABI).
#if defined(MPI_ABI)
inline constexpr bool built_for_abi = true;
#else
inline constexpr bool built_for_abi = false;
#endif

// The standard ABI's version this program runs with, or none (see above).
inline std::optional<abi_version_info> abi_version() {
#if defined(NAMPI_HAVE_MPI_ABI_GET_VERSION)
  int major = -1, minor = -1;
  detail::call_mpi("MPI_Abi_get_version", MPI_Abi_get_version, &major, &minor);
  if (major >= 0) return abi_version_info{major, minor};
#endif
  return std::nullopt;
}

}  // namespace nampi
