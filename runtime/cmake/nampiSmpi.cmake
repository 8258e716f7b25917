# SimGrid's SMPI runs every simulated rank in one process: it loads the program (a shared
# object, smpicxx links it so) once per rank from a copy of its file (smpi/privatization,
# dlopen), so that each rank has its own globals. GCC makes the static variables of inline
# functions and inline variables (nampi's type and op registries, own contexts, tag slots, the
# sparse plugin's keyval, ...) GNU unique symbols, which the dynamic linker binds for the whole
# process to the first copy loaded: all ranks would share rank 0's (the sparse all-to-all of
# 64 ranks then aborts inside SimGrid). With -fno-gnu-unique they are weak symbols like any
# other, and each copy binds its own. Every program that includes nampi needs it, so it is an
# interface option of nampi::nampi, also in the installed package.
#
# The MPI is SMPI where its mpi.h includes smpi.h (SMPI_H); the test compiles with MPI::MPI_CXX.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles("#include <mpi.h>
#ifndef SMPI_H
#error not SimGrid's SMPI
#endif
int main() { return 0; }" NAMPI_MPI_IS_SMPI)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)
if(NAMPI_MPI_IS_SMPI)
  target_compile_options(nampi INTERFACE $<$<CXX_COMPILER_ID:GNU>:-fno-gnu-unique>)
  message(STATUS "nampi: SimGrid's SMPI (nampi::nampi adds -fno-gnu-unique: globals per simulated rank)")
endif()
