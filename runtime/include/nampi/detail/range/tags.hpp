// The kinds of messages of a range communicator's collectives. A collective on a range sends
// on nampi's own context of the parent communicator (nampi/detail/own_context.hpp), never on the
// parent itself, so no tag of the parent is reserved. There each collective has a block of
// `kinds` tags of its own (range/collective_start.hpp), and its messages of a kind use the
// block's tag at that offset.
#pragma once

namespace nampi::detail::range_tags {

inline constexpr int copy = 0;  // a rank's own block, sent to itself
inline constexpr int barrier = 1;
inline constexpr int bcast = 2;
inline constexpr int reduce = 3;
inline constexpr int scan = 4;
inline constexpr int exscan = 5;
inline constexpr int gather = 6;
inline constexpr int allgather = 7;
inline constexpr int kinds = 8;

}  // namespace nampi::detail::range_tags
