// Misuse: a task awaits something nampi's scheduler cannot resume it from (a std awaitable
// that never resumes on its own): one compile-time message.
// expect-error: nampi::task: co_await takes a nampi::task, a nonblocking call's result
#include <coroutine>
#include <nampi/nampi.hpp>
#include <nampi/task.hpp>

nampi::task<int> body() {
  co_await std::suspend_always{};
  co_return 1;
}

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto [one] = nampi::run(comm, body());
  return one;
}
