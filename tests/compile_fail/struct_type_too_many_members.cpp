// Misuse: a struct_type with 33 members, more than nampi reflects.
// clang-format off
// expect-error: nampi: struct_type<T> reflects at most 32 members; use nampi::type_traits for larger types
// clang-format on
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

struct Wide {
  int m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16;
  int m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31, m32;
};
template <>
struct nampi::struct_type<Wide> : std::true_type {};

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<Wide> v(2);
  comm.send(send_buf(v), dest(0));
}
