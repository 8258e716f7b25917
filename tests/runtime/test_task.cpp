// nampi::task and nampi::run (nampi/task.hpp): co_await on nonblocking results of every kind
// gives what wait() gives; many tasks are progressed by MPI_Waitsome over all their requests
// (counted: no MPI_Wait or MPI_Test per request); exceptions reach the awaiter; a task that
// has not started runs nothing. Messages go around the ring, so every case runs on 1..4 ranks.

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <nampi/task.hpp>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

int left_of(const nampi::Communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }
int right_of(const nampi::Communicator& c) { return (c.rank() + 1) % c.size(); }

// The halo step: exchange with the neighbours while the interior is updated, then a
// global sum of the boundary.
nampi::task<double> step(nampi::Communicator& comm, std::vector<double>& x) {
  std::vector<double> ghost;
#if defined(NAMPI_HAVE_MPI_ISENDRECV)
  auto halo = comm.isendrecv(send_buf(std::vector<double>{x.back()}), dest(right_of(comm)),
                             recv_buf<nampi::resize_to_fit>(ghost), source(left_of(comm)));
  for (double& v : x) v *= 2;  // the interior update, overlapping with the exchange
  co_await halo;
#else  // an MPI 3.1 (Open MPI 4.1): no MPI_Isendrecv
  auto in = comm.irecv<double>(source(left_of(comm)), recv_count(1));
  auto out = comm.isend(send_buf(std::vector<double>{x.back()}), dest(right_of(comm)));
  for (double& v : x) v *= 2;
  co_await out;
  ghost = co_await in;
#endif
  const double local = ghost.at(0) + x.front();
  co_return co_await comm.iallreduce_single(send_buf(local), op(std::plus<>{}));
}

// The values step() computes on every rank, for x = {base + rank, ..., base + rank + 2}.
double expected_step(int size, double base) {
  double sum = 0;
  for (int r = 0; r < size; ++r) {
    const int left = (r + size - 1) % size;
    sum += (base + left + 2) + 2 * (base + r);
  }
  return sum;
}

std::vector<double> values_of(int rank, double base) {
  return {base + rank, base + rank + 1, base + rank + 2};
}

// Checks the calls of `tasks` step()s: each one's exchange (MPI_Isendrecv after an
// MPI_Sendrecv of the counts, the receive buffer being sized to fit; MPI_Isend and MPI_Irecv
// where there is no MPI_Isendrecv) and MPI_Iallreduce; the scheduler's MPI_Waitsome only, at
// least one round per await of a task and at most one per awaited request.
void check_step_calls(const call_counts& counts, unsigned long long tasks) {
#if defined(NAMPI_HAVE_MPI_ISENDRECV)
  CHECK(counts.at("MPI_Sendrecv") == tasks);
  CHECK(counts.at("MPI_Isendrecv") == tasks);
  const unsigned long long awaited = 2 * tasks;
#else
  CHECK(counts.at("MPI_Isend") == tasks);
  CHECK(counts.at("MPI_Irecv") == tasks);
  const unsigned long long awaited = 3 * tasks;
#endif
  CHECK(counts.at("MPI_Iallreduce") == tasks);
  CHECK(counts.at("MPI_Waitsome") >= 2);
  CHECK(counts.at("MPI_Waitsome") <= awaited);
  CHECK(counts.size() == 4);
}

}  // namespace

TEST_CASE("run: two halo steps at once; values as a tuple; one MPI_Waitsome per round") {
  nampi::Communicator comm;
  // A communicator per task: their collectives then match whatever order they reach them in.
  nampi::OwnedCommunicator first = comm.dup(), second = comm.dup();
  std::vector<double> a = values_of(comm.rank(), 0), b = values_of(comm.rank(), 10);
  nampi_pmpi_reset();
  auto [x, y] = nampi::run(comm, step(first, a), step(second, b));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(x == expected_step(comm.size(), 0));
  CHECK(y == expected_step(comm.size(), 10));
  CHECK(a == std::vector<double>{2.0 * comm.rank(), 2.0 * comm.rank() + 2, 2.0 * comm.rank() + 4});
  check_step_calls(counts, 2);
}

