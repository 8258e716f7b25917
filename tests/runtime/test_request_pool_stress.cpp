// Stress: 10,000 nonblocking operations of six kinds (nampi and raw
// point-to-point around the ring, iallreduce, ibcast, iallgather, ibarrier)
// pass through a bounded pool of 32 slots. Every rank draws the same kinds
// from the same generator, so collectives start in the same order everywhere
// and the run cannot deadlock (an operation waits only for operations the
// other ranks have already started). Checked: every value, and with the PMPI
// counter that every started request was completed by the pool (one
// MPI_Waitany per add to the full pool, one final MPI_Waitall, no single
// MPI_Wait/MPI_Test), and that every handler ran once. Leaks of nampi's heap
// state show up under `make test-sanitize` (LeakSanitizer).

// ctest-labels: nonblocking

#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

using namespace nampi::params;
using call_counts = std::map<std::string, unsigned long long>;

namespace {

constexpr int total_operations = 10000;
constexpr std::size_t slots = 32;

// The same pseudo-random sequence on every rank.
struct same_everywhere {
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  unsigned next(unsigned bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<unsigned>(state % bound);
  }
};

// What rank `from` contributes in step `step`.
std::vector<int> payload(int step, int from) { return {step, from, 7 * step + from}; }

// Tags stay far below MPI_TAG_UB's guaranteed minimum (32767).
int tag_of(int step) { return step % 30000; }

// Counts what arrived wrong instead of one CHECK per value; keeps the first.
struct mismatches {
  long long count = 0;
  std::string first;
  void expect(bool ok, int step, const char* what) {
    if (ok) return;
    if (count++ == 0) first = "step " + std::to_string(step) + ": " + what;
  }
};

}  // namespace

TEST_CASE("stress: 10,000 mixed operations through 32 slots, every value checked, none left") {
  nampi::Communicator comm;
  const int rank = comm.rank();
  const int size = comm.size();
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;

  mismatches wrong;
  long long handlers_ran = 0;
  call_counts started;
  int added = 0;
  same_everywhere kinds;

  nampi::bounded_request_pool pool(slots);
  nampi_pmpi_reset();
  for (int step = 0; added < total_operations; ++step) {
    unsigned kind = kinds.next(6);
    if (kind < 2 && added + 2 > total_operations) kind = 5;  // one slot left: a one-operation kind
    const int t = tag_of(step);
    switch (kind) {
      case 0: {  // nampi point-to-point: the received data, and the moved-in buffer handed back
        pool.add(comm.irecv<int>(source(left), tag(t), recv_count(3)),
                 [&, step](std::vector<int> got) {
                   ++handlers_ran;
                   wrong.expect(got == payload(step, left), step, "irecv data");
                 });
        pool.add(comm.isend(send_buf(payload(step, rank)), dest(right), tag(t)),
                 [&, step](std::vector<int> back) {
                   ++handlers_ran;
                   wrong.expect(back == payload(step, rank), step, "isend buffer handed back");
                 });
        started["MPI_Irecv"] += 1;
        started["MPI_Isend"] += 1;
        added += 2;
        break;
      }
      case 1: {  // raw MPI requests; the handlers own the buffers until completion
        auto in = std::make_unique<std::array<int, 3>>();
        auto out = std::make_unique<std::array<int, 3>>();
        const std::vector<int> mine = payload(step, rank);
        std::copy(mine.begin(), mine.end(), out->begin());
        MPI_Request receive, send;
        MPI_Irecv(in->data(), 3, MPI_INT, left, t, MPI_COMM_WORLD, &receive);
        MPI_Isend(out->data(), 3, MPI_INT, right, t, MPI_COMM_WORLD, &send);
        pool.add(receive, [&, in = std::move(in), step, t](const MPI_Status& status) {
          ++handlers_ran;
          const std::vector<int> got(in->begin(), in->end());
          wrong.expect(got == payload(step, left), step, "raw irecv data");
          wrong.expect(status.MPI_SOURCE == left && status.MPI_TAG == t, step, "raw status");
        });
        pool.add(send, [&, out = std::move(out)] { ++handlers_ran; });
        started["MPI_Irecv"] += 1;
        started["MPI_Isend"] += 1;
        added += 2;
        break;
      }
      case 2: {
        pool.add(comm.iallreduce(send_buf(std::vector<int>{step, rank + 1}), op(std::plus<>{})),
                 [&, step](auto value) {
                   ++handlers_ran;
                   const std::vector<int> sum = value.extract_recv_buf();
                   const std::vector<int> expected{step * size, size * (size + 1) / 2};
                   wrong.expect(sum == expected, step, "iallreduce sum");
                   wrong.expect(value.extract_send_buf() == std::vector<int>{step, rank + 1}, step,
                                "iallreduce send buffer handed back");
                 });
        started["MPI_Iallreduce"] += 1;
        added += 1;
        break;
      }
      case 3: {
        const int root_rank = step % size;
        std::vector<int> buffer =
            rank == root_rank ? payload(step, root_rank) : std::vector<int>(3, -1);
        pool.add(comm.ibcast(send_recv_buf(std::move(buffer)), send_recv_count(3), root(root_rank)),
                 [&, step, root_rank](std::vector<int> got) {
                   ++handlers_ran;
                   wrong.expect(got == payload(step, root_rank), step, "ibcast data");
                 });
        started["MPI_Ibcast"] += 1;
        added += 1;
        break;
      }
      case 4: {
        pool.add(comm.iallgather(send_buf(std::vector<int>{step, rank})), [&, step](auto value) {
          ++handlers_ran;
          std::vector<int> expected;
          for (int q = 0; q < size; ++q) expected.insert(expected.end(), {step, q});
          wrong.expect(value.extract_recv_buf() == expected, step, "iallgather data");
        });
        started["MPI_Iallgather"] += 1;
        added += 1;
        break;
      }
      default: {
        pool.add(comm.ibarrier(), [&] { ++handlers_ran; });
        started["MPI_Ibarrier"] += 1;
        added += 1;
        break;
      }
    }
    CHECK(pool.size() <= slots);
  }
  pool.wait_all();

  call_counts expected = started;
  expected["MPI_Waitany"] = total_operations - slots;  // every add to the full pool
  expected["MPI_Waitall"] = 1;
  CHECK(nampi_pmpi::snapshot() == expected);
  CHECK(added == total_operations);
  CHECK(handlers_ran == total_operations);
  CHECK(pool.empty());
  CHECK_MESSAGE(wrong.count == 0, "first wrong value: ", wrong.first);
}
