// The C++ type -> MPI_Datatype mapping: builtin handles, trivially copyable
// types as contiguous bytes (committed once), and user traits.
#include <doctest/doctest.h>

#include <array>
#include <complex>
#include <cstddef>
#include <nampi/nampi.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

namespace {

struct Particle {
  int id;
  double position[3];
  char kind;
  friend bool operator==(const Particle&, const Particle&) = default;
};
static_assert(std::is_trivially_copyable_v<Particle>);

// A second layout, to check that each type gets its own datatype.
struct Pair {
  short a;
  long long b;
  friend bool operator==(const Pair&, const Pair&) = default;
};

// A type sent with a datatype of the user's choice.
struct Celsius {
  double degrees;
  friend bool operator==(const Celsius&, const Celsius&) = default;
};

Particle particle(int rank, int k) {
  return {100 * rank + k, {rank + 0.25, k + 0.5, -1.0 * rank}, static_cast<char>('a' + rank)};
}

}  // namespace

template <>
struct nampi::mpi_type_traits<Celsius> {
  static MPI_Datatype get() { return MPI_DOUBLE; }
};

TEST_CASE("builtin datatypes: arithmetic types") {
  CHECK(nampi::mpi_datatype<short>() == MPI_SHORT);
  CHECK(nampi::mpi_datatype<unsigned short>() == MPI_UNSIGNED_SHORT);
  CHECK(nampi::mpi_datatype<int>() == MPI_INT);
  CHECK(nampi::mpi_datatype<unsigned>() == MPI_UNSIGNED);
  CHECK(nampi::mpi_datatype<long>() == MPI_LONG);
  CHECK(nampi::mpi_datatype<unsigned long>() == MPI_UNSIGNED_LONG);
  CHECK(nampi::mpi_datatype<long long>() == MPI_LONG_LONG);
  CHECK(nampi::mpi_datatype<unsigned long long>() == MPI_UNSIGNED_LONG_LONG);
  CHECK(nampi::mpi_datatype<float>() == MPI_FLOAT);
  CHECK(nampi::mpi_datatype<double>() == MPI_DOUBLE);
  CHECK(nampi::mpi_datatype<long double>() == MPI_LONG_DOUBLE);
}

TEST_CASE("builtin datatypes: cv-qualifiers are ignored") {
  CHECK(nampi::mpi_datatype<const int>() == MPI_INT);
  CHECK(nampi::mpi_datatype<volatile double>() == MPI_DOUBLE);
  CHECK(nampi::mpi_datatype<const volatile long>() == MPI_LONG);
}

TEST_CASE("builtin datatypes: bool, complex, std::byte") {
  CHECK(nampi::mpi_datatype<bool>() == MPI_CXX_BOOL);
  CHECK(nampi::mpi_datatype<std::complex<float>>() == MPI_CXX_FLOAT_COMPLEX);
  CHECK(nampi::mpi_datatype<std::complex<double>>() == MPI_CXX_DOUBLE_COMPLEX);
  CHECK(nampi::mpi_datatype<std::complex<long double>>() == MPI_CXX_LONG_DOUBLE_COMPLEX);
  CHECK(nampi::mpi_datatype<std::byte>() == MPI_BYTE);
}

// nampi recognises std::complex by its shape (types.hpp), so that it need not include <complex>.
template <typename T>
struct one_of_two {  // two values, value_type, but no real()/imag(): not a complex number
  using value_type = T;
  T first, second;
};

TEST_CASE("complex numbers are recognised by their shape, nothing else is") {
  CHECK(nampi::detail::builtin_type<std::complex<double>>::value);
  CHECK(!nampi::detail::builtin_type<one_of_two<double>>::value);
  CHECK(!nampi::detail::builtin_type<std::optional<float>>::value);  // 8 bytes, value_type float
  CHECK(!nampi::detail::builtin_type<std::complex<int>>::value);     // MPI has no integer complex
  CHECK(nampi::mpi_datatype<one_of_two<double>>() != MPI_CXX_DOUBLE_COMPLEX);
}

TEST_CASE("builtin datatypes: character types") {
  CHECK(nampi::mpi_datatype<char>() == MPI_CHAR);
  CHECK(nampi::mpi_datatype<signed char>() == MPI_SIGNED_CHAR);
  CHECK(nampi::mpi_datatype<unsigned char>() == MPI_UNSIGNED_CHAR);
  CHECK(nampi::mpi_datatype<wchar_t>() == MPI_WCHAR);
  CHECK(nampi::mpi_datatype<char8_t>() == MPI_UINT8_T);
  CHECK(nampi::mpi_datatype<char16_t>() == MPI_UINT16_T);
  CHECK(nampi::mpi_datatype<char32_t>() == MPI_UINT32_T);
}

TEST_CASE("builtin datatypes have the size of the C++ type") {
  auto size_of = [](MPI_Datatype type) {
    int size = 0;
    MPI_Type_size(type, &size);
    return static_cast<std::size_t>(size);
  };
  CHECK(size_of(nampi::mpi_datatype<bool>()) == sizeof(bool));
  CHECK(size_of(nampi::mpi_datatype<wchar_t>()) == sizeof(wchar_t));
  CHECK(size_of(nampi::mpi_datatype<char8_t>()) == sizeof(char8_t));
  CHECK(size_of(nampi::mpi_datatype<char16_t>()) == sizeof(char16_t));
  CHECK(size_of(nampi::mpi_datatype<char32_t>()) == sizeof(char32_t));
  CHECK(size_of(nampi::mpi_datatype<long double>()) == sizeof(long double));
  CHECK(size_of(nampi::mpi_datatype<std::complex<double>>()) == sizeof(std::complex<double>));
}

