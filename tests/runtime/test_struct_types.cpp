// Static types: struct_type (reflected aggregates), type_traits, std::array,
// std::pair and std::tuple, each sent and received; each committed once and
// freed before MPI_Finalize (the last test case checks there is no leak).
#include <doctest/doctest.h>
#include <nampi_pmpi_counter.h>

#include <array>
#include <complex>
#include <cstddef>
#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace nampi::params;

namespace {

enum class Kind : short { electron = 1, proton = 2 };

// Padding after `kind` and at the end; a C array member.
struct Particle {
  char kind;
  double position[3];
  int id;
  friend bool operator==(const Particle&, const Particle&) = default;
};

struct Cell {
  Particle particle;  // nested struct_type
  std::array<float, 2> weights;
  Kind charge;
  std::complex<double> phase;
  bool active;
  friend bool operator==(const Cell&, const Cell&) = default;
};

// A type with a datatype of the user's: two doubles, committed by nampi.
struct Vec2 {
  double x;
  double y;
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

// Too many members for struct_type is a compile error; 32 are fine.
struct Wide {
  int m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15;
  int m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30;
  char m31;
  friend bool operator==(const Wide&, const Wide&) = default;
};

Particle particle(int rank, int k) {
  return {static_cast<char>('a' + rank), {rank + 0.5, k + 0.25, -1.0 * k}, 100 * rank + k};
}

Cell cell(int rank, int k) {
  return {particle(rank, k),
          {rank * 1.5f, k * 2.5f},
          rank % 2 == 0 ? Kind::electron : Kind::proton,
          {1.0 * rank, -1.0 * k},
          k % 2 == 1};
}

unsigned long long count_of(const char* name) {
  const int index = nampi_pmpi_index(name);
  REQUIRE(index >= 0);
  return nampi_pmpi_count(index);
}

int combiner_of(MPI_Datatype type) {
  int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
  MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner);
  return combiner;
}

}  // namespace

template <>
struct nampi::struct_type<Particle> : std::true_type {};
template <>
struct nampi::struct_type<Cell> : std::true_type {};
template <>
struct nampi::struct_type<Wide> : std::true_type {};

template <>
struct nampi::type_traits<Vec2> {
  static MPI_Datatype data_type() {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_DOUBLE, &type);
    return type;
  }
  static constexpr bool must_commit = true;
};

// A handle the user owns: nampi neither commits nor frees it.
struct Meters {
  double value;
  friend bool operator==(const Meters&, const Meters&) = default;
};
template <>
struct nampi::type_traits<Meters> {
  static MPI_Datatype data_type() { return MPI_DOUBLE; }
  static constexpr bool must_commit = false;
};

static_assert(nampi::detail::member_count<Particle> == 3);
static_assert(nampi::detail::member_count<Cell> == 5);
static_assert(nampi::detail::member_count<Wide> == 32);
static_assert(nampi::has_mpi_type<Cell>);
static_assert(nampi::has_mpi_type<std::pair<int, Particle>>);
static_assert(nampi::has_mpi_type<std::tuple<char, double, Cell>>);
static_assert(!nampi::has_mpi_type<std::pair<int, std::string>>);
static_assert(!nampi::has_mpi_type<std::array<std::string, 2>>);

TEST_CASE("a struct_type is a resized struct type with one block per member") {
  const MPI_Datatype type = nampi::mpi_datatype<Particle>();
  CHECK(combiner_of(type) == MPI_COMBINER_RESIZED);
  MPI_Aint lb = -1, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  CHECK(lb == 0);
  CHECK(extent == static_cast<MPI_Aint>(sizeof(Particle)));
  int size = 0;
  MPI_Type_size(type, &size);  // the data without the padding
  CHECK(size == static_cast<int>(sizeof(char) + 3 * sizeof(double) + sizeof(int)));
  CHECK(nampi::mpi_datatype<const Particle>() == type);
  // An enum travels as its underlying type.
  CHECK(nampi::mpi_datatype<Kind>() == MPI_SHORT);
}

TEST_CASE("send and recv of structs with padding, nested structs and arrays") {
  nampi::Communicator comm;
  if (comm.size() < 2) return;
  if (comm.rank() == 0) {
    std::vector<Cell> cells{cell(0, 0), cell(0, 1), cell(0, 2)};
    comm.send(send_buf(cells), dest(1));
  } else if (comm.rank() == 1) {
    auto cells = comm.recv<Cell>(source(0));
    CHECK(cells == std::vector<Cell>{cell(0, 0), cell(0, 1), cell(0, 2)});
  }
  // Typed receive: the probe counts elements of the struct type.
  if (comm.rank() == 0) {
    std::vector<Cell> cells{cell(0, 0), cell(0, 1), cell(0, 2)};
    comm.send(send_buf(cells), dest(1), tag(7));
  } else if (comm.rank() == 1) {
    std::vector<Cell> cells;
    comm.recv(recv_buf<nampi::resize_to_fit>(cells), source(0), tag(7));
    CHECK(cells == std::vector<Cell>{cell(0, 0), cell(0, 1), cell(0, 2)});
  }
}

