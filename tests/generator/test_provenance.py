"""Per-file provenance: each generated file carries the hash of its own content, so a spec edit
changes only the files whose content it changes (a one-call change reviews as one call)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from conftest import REPO

from generator.__main__ import build

NEW_BINDING = """
barrier_twin:
  mpi: MPI_Barrier
  doc: Blocks until every rank has called it (a second binding of MPI_Barrier).
  params: {}
  mpi_args: [comm]
  test: {}
"""


def _copy_inputs(root: Path) -> None:
    for folder in ("spec", "templates", "runtime"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy(REPO / ".clang-format", root / ".clang-format")


def test_adding_one_binding_changes_only_its_files(tmp_path):
    _copy_inputs(tmp_path)
    before = build(tmp_path)
    bindings = tmp_path / "spec" / "bindings" / "collectives.yaml"
    bindings.write_text(bindings.read_text(encoding="utf-8") + NEW_BINDING, encoding="utf-8")
    after = build(tmp_path)
    changed = sorted(name for name in after if before.get(name) != after[name])
    assert changed == [
        "docs/barrier_twin.md",  # its page
        "docs/calls.md",  # the index of every call
        "docs/reference/collectives.md",  # the index of the group
        "include/nampi/calls/barrier_twin.hpp",  # its family's definitions
        "include/nampi/generated/backends.hpp",  # the range backend's calls (it has MPI_Barrier)
        "include/nampi/generated/collectives.hpp",  # its group's index of families
        "include/nampi/generated/collectives/barrier_twin.hpp",  # its family's declarations
        "include/nampi/generated/collectives_definitions.hpp",  # its group's index of definitions
        "tests/test_barrier_twin.cpp",  # its call test
    ]
    assert set(before) <= set(after)


def test_the_first_line_is_the_hash_of_the_rest(tmp_path):
    _copy_inputs(tmp_path)
    files = build(tmp_path)
    for name in ("include/nampi/generated/collectives/barrier.hpp", "docs/barrier.md", "tests/test_barrier.cpp"):
        first, rest = files[name].split("\n", 1)
        digest = hashlib.sha256(rest.encode("utf-8")).hexdigest()[:16]
        assert f"content sha256:{digest}" in first, name


def test_a_family_header_names_its_spec_entry_and_the_hash_of_its_inputs(tmp_path):
    """One header per family (the blocking call and its nonblocking and persistent forms), headed
    by its spec entry's file:line and the hash of what it is rendered from: an edit of one entry
    changes that family's header (and its hash) and no other call header."""
    _copy_inputs(tmp_path)
    before = build(tmp_path)
    header = before["include/nampi/generated/collectives/allgatherv.hpp"]
    spec = (tmp_path / "spec/bindings/collectives.yaml").read_text(encoding="utf-8").splitlines()
    line = spec.index("allgatherv:") + 1
    lines = header.splitlines()
    assert lines[1] == f"// spec/bindings/collectives.yaml:{line}: allgatherv, allgatherv_init, iallgatherv"
    assert lines[2].startswith("// inputs sha256:")
    assert "class allgatherv_family {" in header and "class allgather_family" not in header
    index = before["include/nampi/generated/collectives.hpp"]
    assert '#include "nampi/generated/collectives/allgatherv.hpp"' in index
    assert "public allgatherv_family<Comm>" in index
    assert "MPI_Allgatherv" not in index  # an index only: no call lives there

    doc = next(i for i in range(line, len(spec)) if spec[i].startswith("  doc:"))  # the entry's doc
    spec[doc] += " More."
    (tmp_path / "spec/bindings/collectives.yaml").write_text("\n".join(spec) + "\n", encoding="utf-8")
    after = build(tmp_path)
    changed = sorted(n for n in after if n.startswith("include/") and before.get(n) != after[n])
    # its two headers, declarations and definitions, with their inputs' hash
    assert changed == ["include/nampi/calls/allgatherv.hpp", "include/nampi/generated/collectives/allgatherv.hpp"]
    assert after[changed[1]].splitlines()[2] != lines[2]
    assert before[changed[0]].splitlines()[1:3] == lines[1:3]  # the same spec entry and hash


NEW_PARAMETERS = """
example_extent:
  doc: An extent in bytes that no call takes (a test of the generator only).
  to_mpi: value
  takes: integer
  storage: MPI_Aint
  factories: {in: example_extent}
example_unit:
  doc: A unit in bytes that no call takes (a test of the generator only).
  to_mpi: value
  takes: integer
  storage: int
  factories: {in: example_unit}
"""


def test_adding_parameters_leaves_the_call_headers_alone(tmp_path):
    """Each call form lists the parameters it takes; the parameters it does not take are
    checked once, against that list (nampi/detail/check_call.hpp), so a new parameter that no call takes
    changes only parameters.hpp."""
    _copy_inputs(tmp_path)
    before = build(tmp_path)
    parameters = tmp_path / "spec" / "parameters.yaml"
    parameters.write_text(parameters.read_text(encoding="utf-8") + NEW_PARAMETERS, encoding="utf-8")
    after = build(tmp_path)
    changed = sorted(name for name in after if before.get(name) != after[name])
    assert changed == ["include/nampi/generated/parameters.hpp"]
    assert "example_unit(T&& value)" in after["include/nampi/generated/parameters.hpp"]