TEST_CASE("has_mpi_type") {
  static_assert(nampi::has_mpi_type<int>);
  static_assert(nampi::has_mpi_type<std::complex<double>>);
  static_assert(nampi::has_mpi_type<Particle>);
  static_assert(nampi::has_mpi_type<Celsius>);
  static_assert(!nampi::has_mpi_type<std::string>);
  static_assert(!nampi::has_mpi_type<std::vector<int>>);
  CHECK(true);
}

TEST_CASE("a trivially copyable struct travels as contiguous bytes") {
  const MPI_Datatype type = nampi::mpi_datatype<Particle>();
  REQUIRE(type != MPI_DATATYPE_NULL);
  int size = 0;
  MPI_Type_size(type, &size);
  CHECK(static_cast<std::size_t>(size) == sizeof(Particle));
  MPI_Aint lb = -1;
  MPI_Aint extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  CHECK(lb == 0);
  CHECK(static_cast<std::size_t>(extent) == sizeof(Particle));
}

TEST_CASE("a struct's datatype is created once") {
  const MPI_Datatype first = nampi::mpi_datatype<Particle>();
  const MPI_Datatype second = nampi::mpi_datatype<Particle>();
  CHECK(first == second);
  CHECK(nampi::mpi_datatype<const Particle>() == first);
  // Another struct gets its own type.
  CHECK(nampi::mpi_datatype<Pair>() != first);
  CHECK(nampi::mpi_datatype<Pair>() == nampi::mpi_datatype<Pair>());
}

TEST_CASE("allgatherv of a trivially copyable struct") {
  nampi::Communicator comm;
  std::vector<Particle> mine;
  for (int k = 0; k <= comm.rank(); ++k) mine.push_back(particle(comm.rank(), k));

  auto [all, type] = comm.allgatherv(send_buf(mine), send_type_out());
  static_assert(std::is_same_v<decltype(all), std::vector<Particle>>);
  // The call used the registered type, not a new one.
  CHECK(type == nampi::mpi_datatype<Particle>());

  std::vector<Particle> expected;
  for (int r = 0; r < comm.size(); ++r)
    for (int k = 0; k <= r; ++k) expected.push_back(particle(r, k));
  CHECK(all == expected);

  // A second call reuses the same datatype.
  auto [again, type_again] = comm.allgatherv(send_buf(mine), send_type_out());
  CHECK(again == expected);
  CHECK(type_again == type);
}

TEST_CASE("allgatherv of complex numbers") {
  nampi::Communicator comm;
  const std::array<std::complex<double>, 2> z{std::complex<double>(comm.rank(), 1.5),
                                              std::complex<double>(-comm.rank(), 0.25)};
  auto all = comm.allgatherv(send_buf(z));
  REQUIRE(all.size() == 2 * static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    CHECK(all[2 * static_cast<std::size_t>(r)] == std::complex<double>(r, 1.5));
    CHECK(all[2 * static_cast<std::size_t>(r) + 1] == std::complex<double>(-r, 0.25));
  }
}

TEST_CASE("allgatherv of bools into a caller's buffer") {
  nampi::Communicator comm;
  const std::array<bool, 2> flags{comm.rank() % 2 == 0, true};
  std::array<bool, 8> all{};  // at most 4 ranks
  comm.allgatherv(send_buf(flags), recv_buf(all));
  for (int r = 0; r < comm.size(); ++r) {
    CHECK(all[2 * static_cast<std::size_t>(r)] == (r % 2 == 0));
    CHECK(all[2 * static_cast<std::size_t>(r) + 1]);
  }
}

// The receive buffer the call creates for bool elements must be a contiguous
// buffer (std::vector<bool> is not one).
TEST_CASE("allgatherv of bools into a buffer the call creates") {
  nampi::Communicator comm;
  const std::array<bool, 2> flags{comm.rank() % 2 == 0, true};
  auto all = comm.allgatherv(send_buf(flags));
  REQUIRE(all.size() == 2 * static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    CHECK(static_cast<bool>(all[2 * static_cast<std::size_t>(r)]) == (r % 2 == 0));
    CHECK(static_cast<bool>(all[2 * static_cast<std::size_t>(r) + 1]));
  }
}

TEST_CASE("a user trait chooses the datatype") {
  nampi::Communicator comm;
  CHECK(nampi::mpi_datatype<Celsius>() == MPI_DOUBLE);
  const Celsius mine[1] = {{comm.rank() + 0.5}};
  std::vector<Celsius> all(static_cast<std::size_t>(comm.size()));
  auto type = comm.allgatherv(send_buf(mine), recv_buf(all), send_type_out());
  CHECK(type == MPI_DOUBLE);
  for (int r = 0; r < comm.size(); ++r) CHECK(all[static_cast<std::size_t>(r)] == Celsius{r + 0.5});
}
