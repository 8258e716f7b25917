"""A contributor edits YAML (and data files) only: on copies of the spec, with no Python edit,
a call and its nonblocking twin whose MPI functions take an info of their own, and a function
that only another standard's data file (`import-standard --apis`) has."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO, group_calls

from generator.__main__ import build

DUP_WITH_INFO = """
dup_with_info:
  mpi: MPI_Comm_dup_with_info
  nonblocking: MPI_Comm_idup_with_info
  doc: Duplicates the communicator as dup does, with the hints of info for the new one.
  params:
    info: {required: true}
    new_comm: {returned: true}
  mpi_args: [comm, info, new_comm]
  test:
    args: {info: MPI_INFO_NULL}
    result_type: nampi::OwnedCommunicator
    check: |
      CHECK(result.size() == size);
"""


def _copy_inputs(root: Path) -> None:
    for folder in ("spec", "templates", "runtime"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy(REPO / ".clang-format", root / ".clang-format")


def test_a_call_and_its_nonblocking_twin_with_an_info_of_their_own(tmp_path):
    _copy_inputs(tmp_path)
    bindings = tmp_path / "spec" / "bindings" / "communicators.yaml"
    bindings.write_text(bindings.read_text(encoding="utf-8") + DUP_WITH_INFO, encoding="utf-8")
    files = build(tmp_path)
    header = group_calls(files, "communicators")
    # The info the caller gives goes to both functions; the nonblocking one gets no second
    # (MPI_INFO_NULL) info, only the request, as MPI_Comm_idup_with_info's signature says.
    blocking = re.search(r"call_mpi<MPI_Comm_dup_with_info>\((.*?)\);", header, re.DOTALL).group(1)
    nonblocking = re.search(r"call_mpi<MPI_Comm_idup_with_info>\((.*?)\);", header, re.DOTALL).group(1)
    assert "MPI_INFO_NULL" not in blocking and "to_mpi_value(info" in blocking.replace(" ", "").replace("\n", ""), blocking
    assert "MPI_INFO_NULL" not in nonblocking and nonblocking.rstrip().endswith("request"), nonblocking
    assert "docs/dup_with_info.md" in files and "docs/idup_with_info.md" in files
    assert "tests/test_dup_with_info.cpp" in files
    assert "[`comm.idup_with_info`](idup_with_info.md) `MPI_Comm_idup_with_info`" in files["docs/calls.md"]


def test_a_function_of_another_standards_data_file(tmp_path):
    _copy_inputs(tmp_path)
    import pympistandard

    bundled = Path(pympistandard.__file__).parent / "data" / "apis.json"
    data = json.loads(bundled.read_text(encoding="utf-8"))
    # A fictitious MPI 6 function: MPI_Comm_size's signature under a new name.
    entry = json.loads(json.dumps(data["mpi_comm_size"]))
    entry["name"] = "MPI_Comm_fictitious_size"
    data["mpi_comm_fictitious_size"] = entry
    apis = tmp_path / "apis.json"
    apis.write_text(json.dumps(data), encoding="utf-8")
    versions = tmp_path / "versions.txt"
    versions.write_text("MPI_Comm_fictitious_size 6.0\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "generator", "import-standard", "--root", str(tmp_path),
                          "--apis", str(apis), "--versions", str(versions)],
                         cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "wrote spec/mpi/communicators.yaml" in run.stdout
    spec = (tmp_path / "spec" / "mpi" / "communicators.yaml").read_text(encoding="utf-8")
    assert 'MPI_Comm_fictitious_size:\n  introduced: "6.0"' in spec
    # Against the file it came from, the spec is clean.
    check = subprocess.run([sys.executable, "-m", "generator", "spec-check", "--root", str(tmp_path), "--apis", str(apis)],
                           cwd=REPO, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    files = build(tmp_path)
    typed = files["include/nampi/mpi/communicators.hpp"]
    assert "inline int comm_fictitious_size(nampi::mpi::comm comm) {" in typed
    assert "call_mpi(\"MPI_Comm_fictitious_size\", MPI_Comm_fictitious_size, comm.get(), &size);" in typed


def test_a_new_family_of_names_is_filed_by_a_rule_of_chapters_yaml(tmp_path):
    # MPI_Stream_* matches no rule of MPI 5.0: one more line of YAML files it.
    _copy_inputs(tmp_path)
    import pympistandard

    data = json.loads((Path(pympistandard.__file__).parent / "data" / "apis.json").read_text(encoding="utf-8"))
    entry = json.loads(json.dumps(data["mpi_comm_size"]))
    entry["name"] = "MPI_Stream_size"
    data["mpi_stream_size"] = entry
    apis = tmp_path / "apis.json"
    apis.write_text(json.dumps(data), encoding="utf-8")
    versions = tmp_path / "versions.txt"
    versions.write_text("MPI_Stream_size 6.0\n", encoding="utf-8")
    command = [sys.executable, "-m", "generator", "import-standard", "--root", str(tmp_path), "--apis", str(apis),
               "--versions", str(versions)]
    refused = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    assert refused.returncode != 0
    assert "MPI_Stream_size: no chapter rule matches (add one to spec/mpi/chapters.yaml)" in refused.stderr
    chapters = tmp_path / "spec" / "mpi" / "chapters.yaml"
    chapters.write_text(chapters.read_text(encoding="utf-8") + '  - {pattern: "^MPI_Stream_", chapter: process}\n',
                        encoding="utf-8")
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "MPI_Stream_size:" in (tmp_path / "spec" / "mpi" / "process.yaml").read_text(encoding="utf-8")


def test_a_chapter_rule_names_a_chapter_with_a_title(tmp_path):
    _copy_inputs(tmp_path)
    chapters = tmp_path / "spec" / "mpi" / "chapters.yaml"
    text = chapters.read_text(encoding="utf-8") + '  - {pattern: "^MPI_Stream_", chapter: streams}\n'
    chapters.write_text(text, encoding="utf-8")
    from generator.forum import load_chapters
    from generator.errors import SpecError

    try:
        load_chapters(tmp_path / "spec")
    except SpecError as err:
        assert str(err) == f"spec/mpi/chapters.yaml:{len(text.splitlines())}: chapter 'streams' has no title under `titles`"
    else:
        raise AssertionError("a rule without a chapter title was accepted")


def test_apis_must_be_a_file(tmp_path):
    run = subprocess.run([sys.executable, "-m", "generator", "import-standard", "--root", str(REPO),
                          "--apis", str(tmp_path / "missing.json")], cwd=REPO, capture_output=True, text=True)
    assert run.returncode != 0
    assert "missing.json: no such file (--apis takes the MPI Forum's apis.json)" in run.stderr
