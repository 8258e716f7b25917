// Misuse: pready() on a partitioned receive (see partitioned_send_parrived.cpp).
// expect-error: nampi: pready, pready_range and pready_list mark the partitions of a partitioned
// send (psend_init); a receive polls them with parrived()
#include <nampi/nampi.hpp>

using recv_call = nampi::partitioned_call<nampi::partition_side::recv, nampi::detail::type_list<>,
                                          nampi::detail::no_status>;

void misuse(recv_call& call) { call.pready(0); }

int main() {}
