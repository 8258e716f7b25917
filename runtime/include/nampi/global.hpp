// Global process addressing across jobs (issue 17; the paper behind it: "Enabling Global MPI
// Process Addressing in MPI Applications", Besnard, Shende, Malony, Jaeger, Pérache): every
// process of a user's jobs on this machine has a nampi::uid, each job registers as a named
// process set in a directory (`nampi-sets list` shows them), and sets connect to each other by
// name.
//
//   nampi::universe u(comm, set_name("ocean"));
//   nampi::Communicator atm = u.connect("atmosphere");
#pragma once

#include "nampi/detail/global/set_directory.hpp"
#include "nampi/detail/global/set_entry.hpp"
#include "nampi/detail/global/uid.hpp"
#include "nampi/detail/global/universe.hpp"
