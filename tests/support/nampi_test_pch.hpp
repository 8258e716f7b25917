// The headers (nearly) every test program includes, precompiled once per build by
// tests/CMakeLists.txt: parsing them costs about 1.2 s per test source, a tenth of a
// generated call test's compile time and most of a compile-fail test's.
#pragma once

#include <doctest/doctest.h>
#include <mpi.h>

#include <array>
#include <functional>
#include <map>
#include <nampi/nampi.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "nampi_test_support.hpp"
