// nampi::File: an MPI file (parallel I/O) with every generated call of spec/bindings/files.yaml
// as a member (f.write_at(...), f.read_at_all<T>(...), f.set_view(...), ...). A communicator
// opens one (spec/bindings/file_open.yaml: comm.file_open(filename(path), amode(...))); the
// file closes itself (MPI_File_close, collective: every rank's files are destroyed in the same
// order), or close() closes it earlier.
#pragma once

#include <mpi.h>

#include "nampi/detail/call_support.hpp"
#include "nampi/detail/mpi/handles.hpp"
#include "nampi/generated/files.hpp"
#include "nampi/generated/files_definitions.hpp"

namespace nampi {

class File : public generated::files_calls<File> {
 public:
  // A null file (what a failed open leaves); no call can run on it.
  File() noexcept = default;
  File(File&&) noexcept = default;
  File& operator=(File&&) noexcept = default;
  ~File() = default;  // owner_ closes the file (MPI_File_close)

  // The MPI file, for C libraries (HDF5, ...) and MPI calls of your own (the file still owns it).
  MPI_File mpi_handle() const noexcept { return owner_.get(); }
  MPI_File mpi_file() const noexcept { return owner_.get(); }  // the same, by its older name
  bool is_null() const noexcept { return owner_.is_null(); }

  // Closes the file now (collective), reporting an error as an exception; afterwards null.
  void close() {
    MPI_File handle = owner_.release().get();
    if (handle != MPI_FILE_NULL) detail::call_mpi("MPI_File_close", MPI_File_close, &handle);
  }

  // Every form of the files group: MPI has them all.
  template <typename Call>
  static constexpr bool provides = true;

  detail::file_context call_context(const char* call) const noexcept {
    return {call, owner_.get()};
  }

  // Owns `file` (file_open hands it over, slot.hpp: to_mpi_new_file). A file reports errors
  // by return code already (MPI's default for files), which nampi turns into exceptions.
  void adopt(MPI_File file) { owner_ = mpi::unique_file(mpi::file(file)); }

 private:
  mpi::unique_file owner_;
};

}  // namespace nampi
