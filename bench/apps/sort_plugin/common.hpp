// sort_plugin: local code shared by nampi.cpp and mpi.cpp. The input, the checks and the
// checksum are sample_sort's (bench/apps/sample_sort), so the sorts compare directly.
#pragma once

#include "../sample_sort/common.hpp"
