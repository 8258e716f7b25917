// Misuse: root passed to allgatherv, which has no root.
// expect-error: nampi: this call does not take parameter 'root'
// expect-note: 'nampi::call::allgatherv::takes<nampi::param_id::root>'
#include <nampi/nampi.hpp>
#include <vector>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  std::vector<int> v{1, 2, 3};
  comm.allgatherv(send_buf(v), root(0));
}
