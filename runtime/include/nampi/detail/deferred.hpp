// deferred_t<T, P>: T, named so that it depends on the template parameter P.
//
// Code in a template that uses an object of a non-dependent type such as
// std::vector<int> is bound where the template is defined, and compilers then
// instantiate what it calls (push_back, resize, ...) in every unit that
// includes the header, used or not. Naming the member types through
// deferred_t makes those uses dependent: they are compiled only in a program
// that uses the template (issue 14).
#pragma once

namespace nampi::detail {

template <typename T, typename P>
struct deferred {
  using type = T;
};
template <typename T, typename P>
using deferred_t = typename deferred<T, P>::type;

}  // namespace nampi::detail
