// Communicator: an MPI communicator with every generated call as a member, and
// OwnedCommunicator (nampi/detail/communicator_declared.hpp), with every call defined: the
// definitions of all call families (nampi/calls/<family>.hpp). <nampi/core.hpp> has the same
// classes with none of them, for units that include only the families they call.
#pragma once

#include "nampi/detail/call_support.hpp"
#include "nampi/detail/communicator_declared.hpp"
#include "nampi/generated/all_call_definitions.hpp"
