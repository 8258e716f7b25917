// nampi::abi_version() (nampi/abi_version.hpp): the MPI 5 standard ABI's version where the
// program was built for it (make test MPI=mpich-abi: MPICH 5.0.2's libmpi_abi, ABI 1.0), none
// where it was built against an MPI's own mpi.h (MPICH 5 answers -1, Open MPI 5 and the Debian
// MPIs lack MPI_Abi_get_version).
#include <doctest/doctest.h>

#include <cstdint>
#include <nampi/nampi.hpp>

TEST_CASE("abi_version: the ABI's version exactly where the program was built for the ABI") {
  const auto abi = nampi::abi_version();
  CHECK(abi.has_value() == nampi::built_for_abi);
  if (abi) {
    CHECK(abi->major >= 1);
    CHECK(abi->minor >= 0);
  }
#if defined(MPI_ABI)
  // The ABI's handles are the standard's constants, the same in every MPI that provides it.
  CHECK(reinterpret_cast<std::uintptr_t>(MPI_SUM) == 0x21);
#endif
}
