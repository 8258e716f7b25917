// The tags a range communicator's collectives use on the parent communicator. A collective
// on a range is point-to-point messages on the parent, so these tags are reserved there:
// a program's own messages on the parent (or on ranges of it) must use other tags. They lie
// just below 32767, the smallest MPI_TAG_UB MPI allows, so every MPI accepts them.
// Collectives on two ranges that share two or more processes must not run at the same time
// (RBC's rule): their messages could match each other's.
#pragma once

namespace nampi::detail::range_tags {

inline constexpr int first_reserved = 32752;
inline constexpr int copy = 32752;  // a rank's own block, sent to itself
inline constexpr int barrier = 32753;
inline constexpr int bcast = 32754;
inline constexpr int reduce = 32755;
inline constexpr int scan = 32756;
inline constexpr int exscan = 32757;
inline constexpr int gather = 32758;
inline constexpr int allgather = 32759;

}  // namespace nampi::detail::range_tags
