// Misuse: opting a class with a constructor in to struct_type (reflection needs an aggregate).
// clang-format off
// expect-error: nampi: struct_type<T> needs an aggregate T (public members, no constructors, no virtual functions); use nampi::type_traits for other types
// clang-format on
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

struct Point {
  Point() : x(0), y(0) {}
  int x;
  int y;
};
template <>
struct nampi::struct_type<Point> : std::true_type {};

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<Point> v(2);
  comm.send(send_buf(v), dest(0));
}
