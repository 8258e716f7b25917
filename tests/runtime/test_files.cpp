// Parallel I/O as programs use it: nampi::File from comm.file_open(), written and read back
// at offsets, collectively, through a strided view, nonblocking with a moved-in buffer; the
// file contents checked; MPI errors as exceptions. Every file is a scratch file of rank 0's
// temporary directory, removed at the end.

// ctest-labels: ranks8
#include <doctest/doctest.h>

#include <nampi/file.hpp>
#include <nampi/nampi.hpp>
#include <string>
#include <vector>

#include "nampi_test_support.hpp"

using namespace nampi::params;

TEST_CASE("files: each rank's block at its offset, read back by its neighbour") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const nampi_test::scratch_path path(comm, "blocks");
  {
    auto file = comm.file_open(filename(path.name()), amode(MPI_MODE_CREATE | MPI_MODE_WRONLY));
    std::vector<double> mine(4);
    for (int i = 0; i < 4; ++i) mine[i] = rank + 0.25 * i;
    file.write_at_all(offset(rank * 4 * sizeof(double)), send_buf(mine));
  }  // closed here (collective)
  auto file = comm.file_open(filename(path.name()));
  CHECK(file.get_size() == static_cast<MPI_Offset>(size * 4 * sizeof(double)));
  const int next = (rank + 1) % size;
  MPI_Status status;
  const std::vector<double> theirs =
      file.read_at<double>(offset(next * 4 * sizeof(double)), recv_count(4), status_out(status));
  CHECK(theirs == std::vector<double>{next + 0.0, next + 0.25, next + 0.5, next + 0.75});
  int got = -1;
  MPI_Get_count(&status, MPI_DOUBLE, &got);
  CHECK(got == 4);
  file.close();
  CHECK(file.is_null());
}

TEST_CASE("files: a strided view interleaves the ranks' elements") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const nampi_test::scratch_path path(comm, "interleaved");
  auto file = comm.file_open(filename(path.name()), amode(MPI_MODE_CREATE | MPI_MODE_RDWR));
  // Element i of rank r goes to position i * size + r: a filetype of one int, resized to a
  // stride of `size` ints, seen from an offset of r ints.
  MPI_Datatype strided;
  MPI_Type_create_resized(MPI_INT, 0, static_cast<MPI_Aint>(size * sizeof(int)), &strided);
  MPI_Type_commit(&strided);
  file.set_view(disp(rank * sizeof(int)), etype(MPI_INT), filetype(strided));
  const std::vector<int> mine{100 * rank, 100 * rank + 1, 100 * rank + 2};
  file.write_all(send_buf(mine));
  const std::vector<int> whole = nampi_test::read_whole_file<int>(file, comm);  // bytes view now
  std::vector<int> expected;
  for (int i = 0; i < 3; ++i)
    for (int r = 0; r < size; ++r) expected.push_back(100 * r + i);
  CHECK(whole == expected);
  MPI_Type_free(&strided);
}

TEST_CASE("files: nonblocking write of a moved-in buffer, ordered and shared pointers") {
  nampi::Communicator comm;
  const int rank = comm.rank(), size = comm.size();
  const nampi_test::scratch_path path(comm, "nonblocking");
  auto file = comm.file_open(filename(path.name()), amode(MPI_MODE_CREATE | MPI_MODE_RDWR));
  auto pending =
      file.iwrite_at(offset(rank * 2 * sizeof(int)), send_buf(std::vector<int>{rank, -rank}));
  const std::vector<int> handed_back = pending.wait();  // the buffer, back after completion
  CHECK(handed_back == std::vector<int>{rank, -rank});
  std::vector<int> expected;
  for (int r = 0; r < size; ++r) expected.insert(expected.end(), {r, -r});
  CHECK(nampi_test::read_whole_file<int>(file, comm) == expected);

  // The shared file pointer, in rank order: rank r's block after rank r-1's, after the above.
  const std::vector<int> tail{1000 + rank};
  file.seek_shared(offset(0), whence(MPI_SEEK_END));
  file.write_ordered(send_buf(tail));
  const std::vector<int> all = nampi_test::read_whole_file<int>(file, comm);
  REQUIRE(all.size() == static_cast<std::size_t>(3 * size));
  for (int r = 0; r < size; ++r) CHECK(all[2 * size + r] == 1000 + r);
}

TEST_CASE("files: MPI errors are exceptions with MPI's text") {
  nampi::Communicator comm;
  const nampi_test::scratch_path path(comm, "missing");
  try {
    auto file = comm.file_open(filename(path.name() + "/not-there"));
    FAIL("opened a file that does not exist");
  } catch (const nampi::mpi_error& e) {
    CHECK(std::string(e.what()).find("MPI_File_open") != std::string::npos);
  }
}
