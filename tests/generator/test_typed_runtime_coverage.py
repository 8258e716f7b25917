"""Issue 4 item 7(b)/(c): the typed-layer runtime tests (tests/typed/*.cpp) assert, with the
PMPI counter, the calls of at least 80 distinct MPI functions outside point-to-point and
collectives; every name in their expectations is an MPI function of spec/mpi/."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))

import count_typed_functions as counter  # noqa: E402


def test_at_least_80_functions_outside_pt2pt_and_collectives():
    found, _ = counter.counted(ROOT)
    assert len(found) >= 80, found
    chapters = {chapter for chapter, _ in found}
    assert not chapters & counter.EXCLUDED_CHAPTERS


def test_expectations_name_only_functions_of_the_spec():
    _, unknown = counter.counted(ROOT)
    assert unknown == []


def test_collectives_outside_their_chapter_do_not_count():
    names = {name for _, name in counter.counted(ROOT)[0]}
    assert "MPI_Win_fence" not in names
    assert counter.EXCLUDED_PATTERN.match("MPI_Ineighbor_alltoallw")
    assert not counter.EXCLUDED_PATTERN.match("MPI_Win_free")


def test_expectation_pattern_reads_multiset_keys_only(tmp_path):
    (tmp_path / "t.cpp").write_text(
        'CHECK(snapshot() == call_counts{{"MPI_Comm_dup", 1}, {"MPI_Comm_free", n}});\n'
        'CHECK(std::string(e.call()) == "MPI_Comm_size");\n'
    )
    assert counter.expected_calls(tmp_path) == {"MPI_Comm_dup", "MPI_Comm_free"}
