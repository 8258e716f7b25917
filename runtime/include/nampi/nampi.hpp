// nampi: named-parameter C++ bindings for MPI. Include this one header.
#pragma once

#include "nampi/communicator.hpp"
#include "nampi/datatype.hpp"
#include "nampi/environment.hpp"
#include "nampi/error.hpp"
#include "nampi/generated/parameters.hpp"
#include "nampi/message.hpp"
#include "nampi/ops.hpp"
#include "nampi/request_pool.hpp"
#include "nampi/types.hpp"
