// nampi's own growable array of trivially copyable values (nampi/detail/trivial_vector.hpp),
// which holds a context's collectives in flight, the handles freed before MPI_Finalize and a
// round's requests: its elements keep their values and order through growth, insertion,
// erasure, assignment and moves.
#include <doctest/doctest.h>

#include <cstddef>
#include <nampi/nampi.hpp>
#include <utility>

namespace {

struct entry {
  long id;
  int rank;
};

using entries = nampi::detail::trivial_vector<entry>;

// The ids held, in order, as one number per digit: {1, 2, 3} -> 123.
long ids(const entries& v) {
  long out = 0;
  for (const entry& e : v) out = out * 10 + e.id;
  return out;
}

}  // namespace

TEST_CASE("trivial_vector: push_back grows and keeps every value") {
  entries v;
  CHECK(v.empty());
  for (long i = 0; i < 1000; ++i) v.push_back({i, static_cast<int>(2 * i)});
  REQUIRE(v.size() == 1000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    CHECK(v[i].id == static_cast<long>(i));
    CHECK(v[i].rank == static_cast<int>(2 * i));
  }
  CHECK(v.back().id == 999);
  v.pop_back();
  CHECK(v.size() == 999);
  CHECK(v.back().id == 998);
  v.clear();
  CHECK(v.empty());
  v.push_back({7, 0});
  CHECK(ids(v) == 7);
}

TEST_CASE("trivial_vector: insert at the front, the middle and the end") {
  entries v;
  v.insert(0, {2, 0});  // into an empty one
  v.insert(0, {1, 0});  // front
  v.insert(2, {4, 0});  // end
  v.insert(2, {3, 0});  // middle
  CHECK(ids(v) == 1234);
  for (long i = 5; i < 10; ++i) v.insert(v.size(), {i, 0});  // past the first capacity
  CHECK(ids(v) == 123456789);
}

TEST_CASE("trivial_vector: erase_if keeps the others in order") {
  entries v;
  for (long i = 1; i <= 9; ++i) v.push_back({i, static_cast<int>(i % 3)});
  v.erase_if([](const entry& e) { return e.rank == 0; });
  CHECK(ids(v) == 124578);
  v.erase_if([](const entry&) { return false; });
  CHECK(ids(v) == 124578);
  v.erase_if([](const entry&) { return true; });
  CHECK(v.empty());
}

TEST_CASE("trivial_vector: n copies, assign and moves") {
  nampi::detail::trivial_vector<int> filled(5, 7);
  REQUIRE(filled.size() == 5);
  for (int x : filled) CHECK(x == 7);
  CHECK(nampi::detail::trivial_vector<int>(0, 7).empty());

  const int values[] = {3, 1, 4, 1, 5, 9, 2, 6};
  filled.assign(values, values + 8);  // more than it held
  REQUIRE(filled.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) CHECK(filled[i] == values[i]);
  filled.assign(values, values + 2);  // fewer
  REQUIRE(filled.size() == 2);
  CHECK(filled[1] == 1);

  nampi::detail::trivial_vector<int> moved(std::move(filled));
  CHECK(moved.size() == 2);
  CHECK(filled.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty, by contract
  filled.push_back(42);   // usable again
  CHECK(filled[0] == 42);
  moved = std::move(filled);
  REQUIRE(moved.size() == 1);
  CHECK(moved[0] == 42);
}
