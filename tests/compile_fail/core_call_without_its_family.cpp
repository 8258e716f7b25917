// <nampi/core.hpp> declares a communicator's calls and defines none: a call whose family header
// (nampi/calls/<family>.hpp) the unit does not include is a compile error that names the call
// (GCC: "use of 'auto ...allgatherv_family<Comm>::allgatherv(...) const' before deduction of 'auto'").
// compile-flags: -std=c++20
// expect-error: allgatherv_family<Comm>::allgatherv(Args&& ...) const
#include <nampi/core.hpp>

#include <vector>

using namespace nampi::params;

int main() {
  nampi::Communicator comm;
  const std::vector<int> mine(3, 1);
  auto all = comm.allgatherv(send_buf(mine));
  (void)all;
}
