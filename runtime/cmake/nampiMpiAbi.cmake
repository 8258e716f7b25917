# The MPI 5 standard ABI: MPICH's mpicc_abi/mpicxx_abi select mpi_abi.h (and libmpi_abi) with
# -DMPI_ABI. FindMPI keeps that definition for C but may drop it for C++ (CMake 3.25), and a
# unit compiled against the other mpi.h then passes MPICH's own handle values to libmpi_abi
# (a crash in the first call that takes a handle). nampi_keep_mpi_abi() gives it back to every
# user of MPI::MPI_CXX; nampi's CMakeLists.txt and its installed package both call it, so a
# project that finds nampi with g++ and MPI_CXX_COMPILER=mpicxx_abi compiles for the ABI too.
# Sets NAMPI_MPI_ABI (ON or OFF) in the caller's scope.
function(nampi_keep_mpi_abi)
  set(abi OFF)
  if("MPI_ABI" IN_LIST MPI_C_COMPILE_DEFINITIONS OR "MPI_ABI" IN_LIST MPI_CXX_COMPILE_DEFINITIONS)
    set(abi ON)
  elseif(MPI_CXX_COMPILER)
    execute_process(COMMAND "${MPI_CXX_COMPILER}" -show OUTPUT_VARIABLE show ERROR_QUIET
      RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND show MATCHES "(^| )-DMPI_ABI( |$)")
      set(abi ON)
    endif()
  endif()
  if(abi AND TARGET MPI::MPI_CXX)
    get_target_property(defs MPI::MPI_CXX INTERFACE_COMPILE_DEFINITIONS)
    if(NOT "MPI_ABI" IN_LIST defs)
      set_property(TARGET MPI::MPI_CXX APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS MPI_ABI)
    endif()
  endif()
  set(NAMPI_MPI_ABI ${abi} PARENT_SCOPE)
endfunction()
