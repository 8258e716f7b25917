"""Partitioned bindings (spec/bindings/partitioned.yaml, `partitioned:` instead of `mpi:`):
one binding <name>_init, its MPI arguments, the per-partition count rule, the generated
bodies and tests, and the errors of a malformed entry (file:line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.calltests import cases, requested_back_case
from generator.shapes import call_body as body
from generator.pipeline import load_spec
from test_pipeline import assert_spec_error, find_line, edit_line, insert_line, root, snapshot  # noqa: F401

REPO = Path(__file__).resolve().parents[2]
PARTITIONED = "spec/bindings/partitioned.yaml"


@pytest.fixture(scope="module")
def spec():
    return load_spec(REPO)[0]


def _binding(spec, name):
    return next(b for b in spec.bindings if b.name == name)


def test_a_partitioned_entry_defines_only_its_init_binding(spec):
    names = {b.name: b for b in spec.bindings}
    send, recv = names["psend_init"], names["precv_init"]
    assert (send.variant, send.mpi, send.partition_side, send.base) == ("partitioned", "MPI_Psend_init", "send", "psend")
    assert (recv.variant, recv.mpi, recv.partition_side, recv.base) == ("partitioned", "MPI_Precv_init", "recv", "precv")
    # No blocking, nonblocking or plain persistent form.
    assert not {"psend", "precv", "ipsend", "iprecv", "psend_init_init"} & names.keys()
    assert all(b.partition_side is None for b in spec.bindings if b.variant != "partitioned")
    assert send.in_place is None and "Partitioned and persistent" in send.doc


def test_mpi_arguments_take_partitions_and_end_with_info_and_request(spec):
    assert _binding(spec, "psend_init").regular.mpi_args == [
        "send_buf", "partitions", "send_count", "send_type", "dest", "tag", "comm", "MPI_INFO_NULL", "request",
    ]
    assert _binding(spec, "precv_init").regular.mpi_args == [
        "recv_buf", "partitions", "recv_count", "recv_type", "source", "tag", "comm", "MPI_INFO_NULL", "request",
    ]


def test_counts_are_per_partition_and_partitions_is_required(spec):
    for name, buf, count in (("psend_init", "send_buf", "send_count"), ("precv_init", "recv_buf", "recv_count")):
        form = _binding(spec, name).regular
        assert form.param("partitions").required and form.param(buf).required
        rule = form.param(count).default
        assert rule.rule.name == "size_of_per_partition" and rule.args == (buf, "partitions")
        assert rule.rule.mpi_calls == {} and rule.rule.helper == "nampi::infer::size_of_per_partition"
        assert [p.name for p in form.inferable] == [count, count.replace("count", "type"), "tag"]


def test_bodies_start_a_partitioned_call_of_the_right_side(spec):
    for name, side, fn in (("psend_init", "send", "MPI_Psend_init"), ("precv_init", "recv", "MPI_Precv_init")):
        b = _binding(spec, name)
        finish = "\n".join(body(b, b.regular)["finish"])
        assert finish.startswith(f"return nampi::detail::init_partitioned<nampi::partition_side::{side}, ")
        assert f"call_mpi<{fn}>(ctx, " in finish and "ctx.comm, MPI_INFO_NULL, request);" in finish
    # The plain persistent calls are unchanged.
    p = _binding(spec, "send_init")
    assert "\n".join(body(p, p.regular)["finish"]).startswith("return nampi::detail::init_persistent<nampi::detail::type_list<")


def test_tests_mark_every_partition_of_a_send_ready(spec):
    send = _binding(spec, "psend_init")
    everything_omitted = cases(send, send.regular)[0]
    assert everything_omitted["statement"] == (
        "{ auto persistent = comm.psend_init(send_buf(data), partitions(3), dest(right)); persistent.start(); "
        "persistent.pready_range(0, (3) - 1); persistent.wait(); }"
    )
    assert everything_omitted["calls"] == {
        "MPI_Pready_range": 1,
        "MPI_Psend_init": 1,
        "MPI_Request_free": 1,
        "MPI_Start": 1,
        "MPI_Wait": 1,
    }
    assert len(cases(send, send.regular)) == 8  # every subset of {send_count, send_type, tag}
    # A receive only waits; asked-back values are read while the call is alive.
    recv = _binding(spec, "precv_init")
    assert "pready" not in cases(recv, recv.regular)[0]["statement"]
    back = requested_back_case(recv, recv.regular)
    assert back["calls"] == {"MPI_Precv_init": 1, "MPI_Start": 1, "MPI_Wait": 1}
    assert back["value_checks"] == ["CHECK(returned.extract_recv_count() == (2));", "CHECK(returned.extract_recv_type() == (MPI_INT));"]


def test_the_generated_tests_are_guarded_by_the_probe():
    text = (REPO / "generated" / "tests" / "test_psend.cpp").read_text()
    assert "#if !defined(NAMPI_HAVE_MPI_PSEND_INIT)" in text
    assert 'TEST_CASE("psend_init: not provided by this MPI")' in text


def test_a_partitioned_entry_with_a_blocking_function(root: Path, capsys):
    path = root / PARTITIONED
    line = find_line(path.read_text(), "psend", r"^  partitioned: MPI_Psend_init\s*$")
    insert_line(path, line, "  mpi: MPI_Send")
    assert_spec_error(
        root, capsys, PARTITIONED, line + 1, "psend: a partitioned call (MPI_Psend_init) has only its persistent form; remove 'mpi'"
    )


def test_a_partitioned_entry_with_a_persistent_variant(root: Path, capsys):
    path = root / PARTITIONED
    line = find_line(path.read_text(), "precv", r"^  partitioned: MPI_Precv_init\s*$")
    insert_line(path, line, "  persistent: MPI_Recv_init")
    assert_spec_error(root, capsys, PARTITIONED, line + 1, "precv: a partitioned call (MPI_Precv_init) has only its persistent form; remove 'persistent'")


def test_an_entry_with_neither_mpi_nor_partitioned(root: Path, capsys):
    path = root / PARTITIONED
    text = path.read_text()
    line = find_line(text, "psend", r"^  partitioned: MPI_Psend_init\s*$")
    edit_line(path, line, "  partitioned: MPI_Psend_init", "  nonblocking: MPI_Isend")
    assert_spec_error(root, capsys, PARTITIONED, line - 1, "psend: needs 'mpi' (the blocking MPI function) or 'partitioned'")


def test_a_partitioned_function_that_is_not_psend_or_precv(root: Path, capsys):
    path = root / PARTITIONED
    line = find_line(path.read_text(), "psend", r"^  partitioned: MPI_Psend_init\s*$")
    edit_line(path, line, "MPI_Psend_init", "MPI_Send_init")
    assert_spec_error(root, capsys, PARTITIONED, line, "psend.partitioned", "does not match")


def test_a_partitioned_binding_whose_name_is_taken(root: Path, capsys):
    path = root / PARTITIONED
    text = path.read_text()
    line = find_line(text, "psend", r"^  partitioned: MPI_Psend_init\s*$")
    # An entry psend_init (a blocking binding of that name) comes first in the file.
    first = text.splitlines()[0]
    edit_line(path, 1, first, "psend_init:\n  mpi: MPI_Barrier\n  doc: x\n  params: {}\n  mpi_args: [comm]\n  test: {}\n" + first)
    assert_spec_error(root, capsys, PARTITIONED, line + 6, "binding 'psend_init' is already defined")


def test_the_count_rule_needs_partitions(root: Path, capsys):
    path = root / PARTITIONED
    line = find_line(path.read_text(), "psend", r"^    send_count: ")
    edit_line(path, line, "size_of_per_partition(send_buf, partitions)", "size_of_per_partition(send_buf)")
    assert_spec_error(root, capsys, PARTITIONED, line, "psend_init.send_count: rule 'size_of_per_partition' takes 2 argument(s), got 1")
