// The lean include: nampi::Environment, nampi::Communicator and the named parameters, with every
// call of a communicator declared and none defined. Include the header of each call family the
// unit calls, <nampi/calls/<family>.hpp> (comm.allgatherv(...) and comm.iallgatherv(...):
// <nampi/calls/allgatherv.hpp>); a unit compiles only those. A call whose family is not
// included does not compile: GCC says "use of 'auto ...allgatherv_family<...>::allgatherv(...)'
// before deduction of 'auto'". <nampi/nampi.hpp> and <nampi/communicator.hpp> include every
// family.
#pragma once

#include "nampi/detail/communicator_declared.hpp"
#include "nampi/environment.hpp"
#include "nampi/generated/parameters.hpp"
