// Wall-clock time as MPI measures it: nampi::wtime() (MPI_Wtime) and its
// resolution nampi::wtick() (MPI_Wtick), for timing a region.
#pragma once

#include <mpi.h>

namespace nampi {

// Seconds since some time in the past; the difference of two readings times a region.
inline double wtime() noexcept { return MPI_Wtime(); }

// The resolution of wtime(), in seconds.
inline double wtick() noexcept { return MPI_Wtick(); }

}  // namespace nampi
