// Built by the install/consumer test against an installed nampi: find_package(nampi) alone
// must give the include directories, C++20, MPI and cereal (nampi/serialization.hpp).
#include <cstdio>
#include <map>
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
  const bool ok = dict.size() == 2 && dict.at("two") == 2 && __cplusplus >= 202002L;
  std::printf("nampi consumer: rank %d, C++ %ld, %s\n", comm.rank(), static_cast<long>(__cplusplus),
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
