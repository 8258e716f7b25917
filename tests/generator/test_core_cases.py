"""The core of the generated call tests (compiled by default): linear in the parameters,
and still giving and omitting every parameter and every rule-linked pair in all four states."""

from __future__ import annotations

from conftest import binding_named

from generator.calltests import cases, core_givens, linked_pairs
from generator.model import subsets


def _given(case: dict) -> set[str]:
    inside = case["name"].split("given {", 1)[1].split("}", 1)[0]
    return set(inside.split(", ")) if inside else set()


def test_alltoallv_core_covers_each_parameter_and_linked_pair(repo_spec):
    binding = binding_named(repo_spec, "alltoallv")
    form = binding.regular
    pairs = linked_pairs(form)
    # recv_displs are scanned from recv_counts; recv_buf is sized from both; recv_type is its type.
    assert ("recv_counts", "recv_displs") in pairs
    assert ("recv_buf", "recv_displs") in pairs
    assert ("recv_buf", "recv_type") in pairs
    all_cases = cases(binding, form)
    core = [_given(c) for c in all_cases if c["core"]]
    assert len(all_cases) == 2 ** len(form.inferable)
    assert len(core) < len(all_cases) // 4
    for p in form.inferable:
        assert any(p.name in g for g in core) and any(p.name not in g for g in core), p.name
    for a, b in pairs:
        states = {(a in g, b in g) for g in core}
        assert states == {(True, True), (True, False), (False, True), (False, False)}, (a, b)


def test_core_grows_linearly_over_the_whole_spec(repo_spec):
    total = core_total = 0
    for binding in repo_spec.bindings:
        for form in binding.forms:
            names = [p.name for p in form.inferable]
            givens = [g for g in subsets(names) if form.accepts(set(g))]
            core = core_givens(form, givens)
            # Greedy: at most one case per goal (each parameter twice, each pair four times).
            assert len(core) <= 2 + 2 * len(names) + 4 * len(linked_pairs(form)), binding.name
            total += len(givens)
            core_total += len(core)
    assert core_total * 4 < total  # today: 443 of 4,229


def test_core_respects_the_form_constraints(repo_spec):
    binding = binding_named(repo_spec, "cart_create")
    form = binding.regular
    core = [_given(c) for c in cases(binding, form) if c["core"]]
    assert core and all("ndims" in g or "dims" in g for g in core)


def test_call_docs_have_one_row_per_parameter(repo_spec):
    from generator.calltests import doc_view

    binding = binding_named(repo_spec, "allgatherv")
    form = doc_view(binding)["forms"][0]
    rows = {r["case"]: r["calls"] for r in form["rows"]}
    assert rows["everything given"] == "1 × `MPI_Allgatherv`"
    assert rows["`recv_counts` omitted"] == "+1 × `MPI_Allgather`"
    assert rows["`recv_displs` omitted"] == "no extra call"
    assert rows["everything omitted"] == "1 × `MPI_Allgather`, 1 × `MPI_Allgatherv`"
    assert len(form["rows"]) == len(form["inferable"]) + 2


def test_call_docs_say_how_to_get_a_returned_mpi_handle(repo_spec):
    """Issue 32, item 8: where a call returns what holds an MPI handle (a request, a
    communicator, a window, a file, a message), its page names mpi_handle() and the C type,
    from the data (parameters.yaml `mpi_handle`, the binding's variant); elsewhere no line."""
    from generator.calltests import doc_view

    def line(name):
        return doc_view(binding_named(repo_spec, name))["forms"][0]["raw_handles"]

    assert line("split") == "For C libraries, the `new_comm` it returns gives its `MPI_Comm` by `mpi_handle()`."
    assert line("file_open").endswith("the `new_file` it returns gives its `MPI_File` by `mpi_handle()`.")
    assert "`MPI_Win`" in line("win_allocate") and "`MPI_Message`" in line("mprobe")
    assert line("iallgatherv") == "For C libraries, the pending result's `mpi_handle()` is its `MPI_Request`."
    assert "`MPI_Request`" in line("idup") and "the `new_comm` that `wait()` returns gives its `MPI_Comm`" in line("idup")
    assert line("allgatherv_init") == "For C libraries, the persistent call's `mpi_handle()` is its `MPI_Request`."
    assert line("allgatherv") is None


def test_call_docs_show_an_example_and_what_the_call_returns(repo_spec):
    """Issue 18, item 4: each form's page shows the call the generated test compiles first
    (everything omitted that may be; compiled in every build) and the shape it returns."""
    from generator.calltests import doc_view

    page = doc_view(binding_named(repo_spec, "allgatherv"))
    form = page["forms"][0]
    assert form["example"] == "std::vector<int> data(rank + 1, rank);\nauto result = comm.allgatherv(send_buf(data));"
    assert form["returns"].startswith("`std::vector<T>` (T: the element type of `send_buf`), the `recv_buf` it creates")
    assert "`recv_counts_out()`" in form["returns"] and "`recv_buf_out()`" not in form["returns"]
    assert page["test_file"] == "allgatherv"
    # Several returned values: each one extracted, as the test does.
    shift = doc_view(binding_named(repo_spec, "cart_shift"))["forms"][0]
    assert shift["example"].endswith("auto returned = comm.cart_shift(direction(0));\n"
                                     "auto rank_source = returned.extract_rank_source();\n"
                                     "auto rank_dest = returned.extract_rank_dest();")
    assert shift["returns"].startswith("a `nampi::result` of rank_source, rank_dest")
    # Nonblocking and persistent variants say what wait() gives.
    assert doc_view(binding_named(repo_spec, "iallgatherv"))["forms"][0]["returns"].startswith(
        "a `nampi::nonblocking_result` that owns the buffers until `wait()`, which returns `std::vector<T>`")
    init = doc_view(binding_named(repo_spec, "allgatherv_init"))["forms"][0]
    assert init["example"].startswith("std::vector<int> data(rank + 1, rank);\nauto persistent = comm.allgatherv_init(")
    assert init["example"].endswith("persistent.start();\nauto result = persistent.wait();")
