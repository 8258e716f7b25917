// The global layer's share of the standard library, without the rest of the headers it comes
// in: clocks and durations (<chrono> adds the calendar, time zones and their formatting),
// std::thread and std::this_thread::sleep_for/yield (<thread> adds stop tokens and jthread),
// std::function (<functional> adds the searchers and std::bind) and std::sort (<algorithm>
// adds the ranges and parallel algorithms). Every unit that includes <nampi/global.hpp>
// parses these; the whole headers cost it about 0.3 s of CPU (issue 35). With libstdc++ these
// are the sub-headers the standard ones are made of; elsewhere, the standard ones.
#pragma once

#include <map>
#include <mutex>    // std::recursive_mutex (light: the clocks and the lock types)
#include <version>  // defines __GLIBCXX__ with libstdc++

#if defined(__GLIBCXX__)
#include <bits/chrono.h>             // std::chrono clocks, durations, duration_cast
#include <bits/std_function.h>       // std::function
#include <bits/std_thread.h>         // std::thread, std::this_thread::yield
#include <bits/stl_algo.h>           // std::sort
#include <bits/this_thread_sleep.h>  // std::this_thread::sleep_for
#else
#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#endif
