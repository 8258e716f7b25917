// A plugin written outside nampi, as the README shows: its own parameter (an enum id and a
// nampi::plugin::parameter), a call that takes it and one of nampi's parameters, and a
// member that reaches the communicator; combined with one of nampi's plugins. Its misuse
// messages: tests/compile_fail/plugin_outside_*.cpp.
#include <doctest/doctest.h>

#include <nampi/nampi.hpp>
#include <nampi/plugin.hpp>
#include <nampi/plugins/reproducible_reduce.hpp>
#include <string>
#include <vector>

#include "plugin_outside_nampi.hpp"

using namespace nampi::params;
using namespace greeting::params;

TEST_CASE("a plugin from outside nampi: its parameter, its member, beside nampi's own") {
  nampi::BasicCommunicator<greeting::plugin, nampi::plugins::reproducible_reduce> comm;
  const int p = comm.size();
  // The greeting of the root, at every rank: root is nampi's parameter, name the plugin's.
  const std::string text = comm.greet(name(std::string("rank ") + std::to_string(comm.rank())),
                                      root(p - 1));
  CHECK(text == "hello from rank " + std::to_string(p - 1) + " of " + std::to_string(p));
  CHECK(comm.greet(name("x")) == "hello from x of " + std::to_string(p));  // root omitted: 0
  // nampi's plugin and nampi's own calls on the same object.
  const std::vector<int> one{1};
  CHECK(comm.reproducible_reduce(send_buf(one), op(std::plus<>{})) == p);
  CHECK(comm.allreduce_single(send_buf(1), op(std::plus<>{})) == p);
  // A plain view of the same communicator converts to the plugin type.
  nampi::Communicator plain;
  nampi::BasicCommunicator<greeting::plugin> viewed(plain);
  CHECK(viewed.greet(name("y")) == "hello from y of " + std::to_string(p));
}
