// Misuse: parrived() on a partitioned send. The partition operations belong to
// one side each; the type is spelled out so that the test does not depend on
// the MPI providing MPI_Psend_init (Open MPI 4.1 does not).
// expect-error: nampi: parrived polls the partitions of a partitioned receive (precv_init); a send
// marks them with pready()
#include <nampi/nampi.hpp>

using send_call = nampi::partitioned_call<nampi::partition_side::send, nampi::detail::type_list<>,
                                          nampi::detail::no_status>;

bool misuse(send_call& call) { return call.parrived(0); }

int main() {}
