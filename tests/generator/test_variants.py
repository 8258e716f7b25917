"""Nonblocking and persistent variants of a binding (spec/bindings `nonblocking:` and
`persistent:` keys): names, MPI arguments, generated bodies, test statements, errors."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from generator.calltests import cases, requested_back_case
from generator.shapes import call_body as body
from generator.pipeline import load_spec
from test_pipeline import COLLECTIVES, assert_spec_error, block_lines, edit_line, find_line, root, snapshot  # noqa: F401

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def spec():
    return load_spec(REPO)[0]


def _binding(spec, name):
    return next(b for b in spec.bindings if b.name == name)


def test_each_variant_is_a_binding_of_its_own(spec):
    names = {b.name: b for b in spec.bindings}
    assert names["iallgatherv"].variant == "nonblocking" and names["iallgatherv"].mpi == "MPI_Iallgatherv"
    assert names["allgatherv_init"].variant == "persistent" and names["allgatherv_init"].mpi == "MPI_Allgatherv_init"
    assert names["irecv"].mpi == "MPI_Irecv" and names["recv_init"].mpi == "MPI_Recv_init"
    # Same parameters and rules as the blocking call.
    blocking, nonblocking = names["allgatherv"].regular, names["iallgatherv"].regular
    assert [p.name for p in nonblocking.params] == [p.name for p in blocking.params]
    assert [(p.name, r.text) for p, r in nonblocking.rule_order] == [(p.name, r.text) for p, r in blocking.rule_order]


def test_mpi_arguments_drop_the_status_and_end_with_the_request(spec):
    recv, irecv = _binding(spec, "recv").regular, _binding(spec, "irecv").regular
    assert recv.mpi_args[-1] == "status"
    assert irecv.mpi_args == [a for a in recv.mpi_args if a != "status"] + ["request"]
    # A persistent collective also takes an info argument, before the request.
    assert _binding(spec, "allgatherv_init").regular.mpi_args[-3:] == ["comm", "MPI_INFO_NULL", "request"]
    # Persistent point-to-point calls take none.
    assert _binding(spec, "send_init").regular.mpi_args[-2:] == ["comm", "request"]


def test_bodies_move_the_slots_into_the_result(spec):
    b = _binding(spec, "irecv")
    finish = "\n".join(body(b, b.regular)["finish"])
    assert finish.startswith("return nampi::detail::start_nonblocking<")
    # The status is not an argument of MPI_Irecv: MPI_Wait fills it (its slot index is passed).
    status_index = [p.name for p in b.regular.params if p.name != "recv_buf"].index("status") + 1
    assert f"...>, {status_index}, nampi::detail::request_of<decltype(ctx)>>(" in finish
    assert "call_mpi<MPI_Irecv>(ctx, " in finish and ", request);" in finish
    slots = body(b, b.regular)["slots"]
    assert all("nampi::detail::moved_input::" in s for s in slots)
    assert "moved_input::hand_back" in next(s for s in slots if "param_id::recv_buf" in s)
    assert "moved_input::keep" in next(s for s in slots if "param_id::tag" in s)
    p = _binding(spec, "allreduce_init")
    assert "\n".join(body(p, p.regular)["finish"]).startswith("return nampi::detail::init_persistent<")
    blocking = _binding(spec, "recv")
    assert body(blocking, blocking.regular)["finish"][-1].startswith("return nampi::detail::make_result<")


def test_tests_complete_the_call_and_count_its_completion(spec):
    everything_omitted = cases(_binding(spec, "iallgatherv"), _binding(spec, "iallgatherv").regular)[0]
    assert everything_omitted["statement"] == "result = comm.iallgatherv(send_buf(data)).wait();"
    assert everything_omitted["calls"] == {"MPI_Allgather": 1, "MPI_Iallgatherv": 1, "MPI_Wait": 1}
    persistent = cases(_binding(spec, "allgatherv_init"), _binding(spec, "allgatherv_init").regular)[0]
    assert persistent["statement"].startswith("{ auto persistent = comm.allgatherv_init(send_buf(data));")
    assert persistent["calls"] == {
        "MPI_Allgather": 1,
        "MPI_Allgatherv_init": 1,
        "MPI_Request_free": 1,
        "MPI_Start": 1,
        "MPI_Wait": 1,
    }
    # Asked-back values are read while the persistent call is alive: no MPI_Request_free yet.
    back = requested_back_case(_binding(spec, "allgatherv_init"), _binding(spec, "allgatherv_init").regular)
    assert "MPI_Request_free" not in back["calls"]


def test_a_variant_naming_an_unknown_mpi_function(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^  nonblocking: MPI_Iallgatherv\s*$")
    edit_line(path, line, "MPI_Iallgatherv", "MPI_Iallgatherw")
    assert_spec_error(root, capsys, COLLECTIVES, line, "iallgatherv: 'MPI_Iallgatherw' is not in spec/mpi/")


def test_a_variant_whose_name_is_taken(root: Path, capsys):
    path = root / COLLECTIVES
    text = path.read_text()
    line = find_line(text, "barrier", r"^  nonblocking: MPI_Ibarrier\s*$")
    # A blocking binding named like the variant comes first in the file.
    edit_line(path, 1, path.read_text().splitlines()[0], "ibarrier:\n  mpi: MPI_Barrier\n  doc: x\n  params: {}\n  mpi_args: [comm]\n  test: {}\n" + text.splitlines()[0])
    assert_spec_error(root, capsys, COLLECTIVES, line + 6, "binding 'ibarrier' is already defined")


def test_a_fields_parameter_is_passed_field_by_field(spec):
    mprobe = _binding(spec, "mprobe").regular
    assert mprobe.mpi_args[-2:] == ["message.handle", "message.status"]
    call = body(_binding(spec, "mprobe"), mprobe)["finish"][0]
    assert "&message.get().handle, &message.get().status);" in call
    # imrecv: the message is moved into the result with the other slots, and named in the lambda.
    imrecv = _binding(spec, "imrecv")
    finish = "\n".join(body(imrecv, imrecv.regular)["finish"])
    assert "auto& message" in finish and "&message.get().handle, request);" in finish


def test_a_fields_parameter_passed_whole(root: Path, capsys):
    path = root / "spec/bindings/point_to_point.yaml"
    line = find_line(path.read_text(), "mrecv", r"^  mpi_args: \[.*message\.handle")
    edit_line(path, line, "message.handle", "message")
    assert_spec_error(root, capsys, "spec/bindings/point_to_point.yaml", line, "'message' is passed as its fields")


def test_local_calls_in_a_rule_do_not_make_a_call_block():
    """`local: true` in spec/mpi/ (a curated field): irecv's inferred count probes (MPI_Probe
    waits for a message) and then asks MPI_Get_count, which is local: only MPI_Probe counts."""
    from generator.variants import _blocking_rules

    spec, functions, _ = load_spec(REPO)
    assert functions["MPI_Get_count"].local and functions["MPI_Comm_size"].local
    assert not functions["MPI_Probe"].local
    irecv = _binding(spec, "irecv")
    assert _blocking_rules(irecv, functions) == ["`recv_count` (MPI_Probe)"]
    everything_blocks = {name: f for name, f in functions.items() if not f.local}
    assert "MPI_Get_count" in ", ".join(_blocking_rules(irecv, everything_blocks))


def test_collective_calls_note_their_communicator_for_tasks(spec):
    """A binding marked `collective` (every process of the communicator takes part, matched by
    order) tells nampi::run's claims which communicator it runs on before anything else, in
    each of its forms; a point-to-point call does not (nampi/detail/coroutine/strand.hpp)."""
    names = {b.name: b for b in spec.bindings}
    # Variants inherit the entry's key.
    for name in ("allreduce", "iallreduce", "allreduce_init", "neighbor_alltoallv", "dup", "idup",
                 "split", "cart_create", "win_create", "file_open"):
        assert names[name].collective, name
    for name in ("send", "isend", "recv_init", "cart_coords", "create_group", "put", "write_at"):
        assert not names[name].collective, name
    for family, marked in (("allreduce", True), ("send", False)):
        text = (REPO / "generated/include/nampi/calls" / f"{family}.hpp").read_text()  # its definitions
        for b in (b for b in spec.bindings if b.base == family):
            # The body the form's entry runs: its own (named by the call), or one its family's
            # forms share (generator/shared_bodies.py), which names the call through the tag.
            body, name = _body_of(text, b.name)
            noted = f"nampi::detail::coro::note_collective(self(), {name});" in body
            assert noted == marked, b.name
            if marked:  # before the call's context, so before any MPI call
                assert body.index(f"note_collective(self(), {name})") < body.index(f"self().call_context({name})")


def _body_of(header: str, call: str) -> tuple[str, str]:
    """The private body a call's entry runs in a family's definitions (nampi/calls/<family>.hpp),
    and how it spells the call's name: "<call>" in a body of its own, Form::name in one its
    family's forms share."""
    entry = re.search(rf"\w+_family<Comm>::{call}\(\s*Args&&\.\.\. args\) const \{{", header).end()
    impl, tag = re.search(r"return (\w+?)(?:_out_of_line)?(?:<T>)?\((nampi::call::\w+\{\}, )?args\.\.\.\);",
                          header[entry:]).groups()
    start = re.search(rf"_family<Comm>::{impl}\(", header).start()
    end = header.index("\n}\n", start)
    return header[start:end], "Form::name" if tag else f'"{call}"'