TEST_CASE("run over a vector: many tasks, one loop, values in order") {
  nampi::Communicator comm;
  std::vector<std::vector<double>> xs;
  for (int k = 0; k < 16; ++k) xs.push_back(values_of(comm.rank(), 100.0 * k));
  std::vector<nampi::OwnedCommunicator> comms;
  for (int k = 0; k < 16; ++k) comms.push_back(comm.dup());
  std::vector<nampi::task<double>> tasks;
  for (int k = 0; k < 16; ++k)
    tasks.push_back(step(comms[static_cast<std::size_t>(k)], xs[static_cast<std::size_t>(k)]));
  nampi_pmpi_reset();
  const std::vector<double> sums = nampi::run(comm, std::move(tasks));
  const call_counts counts = nampi_pmpi::snapshot();
  REQUIRE(sums.size() == 16);
  for (int k = 0; k < 16; ++k)
    CHECK(sums[static_cast<std::size_t>(k)] == expected_step(comm.size(), 100.0 * k));
  check_step_calls(counts, 16);
}

TEST_CASE("one task: each co_await is exactly one MPI_Waitsome") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<std::vector<int>> {
    co_await c.ibarrier();
    const std::vector<int> mine{c.rank(), 7};
    std::vector<int> all = co_await c.iallgather(send_buf(mine));
    co_return all;
  };
  nampi_pmpi_reset();
  auto [all] = nampi::run(comm, body(comm));
  CHECK(nampi_pmpi::snapshot() ==
        call_counts{{"MPI_Ibarrier", 1}, {"MPI_Iallgather", 1}, {"MPI_Waitsome", 2}});
  REQUIRE(all.size() == 2 * static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    CHECK(all[2 * static_cast<std::size_t>(r)] == r);
    CHECK(all[2 * static_cast<std::size_t>(r) + 1] == 7);
  }
}

TEST_CASE("a receive's status reaches status_out through co_await") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<int> {
    MPI_Status st;
    auto r = c.irecv<int>(source(left_of(c)), tag(5), recv_count(3), status_out(st));
    // (Built before the co_await: GCC 12 rejects an initializer list inside a co_await
    // expression, "array used as initializer".)
    std::vector<int> out{1, 2, c.rank()};
    co_await c.isend(send_buf(out), dest(right_of(c)), tag(5));
    std::vector<int> got = co_await r;
    CHECK(got == std::vector<int>{1, 2, left_of(c)});
    CHECK(st.MPI_SOURCE == left_of(c));
    CHECK(st.MPI_TAG == 5);
    // Awaited as a temporary with status_out(): the status comes with the value.
    auto r2 = c.irecv<int>(source(left_of(c)), tag(6), recv_count(1), status_out());
    out = {c.rank()};
    co_await c.isend(send_buf(out), dest(right_of(c)), tag(6));
    auto [one, status] = co_await std::move(r2);
    CHECK(one == std::vector<int>{left_of(c)});
    CHECK(status.MPI_TAG == 6);
    co_return st.MPI_SOURCE;
  };
  auto [src] = nampi::run(comm, body(comm));
  CHECK(src == left_of(comm));
}

