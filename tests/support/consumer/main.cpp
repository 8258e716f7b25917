// Built by the install/consumer test against an installed nampi: find_package(nampi) alone
// must give the include directories, C++20, MPI and cereal (nampi/serialization.hpp), and
// for the MPI 5 standard ABI mpi_abi.h (NAMPI_CONSUMER_EXPECT_ABI: nampi/abi_version.hpp).
#include <cstdio>
#include <map>
#include <nampi/abi_version.hpp>
#include <nampi/nampi.hpp>
#include <nampi/serialization.hpp>
#include <string>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::map<std::string, int> dict;
  if (comm.rank() == 0) dict = {{"one", 1}, {"two", 2}};
  comm.bcast(send_recv_buf(nampi::as_serialized(dict)));
  // Built for the ABI exactly where expected; there the MPI reports its version (1.0 and up).
  const auto abi = nampi::abi_version();
  const bool abi_ok = nampi::built_for_abi == (NAMPI_CONSUMER_EXPECT_ABI != 0) &&
                      (!nampi::built_for_abi || (abi && abi->major >= 1));
  const bool ok = dict.size() == 2 && dict.at("two") == 2 && __cplusplus >= 202002L && abi_ok;
  std::printf("nampi consumer: rank %d, C++ %ld, MPI ABI %s, %s\n", comm.rank(),
              static_cast<long>(__cplusplus), nampi::built_for_abi ? "yes" : "no",
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
