// CHECK_USAGE_ERROR(expr, part): expr throws nampi::usage_error whose message contains `part`
// (the safety tests: the error must come before MPI reads or writes anything);
// usage_error_message(f): the message of the usage_error f throws ("" if none).
#pragma once

#include <doctest/doctest.h>

#include <nampi/error.hpp>
#include <string>

// A usage_error whose message contains `part`.
#define CHECK_USAGE_ERROR(expr, part)                                                 \
  do {                                                                                \
    bool nampi_thrown = false;                                                        \
    try {                                                                             \
      static_cast<void>(expr);                                                        \
    } catch (const nampi::usage_error& e) {                                           \
      nampi_thrown = true;                                                            \
      CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what()); \
    }                                                                                 \
    CHECK_MESSAGE(nampi_thrown, "expected nampi::usage_error with: " << (part));      \
  } while (false)

// The message of the usage_error f throws ("" if none).
template <typename F>
std::string usage_error_message(F&& f) {
  try {
    f();
  } catch (const nampi::usage_error& e) {
    return e.what();
  }
  return "";
}
