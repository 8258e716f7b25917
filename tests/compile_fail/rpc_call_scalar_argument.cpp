// A procedure's arguments are one contiguous range; a single value is not one (before: 102
// lines from <ranges>). One message naming call and what it takes.
// expect-error: nampi: call: the procedure's arguments (after its name) are one contiguous range of trivially copyable values
#include <nampi/global.hpp>
#include <nampi/nampi.hpp>

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv, nampi::thread_multiple);
  nampi::Communicator world;
  nampi::universe u(world, nampi::params::set_name("ocean"));
  const nampi::uid uid = u.uid();
  int twice = u.call<int>(uid, "twice", 21);
  return twice;
}
