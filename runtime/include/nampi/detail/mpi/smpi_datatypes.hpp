// SimGrid's SMPI (3.32): smpi.h declares the objects behind MPI_CXX_FLOAT_COMPLEX,
// MPI_CXX_DOUBLE_COMPLEX and MPI_CXX_LONG_DOUBLE_COMPLEX misspelt (smpi_MPI_MPI_CXX_...,
// ..._DOULE_...), while its macros and libsimgrid use smpi_MPI_CXX_FLOAT_COMPLEX, ...: the
// macros name undeclared objects. They are declared here as libsimgrid defines them; where a
// fixed smpi.h declares them itself, this is a harmless second declaration.
#pragma once

#include <mpi.h>

#if defined(SMPI_H)
extern "C" {
extern SMPI_Datatype smpi_MPI_CXX_FLOAT_COMPLEX;
extern SMPI_Datatype smpi_MPI_CXX_DOUBLE_COMPLEX;
extern SMPI_Datatype smpi_MPI_CXX_LONG_DOUBLE_COMPLEX;
}
#endif
