// Which MPI library a test runs on, read from MPI_Get_library_version. Tests use it only to
// scope a documented deviation of one MPI release from the MPI standard as narrowly as
// possible (together with a probe of the deviating behaviour itself); nothing else may
// depend on it.
#pragma once

#include <mpi.h>

#include <string>

namespace nampi_test {

// The value after `key` ("MPICH Version:") in the library version string, up to the end of
// its line, without surrounding blanks; "" when the string has no such key.
inline std::string library_version_field(const std::string& key) {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  const std::string version(text);
  const std::size_t at = version.find(key);
  if (at == std::string::npos) return {};
  const std::size_t begin = version.find_first_not_of(" \t", at + key.size());
  if (begin == std::string::npos) return {};
  const std::size_t end = version.find_first_of("\r\n", begin);
  const std::string value = version.substr(begin, end == std::string::npos ? end : end - begin);
  return value.substr(0, value.find_last_not_of(" \t") + 1);
}

// MPICH's release ("4.0.2"), or "" when the library is not MPICH.
inline std::string mpich_release() { return library_version_field("MPICH Version:"); }

// MPICH 4.0 or one of its 4.0.x bug-fix releases.
inline bool is_mpich_4_0() {
  const std::string release = mpich_release();
  return release == "4.0" || release.rfind("4.0.", 0) == 0;
}

// MPICH's device ("ch4:ucx"), or "" when the library is not MPICH.
inline std::string mpich_device() { return library_version_field("MPICH Device:"); }

// Open MPI's release ("5.0.11" from "Open MPI v5.0.11, package: ..."), or "" when the
// library is not Open MPI.
inline std::string openmpi_release() {
  const std::string field = library_version_field("Open MPI v");
  return field.substr(0, field.find(','));
}

}  // namespace nampi_test
