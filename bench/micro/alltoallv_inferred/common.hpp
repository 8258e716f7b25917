// Same local code as the given variant: the two differ only in what the
// communication part names.
#pragma once

#include "../alltoallv_given/common.hpp"
