// One narrowing policy for every count, size and length nampi converts to a
// smaller integer type (a count into an int, an exchanged count into the
// caller's counts array, a span's size into a C length argument, a large count
// into the int of a function without `_c`): checked in every build, since a
// wrapped count makes MPI read or write the wrong amount; failing, it throws
// Error (usage_error for the named calls, nampi::mpi::count_error for the typed
// layer) with one message: the call, the parameter, its value and the target.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "nampi/detail/out_of_line.hpp"
#include "nampi/error.hpp"

namespace nampi::detail {

// "nampi: <call>: '<what>' (<value>) does not fit <into>", built only when the check fails.
// One instance per error type and signedness: the value goes as the widest integer; the
// library compiles usage_error's two (NAMPI_LIBRARY_INSTANCE), which the calls use.
template <typename Error, typename Wide>
[[noreturn, gnu::cold, gnu::noinline]] void throw_does_not_fit_wide(Wide value, const char* call,
                                                                    const char* what,
                                                                    const char* into) {
  if constexpr (std::is_signed_v<Wide>)
    throw Error(
        format_message("nampi: %s: '%s' (%lld) does not fit %s", call, what, value, into).text);
  else
    throw Error(
        format_message("nampi: %s: '%s' (%llu) does not fit %s", call, what, value, into).text);
}
#if NAMPI_LIBRARY_INSTANCES
NAMPI_LIBRARY_INSTANCE void throw_does_not_fit_wide<usage_error, long long>(long long, const char*,
                                                                            const char*,
                                                                            const char*);
NAMPI_LIBRARY_INSTANCE void throw_does_not_fit_wide<usage_error, unsigned long long>(
    unsigned long long, const char*, const char*, const char*);
#endif
template <typename Error, typename From>
[[noreturn, gnu::always_inline]] inline void throw_does_not_fit(From value, const char* call,
                                                                const char* what,
                                                                const char* into) {
  using Wide = std::conditional_t<std::is_signed_v<From>, long long, unsigned long long>;
  throw_does_not_fit_wide<Error, Wide>(static_cast<Wide>(value), call, what, into);
}

// `value` as a To, or Error naming `call`, `what` and what the value goes `into`.
template <typename To, typename Error = usage_error, typename From>
[[gnu::always_inline]] inline To narrow(From value, const char* call, const char* what,
                                        const char* into) {
  static_assert(std::is_integral_v<To> && std::is_integral_v<From>);
  if (!std::in_range<To>(value)) [[unlikely]]
    throw_does_not_fit<Error>(value, call, what, into);
  return static_cast<To>(value);
}

}  // namespace nampi::detail
