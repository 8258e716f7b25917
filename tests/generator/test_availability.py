"""spec/mpi/availability/: probe results recorded per MPI, loaded for the coverage table, checked."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from generator import availability as av  # noqa: E402
from generator.__main__ import main  # noqa: E402
from generator.errors import SpecError  # noqa: E402
from generator.mpi_spec import load_mpi_spec  # noqa: E402


@pytest.fixture(scope="module")
def functions():
    return load_mpi_spec(REPO / "spec", REPO)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "spec", tmp_path / "spec")
    shutil.rmtree(tmp_path / "spec" / "mpi" / av.FOLDER, ignore_errors=True)
    return tmp_path


def write_config(path: Path, names: list[str]) -> Path:
    lines = ["#ifndef NAMPI_CONFIG_H", "#define NAMPI_CONFIG_H"]
    lines += [f"#define NAMPI_HAVE_{n.upper()} 1" for n in names]
    lines += ["#define NAMPI_HAVE_MPIX_NOT_IN_THE_SPEC 1", "#endif"]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_probed_maps_macros_back_to_spec_names(tmp_path, functions):
    config = write_config(tmp_path / "config.h", ["MPI_Comm_dup", "MPI_Allgatherv_c", "MPI_Wtime"])
    assert av.probed(config, functions) == {"MPI_Comm_dup", "MPI_Allgatherv_c", "MPI_Wtime"}


def test_record_then_check_then_drift(root, capsys):
    config = write_config(root / "config.h", ["MPI_Comm_dup", "MPI_Send"])
    args = ["availability", "--root", str(root), "--mpi", "x", "--label", "X 1.0", "--config", str(config)]
    assert main(args) == 0
    record = root / "spec" / "mpi" / av.FOLDER / "x.txt"
    assert "# label: X 1.0" in record.read_text()
    assert main(args + ["--check"]) == 0
    # The MPI changed: the check names the difference and fails.
    write_config(config, ["MPI_Comm_dup", "MPI_Send", "MPI_Recv"])
    capsys.readouterr()
    assert main(args + ["--check"]) == 1
    assert "the probe found MPI_Recv, the record lacks it" in capsys.readouterr().err


def test_load_gives_base_functions_per_mpi(root, functions):
    config = write_config(root / "config.h", ["MPI_Allgatherv", "MPI_Allgatherv_c"])
    main(["availability", "--root", str(root), "--mpi", "x", "--label", "X", "--config", str(config)])
    (record,) = av.load(root / "spec", root, functions)
    assert record.label == "X" and record.functions == {"MPI_Allgatherv", "MPI_Allgatherv_c"}
    assert av.available_bases(record, functions) == {"MPI_Allgatherv"}


def test_unknown_name_is_an_error_with_file_and_line(root, functions):
    folder = root / "spec" / "mpi" / av.FOLDER
    folder.mkdir(parents=True)
    (folder / "x.txt").write_text("# label: X\nMPI_Send\nMPI_Sned\n")
    with pytest.raises(SpecError) as err:
        av.load(root / "spec", root, functions)
    assert str(err.value).startswith("spec/mpi/availability/x.txt:3:")
    assert "'MPI_Sned' is not a function of spec/mpi/" in str(err.value)


def test_committed_records_match_the_coverage_table():
    text = (REPO / "generated" / "docs" / "coverage.md").read_text()
    for record in sorted((REPO / "spec" / "mpi" / av.FOLDER).glob("*.txt")):
        label = next(l for l in record.read_text().splitlines() if l.startswith("# label: "))[9:]
        assert f"| {label} |" in text


def test_config_fallback_holds_what_every_mpi_provides():
    """generated/include/nampi/generated/config_fallback.h (used where nampi/config.h is absent)
    defines exactly the functions of the intersection of the committed records."""
    fallback = (REPO / "generated/include/nampi/generated/config_fallback.h").read_text()
    defined = {line.split()[1] for line in fallback.splitlines()
               if line.startswith("#define NAMPI_HAVE_")}
    records = [r.read_text().splitlines() for r in sorted((REPO / "spec/mpi/availability").glob("*.txt"))]
    sets = [{l for l in r if l and not l.startswith("#")} for r in records]
    common = set.intersection(*sets)
    assert defined == {f"NAMPI_HAVE_{name.upper()}" for name in common}
    assert "NAMPI_HAVE_MPI_SEND" in defined and "NAMPI_HAVE_MPI_ALLGATHER_INIT" not in defined  # Open MPI 4.1 lacks it
    assert "NAMPI_HAVE_ULFM" not in defined
