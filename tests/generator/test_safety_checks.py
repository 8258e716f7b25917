"""The memory-safety checks the generator emits (generator/cpp.py, checks.py, buffers.py): which buffer each count and
datatype describe (from the MPI function's own parameters), per-rank array lengths, element
types one datatype serves, and where the fit checks run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from generator.buffers import typed_buffers  # noqa: E402
from generator.checks import checks  # noqa: E402
from generator.shapes import call_body as body  # noqa: E402
from conftest import binding_named  # noqa: E402


@pytest.fixture(scope="module")
def spec(repo_spec):
    return repo_spec


_binding = binding_named


def test_typed_buffers_follow_the_mpi_function(spec):
    allgather = _binding(spec, "allgather")
    assert typed_buffers(allgather.regular) == [
        ("send_buf", "send_count", "send_type", False),
        ("recv_buf", "recv_count", "recv_type", False),
    ]
    # MPI_Allreduce: both buffers share the count and the datatype.
    allreduce = _binding(spec, "allreduce")
    assert typed_buffers(allreduce.regular) == [
        ("send_buf", "send_count", "send_type", False),
        ("recv_buf", "send_count", "send_type", False),
    ]
    # A literal count (the 1 of a _single call) is no parameter to check.
    single = _binding(spec, "allgather_single")
    assert typed_buffers(single.regular) == [("send_buf", None, "send_type", False), ("recv_buf", None, "send_type", False)]
    # MPI_Gatherv reads its receive side at the root only; its counts are an array.
    gatherv = _binding(spec, "gatherv")
    assert typed_buffers(gatherv.regular)[1] == ("recv_buf", None, "recv_type", True)
    # In place: the buffer at MPI_IN_PLACE's position is no parameter.
    assert typed_buffers(allgather.in_place) == [("send_recv_buf", "recv_count", "recv_type", False)]


def test_resize_rules_see_the_buffer_in_its_datatype(spec):
    rules = body(_binding(spec, "bcast"), _binding(spec, "bcast").regular)["rules"]
    assert any("nampi::detail::typed(send_recv_buf, send_recv_type)" in r for r in rules)


def test_given_per_rank_arrays_are_checked_first_and_at_the_root_where_mpi_reads_them(spec):
    gatherv = _binding(spec, "gatherv")
    rules = body(gatherv, gatherv.regular)["rules"]
    lengths = [r for r in rules if "check_length" in r]
    assert [r for r in rules[: len(lengths)]] == lengths
    assert any("recv_counts" in r and "if (ctx.rank == root.get())" in r for r in lengths)
    # alltoallw: each buffer's blocks, one datatype per rank, inside it.
    alltoallw = _binding(spec, "alltoallw")
    blocks = [r for r in body(alltoallw, alltoallw.regular)["rules"] if "check_typed_blocks_fit" in r]
    assert len(blocks) == 2 and "send_buf, send_counts, send_displs, send_types" in blocks[0]
    alltoallw = _binding(spec, "alltoallw")
    named = {a for r in body(alltoallw, alltoallw.regular)["rules"] if "check_length" in r for a in [r.split(", ")[1]]}
    assert named == {"send_counts", "send_displs", "send_types", "recv_counts", "recv_displs", "recv_types"}
    # Per-neighbour arrays are checked against the neighbour counts the call asks first: send
    # arrays per out-neighbour, receive arrays per in-neighbour.
    neighbor = _binding(spec, "neighbor_alltoallv")
    rules = body(neighbor, neighbor.regular)["rules"]
    assert "topology_neighbor_counts(ctx)" in rules[0]
    lengths = [r for r in rules if "check_length" in r]
    assert any("send_counts, static_cast<std::size_t>(neighbors.out), \"out-neighbour\"" in r for r in lengths)
    assert any("recv_displs, static_cast<std::size_t>(neighbors.in), \"in-neighbour\"" in r for r in lengths)
    assert any('check_blocks_fit("neighbor_alltoallv", send_buf' in r and "neighbors.out" in r for r in rules)


def test_fit_checks_run_before_rules_that_communicate(spec):
    allgatherv = _binding(spec, "allgatherv")
    rules = body(allgatherv, allgatherv.regular)["rules"]
    send_check = next(i for i, r in enumerate(rules) if 'check_fits("allgatherv", send_buf' in r)
    exchange = next(i for i, r in enumerate(rules) if "allgather_counts" in r)
    assert send_check < exchange


def test_one_datatype_for_two_element_types_is_a_compile_error(spec):
    allreduce = _binding(spec, "allreduce")
    msgs = [c["msg"] for c in checks(allreduce, allreduce.regular)]
    assert (
        "nampi: allreduce: 'recv_buf' holds another element type than 'send_buf', and one datatype ('send_type') "
        "serves both (give send_type, or buffers of one element type)"
    ) in msgs
    allgather = _binding(spec, "allgather")
    conds = {c["msg"]: c["cond"] for c in checks(allgather, allgather.regular)}
    msg = (
        "nampi: allgather: 'recv_buf' holds another element type than 'send_buf', so 'recv_count' cannot be "
        "taken from 'send_count' (give recv_count)"
    )
    assert "computes<nampi::param_id::recv_type" in conds[msg]
