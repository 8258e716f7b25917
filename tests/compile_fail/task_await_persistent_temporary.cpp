// Misuse: a persistent call awaited as a temporary: its value refers to the call's buffers,
// which the temporary would take along.
// expect-error: nampi::task: co_await a persistent call by name
#include <nampi/nampi.hpp>
#include <nampi/task.hpp>
#include <vector>

using namespace nampi::params;

nampi::task<int> body(const nampi::Communicator& comm, std::vector<int>& v) {
  auto sum = co_await comm.allreduce_init(send_buf(v), op(std::plus<>{}));
  co_return sum.at(0);
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1};
  auto [one] = nampi::run(comm, body(comm, v));
  return one;
}