TEST_CASE("allgather and bcast of struct types") {
  nampi::Communicator comm;
  const std::vector<Particle> mine{particle(comm.rank(), 0), particle(comm.rank(), 1)};
  auto all = comm.allgatherv(send_buf(mine));
  std::vector<Particle> expected;
  for (int r = 0; r < comm.size(); ++r) {
    expected.push_back(particle(r, 0));
    expected.push_back(particle(r, 1));
  }
  CHECK(all == expected);

  Cell value = comm.rank() == 0 ? cell(3, 4) : Cell{};
  comm.bcast(send_recv_buf(value));
  CHECK(value == cell(3, 4));

  std::array<Wide, 2> wide{};
  if (comm.rank() == 0)
    for (int i = 0; i < 2; ++i) {
      wide[static_cast<std::size_t>(i)].m0 = i;
      wide[static_cast<std::size_t>(i)].m30 = 7 + i;
      wide[static_cast<std::size_t>(i)].m31 = 'w';
    }
  comm.bcast(send_recv_buf(wide));
  CHECK(wide[1].m0 == 1);
  CHECK(wide[1].m30 == 8);
  CHECK(wide[0].m31 == 'w');
}

TEST_CASE("pairs, tuples and arrays travel as struct and contiguous types") {
  nampi::Communicator comm;
  using entry = std::pair<int, double>;
  using record = std::tuple<char, long long, std::array<short, 3>, Particle>;
  CHECK(combiner_of(nampi::mpi_datatype<entry>()) == MPI_COMBINER_RESIZED);
  CHECK(combiner_of(nampi::mpi_datatype<std::array<short, 3>>()) == MPI_COMBINER_CONTIGUOUS);

  const std::vector<entry> mine{{comm.rank(), comm.rank() + 0.5}};
  auto entries = comm.allgatherv(send_buf(mine));
  REQUIRE(entries.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    CHECK(entries[static_cast<std::size_t>(r)] == entry{r, r + 0.5});

  const auto make = [](int r) {
    return record{
        static_cast<char>('A' + r), 1LL << (40 + r), {short(r), short(-r), 7}, particle(r, 9)};
  };
  const std::vector<record> one{make(comm.rank())};
  auto records = comm.allgatherv(send_buf(one));
  REQUIRE(records.size() == static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) CHECK(records[static_cast<std::size_t>(r)] == make(r));
}

TEST_CASE("type_traits: a committed type of nampi's, and a handle of the user's") {
  nampi::Communicator comm;
  const MPI_Datatype vec = nampi::mpi_datatype<Vec2>();
  CHECK(combiner_of(vec) == MPI_COMBINER_CONTIGUOUS);
  CHECK(nampi::mpi_datatype<Vec2>() == vec);  // data_type() called once
  CHECK(nampi::mpi_datatype<Meters>() == MPI_DOUBLE);

  const std::vector<Vec2> mine{{1.0 * comm.rank(), -2.0}};
  auto all = comm.allgatherv(send_buf(mine));
  for (int r = 0; r < comm.size(); ++r)
    CHECK(all[static_cast<std::size_t>(r)] == Vec2{1.0 * r, -2.0});
  const Meters m{comm.rank() + 0.5};
  auto meters = comm.allgatherv(send_buf(std::array<Meters, 1>{m}));
  for (int r = 0; r < comm.size(); ++r)
    CHECK(meters[static_cast<std::size_t>(r)] == Meters{r + 0.5});
}

TEST_CASE("a struct type is committed once across 1000 sends") {
  struct Once {
    int a;
    double b;
  };
  nampi::Communicator comm;
  const auto commits_before = count_of("MPI_Type_commit");
  const auto structs_before = count_of("MPI_Type_create_struct");
  const int peer = (comm.rank() + 1) % comm.size();
  const int from = (comm.rank() + comm.size() - 1) % comm.size();
  for (int i = 0; i < 1000; ++i) {
    const std::pair<Once, int> out{{i, 0.5 * i}, comm.rank()};
    std::pair<Once, int> in{};
    comm.sendrecv(send_buf(out), dest(peer), source(from), recv_buf(in), recv_count(1));
    REQUIRE(in.first.a == i);
    REQUIRE(in.second == from);
  }
  // pair<Once, int>: one struct type; Once itself travels as bytes (one contiguous type).
  CHECK(count_of("MPI_Type_commit") - commits_before == 2);
  CHECK(count_of("MPI_Type_create_struct") - structs_before == 1);
}

// Last in the file (doctest runs a file's cases in order): after the registry
// freed what nampi created, every datatype created was freed.
TEST_CASE("zz: every datatype nampi created is freed") {
  nampi::detail::type_registry().free_all();
  unsigned long long created = 0;
  for (const char* constructor :
       {"MPI_Type_contiguous", "MPI_Type_vector", "MPI_Type_create_hvector", "MPI_Type_indexed",
        "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block", "MPI_Type_create_struct",
        "MPI_Type_create_subarray", "MPI_Type_create_darray", "MPI_Type_create_resized",
        "MPI_Type_dup"})
    created += count_of(constructor);
  CHECK(created > 0);
  CHECK(count_of("MPI_Type_free") == created);
}
