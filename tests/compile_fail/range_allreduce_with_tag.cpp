// A range's collectives take no tag: each has tags of its own on nampi's context, from the range
// (made with tag(t)) and its sequence number. The message says where the tag goes.
// expect-error: nampi: allreduce_single: a nampi::RangeCommunicator's call takes no tag: give it to the range (comm.range(first(f), last(l), tag(t)))
#include <nampi/nampi.hpp>

using namespace nampi::params;

int main(int argc, char** argv) {
  nampi::Environment env(argc, argv);
  nampi::Communicator comm;
  nampi::RangeCommunicator r = comm.range(first(0), last(comm.size() - 1));
  return r.allreduce_single(send_buf(1), op(std::plus<>{}), tag(3));
}
