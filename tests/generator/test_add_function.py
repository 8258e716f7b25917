"""A maintainer adds an MPI function by hand to a spec/mpi/ file and runs `make generate`:
its typed wrapper and its PMPI counter appear with no other edit (issue 4's promise)."""

from __future__ import annotations

from pathlib import Path

from test_pipeline import root, run, snapshot  # noqa: F401

NEW_ENTRY = """
MPI_Comm_fixture_size:
  introduced: "5.0"
  params:
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
    - {name: size, kind: COMM_SIZE, c_type: "int *", dir: out}
"""


def test_a_function_added_to_the_spec_gets_a_wrapper_and_a_counter(root: Path, capsys):
    generated = root / "generated"
    header = generated / "include/nampi/mpi/communicators.hpp"
    counter = generated / "pmpi/nampi_pmpi_counter.c"
    assert "comm_fixture_size" not in header.read_text() and "MPI_Comm_fixture_size" not in counter.read_text()

    with open(root / "spec/mpi/communicators.yaml", "a", encoding="utf-8") as f:
        f.write(NEW_ENTRY)
    code, out, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, out + err

    text = header.read_text()
    # The typed wrapper: the out-parameter returned by value, the handle typed, errors thrown.
    assert "spec/mpi/communicators.yaml: MPI_Comm_fixture_size" in text
    assert "inline int comm_fixture_size(nampi::mpi::comm comm)" in text
    # Left out where the probe did not find it.
    assert "#if defined(NAMPI_HAVE_MPI_COMM_FIXTURE_SIZE)" in text
    pmpi = counter.read_text()
    assert "#ifdef NAMPI_HAVE_MPI_COMM_FIXTURE_SIZE\nint MPI_Comm_fixture_size(MPI_Comm comm, int* size) {" in pmpi
    assert "PMPI_Comm_fixture_size(comm, size)" in pmpi
    # The probe list the build checks symbols from.
    assert "MPI_Comm_fixture_size" in (generated / "cmake/nampi_mpi_functions.cmake").read_text()
