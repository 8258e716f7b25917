// Misuse: intercomm_create without remote_leader (where the other group's leader is
// in peer_comm only the caller knows).
// expect-error: nampi::error::missing_required_parameter<nampi::call::intercomm_create, nampi::param_id::remote_leader>
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  auto inter = comm.intercomm_create(local_leader(0), tag(3));
}
