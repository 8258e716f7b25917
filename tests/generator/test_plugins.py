"""spec/plugins/<name>.yaml: a plugin's parameters and calls become a generated header of their
own (factories, ids, call tags, checks) like the core's; a broken plugin spec fails at its line
and leaves generated/ untouched; a plugin changes no core file."""

from __future__ import annotations

from pathlib import Path

from test_pipeline import assert_spec_error, edit_line, root, run, snapshot, tree_hashes  # noqa: F401

SPARSE = "spec/plugins/sparse_alltoall.yaml"


def _line(root: Path, rel: str, text: str) -> int:
    lines = (root / rel).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_plugin_header_has_factories_and_checks(snapshot: Path):
    header = (snapshot / "generated/include/nampi/generated/plugins/sparse_alltoall.hpp").read_text()
    assert "enum class sparse_alltoall_params {" in header
    assert "constexpr auto sparse_send_buf(T&& value)" in header  # a factory in nampi::params
    assert "struct alltoallv_sparse_check {" in header
    tag = header.split("struct alltoallv_sparse : nampi::detail::tag_defaults {", 1)[1].split("};", 1)[0]
    assert "using required = nampi::detail::id_list<nampi::plugins::sparse_alltoall_params::sparse_send_buf>;" in tag
    assert "nampi::detail::check_call<nampi::call::alltoallv_sparse, Args...>()" in header
    # reproducible_reduce takes only core parameters: no enum entries, its checks name them.
    rr = (snapshot / "generated/include/nampi/generated/plugins/reproducible_reduce.hpp").read_text()
    assert "nampi::param_id::send_buf, nampi::param_id::op" in " ".join(rr.split())


def test_plugin_parameter_clashing_with_a_core_one(root: Path, capsys):
    line = _line(root, SPARSE, "  on_message:")
    edit_line(root / SPARSE, line, "on_message:", "send_buf:")
    assert_spec_error(root, capsys, SPARSE, line, "parameter 'send_buf' is declared in spec/parameters.yaml already")


def test_plugin_factory_clashing_with_a_core_one(root: Path, capsys):
    line = _line(root, SPARSE, "factories: {in: on_message}")
    edit_line(root / SPARSE, line, "{in: on_message}", "{in: recv_buf}")
    assert_spec_error(root, capsys, SPARSE, _line(root, SPARSE, "  on_message:"), "factory name 'recv_buf'")


def test_plugin_call_with_an_unknown_parameter(root: Path, capsys):
    line = _line(root, SPARSE, "      on_message: {doc:")
    edit_line(root / SPARSE, line, "on_message: {doc:", "on_mesage: {doc:")
    assert_spec_error(root, capsys, SPARSE, line, "alltoallv_sparse: unknown parameter 'on_mesage'")


def test_plugin_call_named_like_a_core_call(root: Path, capsys):
    line = _line(root, SPARSE, "  alltoallv_sparse:")
    edit_line(root / SPARSE, line, "alltoallv_sparse:", "alltoallv:")
    assert_spec_error(root, capsys, SPARSE, line, "call 'alltoallv' is a core call")


def test_plugin_schema_error_names_the_line(root: Path, capsys):
    line = _line(root, SPARSE, "sparse_send_buf: {required: true}")
    edit_line(root / SPARSE, line, "{required: true}", "{required: yes please}")
    assert_spec_error(root, capsys, SPARSE, line, "not of type 'boolean'")


def test_a_new_plugin_changes_no_core_file(root: Path, capsys):
    """Provenance: adding a plugin writes its own header and page, and the call index lists it."""
    before = tree_hashes(root / "generated")
    (root / "spec/plugins/hello.yaml").write_text(
        "doc: A test plugin.\n"
        "parameters:\n"
        "  greeting_text: {doc: What to say., factories: {in: greeting_text}}\n"
        "calls:\n"
        "  say_hello:\n"
        "    doc: Says hello.\n"
        "    params: {greeting_text: {required: true}, root: {}}\n"
    )
    code, out, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, err
    after = tree_hashes(root / "generated")
    changed = {p for p in after if before.get(p) != after[p]}
    assert changed == {"include/nampi/generated/plugins/hello.hpp", "docs/plugins/hello.md", "docs/calls.md"}
    page = (root / "generated/docs/plugins/hello.md").read_text()
    assert "## `say_hello(...)`" in page
    assert "| `greeting_text` | `greeting_text()` | What to say. | required |" in page
    header = (root / "generated/include/nampi/generated/plugins/hello.hpp").read_text()
    assert "using required = nampi::detail::id_list<nampi::plugins::hello_params::greeting_text>;" in header


def test_plugin_member_named_like_a_core_call(root: Path, capsys):
    """`member:` lets a plugin's member share a core call's name (a grid communicator's
    alltoallv): the key stays unique for the call tag and check, the messages say the member."""
    before = tree_hashes(root / "generated")
    (root / "spec/plugins/hello.yaml").write_text(
        "doc: A test plugin.\n"
        "calls:\n"
        "  hello_bcast:\n"
        "    member: bcast\n"
        "    member_of: hello communicator\n"
        "    doc: Says hello.\n"
        "    params: {send_buf: {required: true}}\n"
    )
    code, out, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, err
    after = tree_hashes(root / "generated")
    assert {p for p in after if before.get(p) != after[p]} == {
        "include/nampi/generated/plugins/hello.hpp",
        "docs/plugins/hello.md",
        "docs/calls.md",
    }
    assert "## `bcast(...)` of the hello communicator" in (root / "generated/docs/plugins/hello.md").read_text()
    header = (root / "generated/include/nampi/generated/plugins/hello.hpp").read_text()
    assert "struct hello_bcast : nampi::detail::tag_defaults {" in header and "struct hello_bcast_check {" in header
    assert "using required = nampi::detail::id_list<nampi::param_id::send_buf>;" in header
    assert "nampi::call::hello_bcast, Args...>" in header


def test_plugin_member_of_without_member(root: Path, capsys):
    rel = "spec/plugins/hello.yaml"
    (root / rel).write_text(
        "doc: A test plugin.\n"
        "calls:\n"
        "  hello_bcast:\n"
        "    member_of: hello communicator\n"
        "    doc: Says hello.\n"
        "    params: {send_buf: {required: true}}\n"
    )
    assert_spec_error(root, capsys, rel, 3, "'member' is a dependency of 'member_of'")
