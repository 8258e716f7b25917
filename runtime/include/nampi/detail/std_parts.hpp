// The few names nampi uses from the standard library's heavier headers, without
// the rest of them: <algorithm> (std::min, std::max, std::fill, std::fill_n, std::lower_bound),
// <functional> (std::plus & co., which op() maps to MPI's ops); std::addressof,
// std::construct_at and std::destroy_at from <memory> (for its unique_ptr see owned.hpp).
// No <mutex>: its <system_error> cost every unit 2 % of its parse; nampi's few locks are
// spin_guards (atomic_cell.hpp). Every program that includes nampi
// parses its headers; in C++20 <algorithm> alone adds the ranges algorithms and the parallel
// ones, a third of an include-only translation unit's parse time (issue 14). With
// libstdc++ these are the sub-headers those headers are made of; with another
// standard library, the standard headers themselves.
#pragma once

#include <version>  // defines __GLIBCXX__ with libstdc++

#if defined(__GLIBCXX__)
#include <bits/move.h>           // std::addressof
#include <bits/stl_algobase.h>   // std::min, std::max, std::fill(_n), std::copy, std::lower_bound
#include <bits/stl_construct.h>  // std::construct_at, std::destroy_at
#include <bits/stl_function.h>   // std::plus, std::multiplies, std::logical_*, std::bit_*
#else
#include <algorithm>
#include <functional>
#include <memory>
#endif