TEST_CASE("tasks await tasks; when_all runs its parts at once") {
  nampi::Communicator comm;
  auto sum_of = [](nampi::Communicator& c, int v) -> nampi::task<int> {
    co_return co_await c.iallreduce_single(send_buf(v), op(std::plus<>{}));
  };
  auto nothing_much = [](nampi::Communicator& c) -> nampi::task<> { co_await c.ibarrier(); };
  nampi::OwnedCommunicator c2 = comm.dup(), c3 = comm.dup(), c4 = comm.dup();
  auto outer = [&](nampi::Communicator& c) -> nampi::task<int> {
    const int one = co_await sum_of(c, 1);
    // The parts run at once: a communicator each (the first lent by the awaiting task).
    auto [two, none, three] =
        co_await nampi::when_all(sum_of(c, 2), nothing_much(c3), sum_of(c4, 3));
    CHECK(none == nampi::nothing{});
    // The when_all has ended: its communicators are this task's again.
    co_return one + two + three + co_await sum_of(c4, 0);
  };
  nampi_pmpi_reset();
  auto [total] = nampi::run(comm, outer(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(total == 6 * comm.size());
  CHECK(counts.at("MPI_Iallreduce") == 4);
  CHECK(counts.at("MPI_Ibarrier") == 1);
  CHECK(counts.at("MPI_Waitsome") >= 3);
  CHECK(counts.at("MPI_Waitsome") <= 5);
  CHECK(counts.size() == 3);
}

// (allreduce, not allgather: MPICH 4.0.2's MPI_Allgather_init completes every start after the
// first at once, without the data, however it is completed: MPI_Wait, MPI_Waitsome, MPI_Test.)
#if defined(NAMPI_HAVE_MPI_ALLREDUCE_INIT)
TEST_CASE("a persistent collective: co_await op.start(), three times") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<int> {
    int mine = 0;
    auto sum = c.allreduce_single_init(send_buf(mine), op(std::plus<>{}));
    int total = 0;
    for (int round = 0; round < 3; ++round) {
      mine = c.rank() + 1 + round;  // read at each start
      const int& all = co_await sum.start();
      total += all;
    }
    co_return total;
  };
  nampi_pmpi_reset();
  auto [total] = nampi::run(comm, body(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  const int p = comm.size();
  CHECK(total == 3 * p * (p + 1) / 2 + p * (0 + 1 + 2));
  CHECK(counts.at("MPI_Start") == 3);
  CHECK(counts.at("MPI_Waitsome") == 3);
  CHECK(counts.count("MPI_Wait") == 0);
  CHECK(counts.count("MPI_Test") == 0);
}
#endif

TEST_CASE("an exception in a task reaches its awaiter; run() rethrows it after every task ended") {
  nampi::Communicator comm;
  auto failing = [](nampi::Communicator& c) -> nampi::task<int> {
    co_await c.ibarrier();
    throw std::runtime_error("task failed");
  };
  auto catching = [&](nampi::Communicator& c) -> nampi::task<std::string> {
    try {
      co_await failing(c);
    } catch (const std::runtime_error& e) {
      co_return e.what();
    }
    co_return "not thrown";
  };
  auto [what] = nampi::run(comm, catching(comm));
  CHECK(what == "task failed");

  int finished = 0;
  auto counting = [&](nampi::Communicator& c) -> nampi::task<> {
    co_await c.ibarrier();
    ++finished;
  };
  nampi::OwnedCommunicator other = comm.dup();
  CHECK_THROWS_WITH_AS(nampi::run(comm, failing(comm), counting(other)), "task failed",
                       std::runtime_error);
  CHECK(finished == 1);  // the other task ran to its end (its barrier completed everywhere)
}

TEST_CASE("a task that is not started runs nothing") {
  nampi::Communicator comm;
  bool ran = false;
  auto body = [&](nampi::Communicator& c) -> nampi::task<> {
    ran = true;
    co_await c.ibarrier();
  };
  nampi_pmpi_reset();
  {
    auto t = body(comm);
    CHECK(t.valid());
    CHECK_FALSE(t.done());
  }  // cancelled
  CHECK_FALSE(ran);
  CHECK(nampi_pmpi::snapshot().empty());
}

TEST_CASE("a range communicator's call: its rounds of messages join the loop's MPI_Waitsome") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<int> {
    nampi::RangeCommunicator all = c.range(first(0), last(c.size() - 1));
    co_return co_await all.iallreduce_single(send_buf(all.rank() + 1), op(std::plus<>{}));
  };
  nampi_pmpi_reset();
  auto [sum] = nampi::run(comm, body(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(sum == comm.size() * (comm.size() + 1) / 2);
  // Each round is tested once when it is posted (MPI_Testall), then, unless that completed
  // it, waited for among the loop's requests (MPI_Waitsome): never polled (MPI_Testsome,
  // MPI_Iprobe), never waited for alone. (The call's own queries, of the datatype and the
  // context, are not completions.)
  const auto count = [&](const char* name) { return counts.count(name) ? counts.at(name) : 0; };
  const unsigned long long messages = count("MPI_Isend") + count("MPI_Irecv");
  CHECK(count("MPI_Testsome") == 0);
  CHECK(count("MPI_Iprobe") == 0);
  CHECK(count("MPI_Waitall") == 0);
  CHECK(count("MPI_Wait") == 0);
  CHECK(count("MPI_Test") == 0);
  CHECK(count("MPI_Testall") <= messages);
  CHECK(count("MPI_Waitsome") <= count("MPI_Testall"));
  if (comm.size() > 1) CHECK(messages > 0);
}

TEST_CASE("a range receive from any source: looked for, then received in the loop, status") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<int> {
    nampi::RangeCommunicator all = c.range(first(0), last(c.size() - 1));
    MPI_Status st;
    // Any source: the algorithm looks with MPI_Iprobe (polled) until the message is there,
    // then receives it in a round whose request joins the loop's MPI_Waitsome. (The send is
    // awaited after the receive: a range receive is posted only once a test finds the message,
    // and MPI need not complete a send, to this process at 1 rank, before it is received.)
    std::vector<int> out{all.rank(), 3};
    auto sent = all.isend(send_buf(out), dest((all.rank() + 1) % all.size()), tag(3));
    auto in = all.irecv<int>(tag(3), recv_count(2), status_out(st));
    std::vector<int> got = co_await in;
    co_await sent;
    const int left = (all.rank() + all.size() - 1) % all.size();
    CHECK(got == std::vector<int>{left, 3});
    CHECK(st.MPI_TAG == 3);
    co_return st.MPI_SOURCE;
  };
  auto [src] = nampi::run(comm, body(comm));
  CHECK(src == left_of(comm));
}

TEST_CASE("a range call and a communicator's call in two tasks share one loop") {
  nampi::Communicator comm;
  nampi::OwnedCommunicator other = comm.dup();
  std::vector<double> a = values_of(comm.rank(), 0);
  auto ranged = [](nampi::Communicator& c) -> nampi::task<int> {
    nampi::RangeCommunicator all = c.range(first(0), last(c.size() - 1));
    const int s = co_await all.iallreduce_single(send_buf(all.rank() + 1), op(std::plus<>{}));
    co_return s + co_await all.iallreduce_single(send_buf(1), op(std::plus<>{}));
  };
  auto [sum, x] = nampi::run(comm, ranged(comm), step(other, a));
  CHECK(sum == comm.size() * (comm.size() + 1) / 2 + comm.size());
  CHECK(x == expected_step(comm.size(), 0));
}

TEST_CASE("two tasks' collectives on one communicator are refused at every process") {
  nampi::Communicator comm;
  std::vector<double> a = values_of(comm.rank(), 0), b = values_of(comm.rank(), 10);
  // Whichever task reaches its iallreduce first at a process claims the communicator, and
  // the other's is refused there: one collective per process, which all match.
  CHECK_THROWS_WITH_AS(nampi::run(comm, step(comm, a), step(comm, b)),
                       doctest::Contains("calls a collective on a communicator whose collectives"),
                       nampi::usage_error);
  auto twice = [](nampi::Communicator& c) -> nampi::task<std::tuple<int, int>> {
    auto one = [](nampi::Communicator& cc) -> nampi::task<int> {
      co_return co_await cc.iallreduce_single(send_buf(1), op(std::plus<>{}));
    };
    co_return co_await nampi::when_all(one(c), one(c));
  };
  CHECK_THROWS_WITH_AS(nampi::run(comm, twice(comm)), doctest::Contains("part 2 of a when_all"),
                       nampi::usage_error);
  // Outside a run, and in a run after it, nothing is claimed.
  CHECK(comm.allreduce_single(send_buf(1), op(std::plus<>{})) == comm.size());
  std::vector<double> fresh = values_of(comm.rank(), 0);
  auto [x] = nampi::run(comm, step(comm, fresh));
  CHECK(x == expected_step(comm.size(), 0));
}

TEST_CASE("a request pool: co_await completes every operation in it and runs the handlers") {
  nampi::Communicator comm;
  auto body = [](nampi::Communicator& c) -> nampi::task<std::vector<int>> {
    std::vector<int> received;
    int sent = 0;
    int raw_source = -1;
    nampi::request_pool pool;
    pool.add(c.irecv<int>(source(left_of(c)), tag(12), recv_count(2)),
             [&](std::vector<int> v) { received = std::move(v); });
    std::vector<int> out{c.rank(), 12};
    pool.add(c.isend(send_buf(out), dest(right_of(c)), tag(12)), [&] { ++sent; });
    // A raw request whose handler takes MPI's status: the loop gets it for the pool.
    int raw_in = -1;
    const int raw_out = c.rank();
    MPI_Request raw = MPI_REQUEST_NULL;
    MPI_Irecv(&raw_in, 1, MPI_INT, MPI_ANY_SOURCE, 13, c.mpi_handle(), &raw);
    pool.add(raw, [&](const MPI_Status& status) { raw_source = status.MPI_SOURCE; });
    pool.add(c.isend(send_buf(raw_out), dest(right_of(c)), tag(13)));
    co_await pool;
    CHECK(pool.empty());
    CHECK(sent == 1);
    CHECK(raw_in == left_of(c));
    CHECK(raw_source == left_of(c));
    co_await pool;  // empty: nothing to wait for
    co_return received;
  };
  nampi_pmpi_reset();
  auto [received] = nampi::run(comm, body(comm));
  const call_counts counts = nampi_pmpi::snapshot();
  CHECK(received == std::vector<int>{left_of(comm), 12});
  // The pool's four requests are waited for among the loop's: one MPI_Waitsome per round,
  // at most one per request; the pool's own completion calls are not used.
  CHECK(counts.at("MPI_Waitsome") >= 1);
  CHECK(counts.at("MPI_Waitsome") <= 4);
  CHECK(counts.count("MPI_Testall") == 0);
  CHECK(counts.count("MPI_Waitall") == 0);
  CHECK(counts.count("MPI_Testsome") == 0);
}

TEST_CASE("a request pool awaited by one task refuses every other use until then") {
  nampi::Communicator comm;
  nampi::request_pool pool;
  std::vector<int> got;
  pool.add(comm.irecv<int>(source(left_of(comm)), tag(14), recv_count(1)),
           [&](std::vector<int> v) { got = std::move(v); });
  const int mine = comm.rank();
  pool.add(comm.isend(send_buf(mine), dest(right_of(comm)), tag(14)));
  auto waiter = [](nampi::request_pool& p) -> nampi::task<void> { co_await p; };
  auto meddler = [](nampi::request_pool& p) -> nampi::task<void> {
    p.test_all();
    co_return;
  };
  CHECK_THROWS_WITH_AS(nampi::run(comm, waiter(pool), meddler(pool)),
                       doctest::Contains("a nampi::task is awaiting this pool"),
                       nampi::usage_error);
  CHECK(pool.empty());  // the awaiting task completed it
  CHECK(got == std::vector<int>{left_of(comm)});
  // A second task awaiting the same pool is refused too (it would complete the requests twice).
  pool.add(comm.irecv<int>(source(left_of(comm)), tag(15), recv_count(1)),
           [&](std::vector<int> v) { got = std::move(v); });
  pool.add(comm.isend(send_buf(mine), dest(right_of(comm)), tag(15)));
  CHECK_THROWS_WITH_AS(nampi::run(comm, waiter(pool), waiter(pool)),
                       doctest::Contains("a nampi::task is awaiting this pool"),
                       nampi::usage_error);
  CHECK(pool.empty());
  CHECK(got == std::vector<int>{left_of(comm)});
}
