"""Tests of the generator pipeline: spec errors (file:line, nothing written),
determinism, `check`, and unit tests of the bindings model.

Every test that changes a spec works on a copy of the repository's spec/,
templates/, .clang-format and generated/ in a temporary directory and runs the
generator with `--root <copy>`; the checkout itself is only read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from generator.__main__ import build, main  # noqa: E402
from generator.errors import SpecError, Where  # noqa: E402
from generator.model import FormParam, Parameter, Rule, RuleArg, RuleCall, order_rules, parse_rule_call  # noqa: E402
from generator.pipeline import load_spec  # noqa: E402
from conftest import group_calls  # noqa: E402

COLLECTIVES = "spec/bindings/collectives.yaml"
PARAMETERS = "spec/parameters.yaml"
COPIED = ("spec", "templates", "runtime", ".clang-format", "generated")


# --------------------------------------------------------------------------- helpers


def _copy_tree(src_root: Path, dst: Path) -> Path:
    dst.mkdir(parents=True)
    for name in COPIED:
        src = src_root / name
        if src.is_dir():
            shutil.copytree(src, dst / name)
        else:
            shutil.copy2(src, dst / name)
    return dst


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory) -> Path:
    """One copy of the checkout's spec/templates/generated per module, so that
    edits other people make meanwhile cannot change the spec between tests.
    The copy must generate cleanly, or the error tests below would prove nothing."""
    dst = _copy_tree(REPO, tmp_path_factory.mktemp("snapshot") / "repo")
    try:
        files = build(dst)
    except SpecError as err:
        pytest.fail(f"the checkout's spec does not generate, so spec error tests cannot run: {err}")
    # Its generated/ is what the copied spec generates, even while someone edits the checkout's
    # spec: tests that start from a freshly generated tree copy it instead of generating again.
    shutil.rmtree(dst / "generated")
    for relative, text in files.items():
        path = dst / "generated" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return dst


@pytest.fixture
def root(snapshot: Path, tmp_path: Path) -> Path:
    """A private copy of everything the generator reads and writes."""
    return _copy_tree(snapshot, tmp_path / "repo")


def run(args: list[str], capsys) -> tuple[int, str, str]:
    """Runs the generator CLI in-process; returns (exit code, stdout, stderr)."""
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def tree_hashes(directory: Path) -> dict[str, str]:
    """{relative path: sha256} of every file under directory."""
    return {
        p.relative_to(directory).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def tree_bytes(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def block_lines(text: str, binding: str) -> tuple[int, int]:
    """0-based [start, end) line range of a top-level binding in a bindings file."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line == f"{binding}:")
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^[A-Za-z_]", lines[i])), len(lines))
    return start, end


def find_line(text: str, binding: str, pattern: str) -> int:
    """1-based number of the first line of `binding`'s block matching regex `pattern`."""
    lines = text.splitlines()
    start, end = block_lines(text, binding)
    for i in range(start, end):
        if re.search(pattern, lines[i]):
            return i + 1
    raise AssertionError(f"no line matching {pattern!r} in binding {binding!r}")


def edit_line(path: Path, line: int, old: str, new: str) -> None:
    """Replaces `old` by `new` on 1-based `line` (which must contain it)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert old in lines[line - 1], (old, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_text("".join(lines), encoding="utf-8")


def insert_line(path: Path, after: int, text: str) -> None:
    """Inserts `text` (one line, no newline) after 1-based line `after`."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(after, text + "\n")
    path.write_text("".join(lines), encoding="utf-8")


def delete_line(path: Path, line: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[line - 1]
    path.write_text("".join(lines), encoding="utf-8")


def assert_spec_error(root: Path, capsys, file: str, line: int, *fragments: str) -> str:
    """`generate` fails with `file:line: ...` (containing every fragment) and
    leaves generated/ byte-identical."""
    out_dir = root / "generated"
    before = tree_hashes(out_dir)
    assert before, "the copied generated/ tree is empty"
    code, out, err = run(["generate", "--root", str(root)], capsys)
    assert code != 0, f"generate succeeded on a broken spec:\n{out}{err}"
    message = err.strip()
    assert message.startswith(f"{file}:{line}: "), f"expected '{file}:{line}: ...', got:\n{message}"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert tree_hashes(out_dir) == before, "generate changed generated/ although it failed"
    return message


# --------------------------------------------------------------------------- three corruptions


def test_unknown_rule_in_default(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^\s+recv_counts:.*allgather_counts\(")
    edit_line(path, line, "allgather_counts(", "allgathr_counts(")
    assert_spec_error(root, capsys, COLLECTIVES, line, "allgatherv.recv_counts", "unknown rule 'allgathr_counts'")


def test_rule_helper_the_runtime_does_not_define(root: Path, capsys):
    path = root / RULES
    line = rule_line(path.read_text(), "exclusive_scan", r"^\s+helper: ")
    edit_line(path, line, "nampi::infer::exclusive_scan", "nampi::infer::exclusive_scn")
    assert_spec_error(root, capsys, RULES, line, "exclusive_scan: helper 'nampi::infer::exclusive_scn'",
                      "is not defined in runtime/include/nampi/")


def test_grows_only_if_given_names_an_argument_of_its_rule(root: Path, capsys):
    path = root / RULES
    line = rule_line(path.read_text(), "size_count_except_root", r"^\s+grows_only_if_given: ")
    edit_line(path, line, "grows_only_if_given: count", "grows_only_if_given: root_count")
    assert_spec_error(root, capsys, RULES, line, "size_count_except_root: grows_only_if_given 'root_count'",
                      "is not one of its (non-literal) args")


def test_converter_the_runtime_does_not_define(root: Path, capsys):
    # The runtime renamed what `to_mpi: weights` names: the error points at the first parameter
    # converted that way.
    slot = root / "runtime/include/nampi/detail/slot.hpp"
    slot.write_text(slot.read_text().replace("to_mpi_weights(", "to_mpi_edge_weights("))
    text = (root / PARAMETERS).read_text()
    line = next(i + 1 for i, l in enumerate(text.splitlines()) if l.strip() == "to_mpi: weights")
    assert_spec_error(root, capsys, PARAMETERS, line, "to_mpi 'weights' needs nampi::detail::to_mpi_weights(slot)")


BACKENDS = "spec/backends.yaml"


def _backends_line(root: Path, entry: str) -> int:
    return next(i + 1 for i, l in enumerate((root / BACKENDS).read_text().splitlines()) if l.strip() == f"- {entry}")


def test_backend_function_the_runtime_does_not_implement(root: Path, capsys):
    # The range backend lists MPI_Scan, but runtime/include/nampi/detail/range/ lost its version.
    collectives = root / "runtime/include/nampi/detail/range/collectives.hpp"
    collectives.write_text(collectives.read_text().replace("struct range_backend<MPI_Scan>", "struct range_backend_scan"))
    line = _backends_line(root, "MPI_Scan")
    assert_spec_error(root, capsys, BACKENDS, line, "range: 'MPI_Scan' needs nampi::detail::range_backend<MPI_Scan>")


def test_backend_function_that_is_not_mpi(root: Path, capsys):
    path = root / BACKENDS
    line = _backends_line(root, "MPI_Iprobe")
    edit_line(path, line, "MPI_Iprobe", "MPI_Iprobe_all")
    assert_spec_error(root, capsys, BACKENDS, line, "range: 'MPI_Iprobe_all' is not an MPI function")


def test_backend_calls_follow_the_functions(snapshot: Path):
    """A call is a member of the range communicator exactly when the range backend provides its
    function and its rules' (allgatherv infers counts by MPI_Allgather; recv's probe and
    MPI_Get_count, which is local); every other form's check says which functions it lacks."""
    backends = (snapshot / "generated/include/nampi/generated/backends.hpp").read_text()
    has = set(re.findall(r"range_has<nampi::call::(\w+)> = true", backends))
    assert {"allgatherv", "recv", "sendrecv", "scan_in_place", "bcast_single", "iprobe"} <= has
    # The nonblocking forms of the same functions: the range backend runs them as coroutines.
    assert {"ibcast", "isend", "irecv", "iscan_in_place", "iallgatherv"} <= has
    assert not has & {"alltoall", "ialltoall", "bcast_init", "mprobe", "cart_create", "split"}
    header = re.sub(r'"\s+"', "", group_calls(snapshot / "generated", "collectives"))
    assert "nampi: alltoallv: not a call of nampi::RangeCommunicator (its backend lacks MPI_Alltoall, MPI_Alltoallv" in header
    assert "nampi: bcast: not a call of" not in header  # every backend has it: no check at all


def test_block_builder_the_runtime_does_not_define(root: Path, capsys):
    builders = root / "runtime/include/nampi/detail/large_count_alltoallw.hpp"
    builders.write_text(builders.read_text().replace("alltoallv_blocks(", "alltoallv_block_list("))
    line = find_line((root / COLLECTIVES).read_text(), "alltoallv", r"^\s+large_count_fallback: alltoallw")
    assert_spec_error(root, capsys, COLLECTIVES, line,
                      "alltoallv: large_count_fallback 'alltoallw' needs nampi::detail::alltoallv_blocks")


def test_in_place_forms_need_the_parameter_with_role_in_place(root: Path, capsys):
    # The trigger of the in-place forms is a spec field (parameters.yaml `role: in_place`), not
    # a name in Python: without it, the first binding with an in-place form says so.
    params = root / PARAMETERS
    params.write_text(params.read_text().replace("  role: in_place\n", "", 1))
    text = (root / COLLECTIVES).read_text()
    first = next(i for i, l in enumerate(text.splitlines()) if l.strip() == "in_place:")
    assert_spec_error(root, capsys, COLLECTIVES, first + 2, "no parameter has role 'in_place'")


def test_missing_required_field(root: Path, capsys):
    path = root / COLLECTIVES
    text = path.read_text()
    binding_line = block_lines(text, "allgatherv")[0] + 1
    delete_line(path, find_line(text, "allgatherv", r"^  mpi: "))
    # The binding lacks the field, so the error points at the binding's key. (Not a schema
    # `required`: a partitioned entry has `partitioned:` instead; the loader asks for one.)
    assert_spec_error(root, capsys, COLLECTIVES, binding_line, "allgatherv: needs 'mpi'", "or 'partitioned'")


@pytest.mark.parametrize(
    "pattern, closing",
    [
        (r"^  mpi_args: \[.*\]\s*$", "]"),  # flow sequence
        (r"^    send_count: \{.*\}\s*$", "}"),  # flow mapping
    ],
    ids=["bracket", "brace"],
)
def test_yaml_syntax_error_unclosed_bracket(root: Path, capsys, pattern: str, closing: str):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", pattern)
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].rstrip().removesuffix(closing) + "\n"  # drop the closing bracket
    path.write_text("".join(lines))
    # The line to fix is the one whose bracket is never closed; PyYAML notices
    # the problem only on a later line (for a brace, possibly many bindings later).
    assert_spec_error(root, capsys, COLLECTIVES, line, "YAML syntax error")


# --------------------------------------------------------------------------- more errors


def test_unknown_parameter(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^    send_buf: ")
    insert_line(path, line, "    send_bufer: {required: true}")
    assert_spec_error(root, capsys, COLLECTIVES, line + 1, "allgatherv", "unknown parameter 'send_bufer'")


def test_rule_argument_not_a_parameter(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^    recv_displs:.*exclusive_scan\(recv_counts\)")
    edit_line(path, line, "exclusive_scan(recv_counts)", "exclusive_scan(send_counts)")
    assert_spec_error(
        root, capsys, COLLECTIVES, line, "allgatherv.recv_displs", "rule argument 'send_counts' is not a parameter"
    )


def test_duplicate_key(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^    send_type: ")
    insert_line(path, line, "    send_type: {default: type_of(send_buf)}")
    assert_spec_error(root, capsys, COLLECTIVES, line + 1, "duplicate key 'send_type'")


def test_duplicate_binding_across_files(root: Path, capsys):
    text = (root / COLLECTIVES).read_text()
    start, end = block_lines(text, "allgatherv")
    block = "\n".join(text.splitlines()[start:end]) + "\n"
    # Sorted after collectives.yaml, so the copy there is the second definition.
    other = "spec/bindings/zz_duplicate.yaml"
    (root / other).write_text("# a second definition\n\n" + block)
    assert_spec_error(
        root, capsys, other, 3, "binding 'allgatherv' is already defined at", f"{COLLECTIVES}:{start + 1}"
    )


def test_mpi_args_length_mismatch(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^  mpi_args: \[.*, comm\]")
    edit_line(path, line, ", comm]", "]")
    assert_spec_error(root, capsys, COLLECTIVES, line, "MPI_Allgatherv takes 8 arguments, mpi_args lists 7")


def test_mpi_arg_not_a_parameter(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^  mpi_args: \[.*, comm\]")
    edit_line(path, line, ", comm]", ", communicator]")
    assert_spec_error(root, capsys, COLLECTIVES, line, "MPI argument 'communicator' is not a parameter")


def test_unknown_mpi_function(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^  mpi: MPI_Allgatherv\s*$")
    edit_line(path, line, "MPI_Allgatherv", "MPI_Allgatherw")
    assert_spec_error(root, capsys, COLLECTIVES, line, "'MPI_Allgatherw' is not in spec/mpi/")


def test_rule_arity_in_binding(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^    send_count:.*size_of\(send_buf\)")
    edit_line(path, line, "size_of(send_buf)", '"size_of(send_buf, send_type)"')
    assert_spec_error(root, capsys, COLLECTIVES, line, "rule 'size_of' takes 1 argument(s), got 2")


def test_error_from_the_command_line(root: Path):
    """The real CLI (a subprocess) prints file:line: and exits 1."""
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^    recv_counts:.*allgather_counts\(")
    edit_line(path, line, "allgather_counts(", "allgathr_counts(")
    before = tree_hashes(root / "generated")
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--root", str(root)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.startswith(f"{COLLECTIVES}:{line}: "), proc.stderr
    assert "unknown rule 'allgathr_counts'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert tree_hashes(root / "generated") == before


# --------------------------------------------------------------------------- determinism and check


def test_generate_is_deterministic(root: Path, tmp_path: Path, capsys):
    first, second = tmp_path / "out1", tmp_path / "out2"
    for out in (first, second):
        code, _, err = run(["generate", "--root", str(root), "--out", str(out)], capsys)
        assert code == 0, err
    a, b = tree_bytes(first), tree_bytes(second)
    assert a, "generate wrote nothing"
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name] == b[name], f"{name} differs between two runs"
    # No absolute paths (of the root or the output directory) leak into the output.
    for name, data in a.items():
        for leaked in (str(root), str(tmp_path), str(REPO)):
            assert leaked.encode() not in data, f"{name} contains {leaked}"


def test_generate_leaves_unchanged_files_untouched(root: Path, capsys):
    code, _, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, err
    mtimes = {p: p.stat().st_mtime_ns for p in (root / "generated").rglob("*") if p.is_file()}
    code, out, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, err
    assert ", 0 changed" in out, out
    assert {p: p.stat().st_mtime_ns for p in mtimes} == mtimes


def _generate_fresh(root: Path, capsys) -> Path:
    """root's generated/, which the snapshot wrote from the spec (no second generation: each
    costs seconds); test_check_passes_on_a_fresh_tree shows check accepts such a tree."""
    return root / "generated"


def test_check_passes_on_a_fresh_tree(root: Path, capsys):
    code, _, err = run(["check", "--root", str(root)], capsys)
    assert code == 0, f"check fails on a freshly generated tree:\n{err}"


def test_check_detects_a_hand_edit(root: Path, capsys):
    out_dir = _generate_fresh(root, capsys)
    victim = "include/nampi/generated/collectives/allgatherv.hpp"
    with (out_dir / victim).open("a", encoding="utf-8") as f:
        f.write("// edited by hand\n")
    code, _, err = run(["check", "--root", str(root)], capsys)
    assert code != 0
    assert victim in err, err


def test_check_detects_a_deleted_file(root: Path, capsys):
    out_dir = _generate_fresh(root, capsys)
    victim = "include/nampi/generated/parameters.hpp"
    (out_dir / victim).unlink()
    code, _, err = run(["check", "--root", str(root)], capsys)
    assert code != 0
    assert victim in err, err


def test_check_detects_a_stray_file(root: Path, capsys):
    out_dir = _generate_fresh(root, capsys)
    stray = "include/nampi/generated/stray.hpp"
    (out_dir / stray).write_text("// not generated\n")
    code, _, err = run(["check", "--root", str(root)], capsys)
    assert code != 0
    assert stray in err, err
    # generate removes it again.
    code, _, err = run(["generate", "--root", str(root)], capsys)
    assert code == 0, err
    assert not (out_dir / stray).exists()


def test_check_does_not_write(root: Path, capsys):
    out_dir = root / "generated"
    victim = out_dir / "include/nampi/generated/collectives/allgatherv.hpp"
    victim.write_text("// stale\n")
    before = tree_hashes(out_dir)
    code, _, _ = run(["check", "--root", str(root)], capsys)
    assert code != 0
    assert tree_hashes(out_dir) == before


def test_committed_generated_is_current(capsys):
    code, _, err = run(["check", "--root", str(REPO)], capsys)
    assert code == 0, f"generated/ is out of date, run `make generate`:\n{err}"


# --------------------------------------------------------------------------- model


@pytest.fixture(scope="module")
def spec():
    return load_spec(REPO)[0]


def _binding(spec, name):
    return next(b for b in spec.bindings if b.name == name)


def test_out_of_line_when_a_call_communicates_or_allocates(spec):
    from generator.cpp import out_of_line

    condition = out_of_line(_binding(spec, "alltoallv").regular)
    # recv_counts is computed by an MPI_Alltoall; the displacements and the receive buffer
    # are arrays the call creates when omitted.
    assert "computes<nampi::param_id::recv_counts," in condition
    assert "creates<nampi::param_id::recv_displs," in condition
    assert "creates<nampi::param_id::recv_buf," in condition
    assert "send_type" not in condition and "recv_type" not in condition
    # Nothing to compute that costs more than a few instructions: always inline.
    assert out_of_line(_binding(spec, "barrier").regular) is None
    assert out_of_line(_binding(spec, "send").regular) is None
    # recv without a count probes for it (MPI_Probe + MPI_Get_count).
    assert "computes<nampi::param_id::recv_count," in out_of_line(_binding(spec, "recv").regular)


def test_expected_calls_all_inferable_omitted(spec):
    form = _binding(spec, "allgatherv").regular
    computed = {p.name for p in form.inferable}
    assert "recv_counts" in computed
    assert form.expected_calls("MPI_Allgatherv", computed) == {"MPI_Allgather": 1, "MPI_Allgatherv": 1}


def test_expected_calls_recv_counts_given(spec):
    form = _binding(spec, "allgatherv").regular
    computed = {p.name for p in form.inferable} - {"recv_counts"}
    assert form.expected_calls("MPI_Allgatherv", computed) == {"MPI_Allgatherv": 1}


def test_expected_calls_everything_given(spec):
    form = _binding(spec, "allgatherv").regular
    assert form.expected_calls("MPI_Allgatherv", set()) == {"MPI_Allgatherv": 1}


def test_rule_order_puts_inputs_first(spec):
    form = _binding(spec, "allgatherv").regular
    order = _ordered_names(form.rule_order)
    for p in form.params:
        if p.default is None:
            continue
        for dep in p.default.param_args():
            if dep not in order:
                continue
            if p.default.rule.name == "type_of" and form.param(dep).default is None:
                continue  # reads the buffer's element type, which its resize rule does not change
            assert order.index(dep) < order.index(p.name), (dep, p.name, order)


def _rules() -> dict[str, Rule]:
    where = Where("spec/rules.yaml", 1)
    return {
        "same_as": Rule("same_as", "", "nampi::infer::same_as", (RuleArg("other", False),), {}, where),
        "constant": Rule("constant", "", "nampi::infer::constant", (RuleArg("value", True),), {}, where),
        "size_sum": Rule("size_sum", "", "nampi::infer::size_sum", (RuleArg("counts", False),), {}, where),
    }


def _param(name: str, line: int, default: RuleCall | None) -> FormParam:
    """An optional int parameter with a default rule (or none)."""
    p = Parameter(name, "", "value", False, "int", None, {"in": name}, Where("spec/parameters.yaml", 1))
    values = {
        "name": name,
        "param": p,
        "required": False,
        "required_at_root": False,
        "default": default,
        "resize": None,
        "returned_if_omitted": False,
        "storage": "int",
        "allocates": False,
        "policy": "no_resize",
        "where": Where("spec/bindings/x.yaml", line),
        "serialized_default": None,
        "one_value": False,
    }
    return FormParam(**{f.name: values[f.name] for f in dataclasses.fields(FormParam)})


def _ordered_names(order: list) -> list[str]:
    """Names in a rule order (entries are FormParams or (FormParam, RuleCall) pairs)."""
    return [(entry[0] if isinstance(entry, tuple) else entry).name for entry in order]


def test_order_rules_detects_a_cycle():
    rules = _rules()
    where = Where("spec/bindings/x.yaml", 1)
    a = _param("a", 3, parse_rule_call("same_as(b)", rules, where, "call.a"))
    b = _param("b", 4, parse_rule_call("same_as(c)", rules, where, "call.b"))
    c = _param("c", 5, parse_rule_call("same_as(a)", rules, where, "call.c"))
    with pytest.raises(SpecError) as info:
        order_rules([a, b, c], where, "call")
    assert "default rules form a cycle" in info.value.message
    assert info.value.where.file == "spec/bindings/x.yaml"
    assert info.value.where.line in (3, 4, 5)


def test_order_rules_sorts_dependencies_and_skips_literals():
    rules = _rules()
    where = Where("spec/bindings/x.yaml", 1)
    c = _param("c", 5, parse_rule_call("same_as(b)", rules, where, "call.c"))
    b = _param("b", 4, parse_rule_call("same_as(a)", rules, where, "call.b"))
    a = _param("a", 3, parse_rule_call("constant(42)", rules, where, "call.a"))
    given = _param("given", 6, None)
    assert _ordered_names(order_rules([c, given, b, a], where, "call")) == ["a", "b", "c"]


def test_parse_rule_call_arity_error():
    rules = _rules()
    where = Where("spec/bindings/x.yaml", 7)
    with pytest.raises(SpecError) as info:
        parse_rule_call("same_as(a, b)", rules, where, "call.x")
    assert info.value.where == where
    assert str(info.value) == "spec/bindings/x.yaml:7: call.x: rule 'same_as' takes 1 argument(s), got 2"
    with pytest.raises(SpecError, match=r"rule 'same_as' takes 1 argument\(s\), got 0"):
        parse_rule_call("same_as()", rules, where, "call.x")


def test_parse_rule_call_other_errors():
    rules = _rules()
    where = Where("spec/bindings/x.yaml", 7)
    with pytest.raises(SpecError, match="unknown rule 'sam_as'"):
        parse_rule_call("sam_as(a)", rules, where, "call.x")
    with pytest.raises(SpecError, match=r"expected rule\(args\)"):
        parse_rule_call("same_as", rules, where, "call.x")
    call = parse_rule_call(" size_sum( counts ) ", rules, where, "call.x")
    assert call.args == ("counts",) and call.param_args() == ["counts"] and call.text == "size_sum( counts )"
    assert parse_rule_call("constant(MPI_ANY_TAG)", rules, where, "x").param_args() == []


# --------------------------------------------------------------------------- rendered output


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    return build(REPO)


def test_allgatherv_header_checks_and_source_comment(built):
    header = group_calls(built, "collectives")
    # The tag lists what the form requires; the one generic check reads it (nampi/detail/check_call.hpp).
    tag = header.split("struct allgatherv : nampi::detail::tag_defaults {", 1)[1].split("};", 1)[0]
    assert "using required = nampi::detail::id_list<nampi::param_id::send_buf>;" in tag
    # A range call's tag is reported by a check of its own (spec/backends.yaml
    # tag_at_creation), so the generic check lets it pass.
    assert re.search(r"nampi::detail::check_call_but<nampi::call::allgatherv,\s*nampi::param_id::tag,\s*"
                     r"nampi::detail::tag_at_creation<Comm>,\s*Args...>\(\)", header)
    # No message per call and parameter for what the generic check reports.
    for message in ("missing required parameter", "given more than once", "must be a named parameter"):
        assert message not in header, message
    assert "// spec/bindings/collectives.yaml: allgatherv -> MPI_Allgatherv\n" in header


def test_every_parameter_has_a_check_and_a_doc_line(built, spec):
    """The Doxygen list, the list of parameters a call takes and the compile-time checks come
    from the same YAML lines; a parameter the call does not take is left out of its tag (the
    error names the tag and the parameter: nampi/detail/check_call.hpp)."""
    binding = _binding(spec, "allgatherv")
    header = group_calls(built, binding.group)
    accepted = {p.name for p in binding.regular.params}
    takes = set(re.findall(r"nampi::param_id::(\w+)", header.split("struct allgatherv : nampi::detail::tag_defaults {", 1)[1].split("};", 1)[0]))
    for name in spec.parameters:
        if name in accepted:
            assert f"/// @param {name} " in header, name
            assert name in takes, name
        else:
            assert name not in takes, name
            assert f"does not take parameter '{name}'" not in header, name


def test_every_generated_file_has_a_banner(built):
    for name, text in built.items():
        first = text.splitlines()[0]
        assert "content sha256:" in first and "make generate" in first, (name, first)


# --------------------------------------------------------------------------- topologies and neighbourhood collectives

TOPOLOGIES = "spec/bindings/topologies.yaml"
NEIGHBORHOOD = "spec/bindings/neighborhood.yaml"
RULES = "spec/rules.yaml"


def rule_line(text: str, rule: str, pattern: str) -> int:
    """1-based number of the first line of a rule's block in rules.yaml matching `pattern`."""
    return find_line(text, rule, pattern)


def test_fixture_comm_is_the_communicator_of_the_test(built):
    neighbor = built["tests/test_neighbor_allgather.cpp"]
    assert "auto comm = nampi_test::cart_ring();" in neighbor
    assert "nampi::Communicator comm;" not in neighbor
    # Without test.comm, the call runs on MPI_COMM_WORLD as before.
    plain = built["tests/test_allgather.cpp"]
    assert "nampi::Communicator comm;" in plain and "auto comm = nampi_test::" not in plain
    # allgather is a call of range communicators too: its cases on ranges run on world.range(...).
    # (each range with its own tag: two of them run at once)
    assert (
        "auto comm = world.range(first(shape.first), last(shape.last), stride(shape.stride), tag(shape.tag));"
        in " ".join(plain.split())
    )
    assert "world.range" not in neighbor


def test_topology_calls_follow_the_fixture_topology(spec):
    binding = _binding(spec, "neighbor_allgather")
    form = binding.regular
    computed = {p.name for p in form.inferable}
    base = {"MPI_Neighbor_allgather": 1, "MPI_Topo_test": 1}
    assert form.expected_calls("MPI_Neighbor_allgather", computed, "cart") == {**base, "MPI_Cartdim_get": 1}
    assert form.expected_calls("MPI_Neighbor_allgather", computed, "graph") == {
        **base, "MPI_Graph_neighbors_count": 1}
    assert form.expected_calls("MPI_Neighbor_allgather", computed, "dist_graph") == {
        **base, "MPI_Dist_graph_neighbors_count": 1}
    # Everything given: the call still asks its topology once, to check what it was given.
    assert form.expected_calls("MPI_Neighbor_allgather", set(), "cart", True, binding.topology_calls) == {
        **base, "MPI_Cartdim_get": 1}
    # neighbor_alltoall sizes the send count and the receive buffer: one query serves both.
    alltoall = _binding(spec, "neighbor_alltoall")
    assert alltoall.regular.expected_calls("MPI_Neighbor_alltoall", {"send_count", "recv_buf"}, "graph", True,
                                           alltoall.topology_calls) == {
        "MPI_Graph_neighbors_count": 1, "MPI_Neighbor_alltoall": 1, "MPI_Topo_test": 1}
    # The counts of allgatherv come from one neighbour allgather.
    allgatherv = _binding(spec, "neighbor_allgatherv").regular
    assert allgatherv.expected_calls("MPI_Neighbor_allgatherv", {p.name for p in allgatherv.inferable}, "dist_graph") == {
        "MPI_Dist_graph_neighbors_count": 1, "MPI_Neighbor_allgather": 1, "MPI_Neighbor_allgatherv": 1,
        "MPI_Topo_test": 1}
    # Only neighbourhood calls ask: a collective over ranks has no topology calls.
    assert _binding(spec, "allgather").topology_calls == {}


def test_generated_neighbor_test_counts_the_topology_calls(built):
    text = built["tests/test_neighbor_allgatherv.cpp"]
    # The fixture's communicator is a distributed graph: its neighbour count call is expected.
    assert '{"MPI_Dist_graph_neighbors_count", 1}' in text
    assert "MPI_Cartdim_get" not in text
    doc = built["docs/neighbor_allgatherv.md"]
    assert "On a communicator with a distributed graph topology" in doc


def test_new_communicator_adoption_is_counted(spec):
    form = _binding(spec, "cart_create").regular
    # Everything given: the MPI call, then the new communicator's rank and size, and nampi's own
    # context of it (MPI_Comm_dup, MPI_Comm_set_attr).
    own_context = {"MPI_Comm_dup": 1, "MPI_Comm_set_attr": 1}
    assert form.expected_calls("MPI_Cart_create", set()) == {
        "MPI_Cart_create": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, **own_context}
    assert form.expected_calls("MPI_Cart_create", {"dims", "periods", "reorder", "new_comm"}) == {
        "MPI_Cart_create": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Dims_create": 1, **own_context}


def test_a_nonblocking_call_starts_the_context_of_its_new_communicator_beside_it(spec):
    # idup starts a second MPI_Comm_idup for nampi's own context and waits for it in wait()
    # (nonblocking_mpi_calls): no blocking, collective MPI_Comm_dup inside wait().
    form = _binding(spec, "dup").regular
    assert form.expected_calls("MPI_Comm_idup", set(), blocking=False) == {
        "MPI_Comm_idup": 2, "MPI_Comm_rank": 1, "MPI_Comm_set_attr": 1, "MPI_Comm_size": 1, "MPI_Wait": 1}
    assert form.expected_calls("MPI_Comm_dup", set()) == {
        "MPI_Comm_dup": 2, "MPI_Comm_rank": 1, "MPI_Comm_set_attr": 1, "MPI_Comm_size": 1}


def test_a_given_count_turns_resize_to_fit_into_grow_only(spec, built):
    # bcast's receivers are resized to fit the root's size, unless the caller gives the count.
    bcast = _binding(spec, "bcast").regular.param("send_recv_buf")
    assert bcast.policy == "resize_to_fit" and bcast.grows_only_if_given() == "send_recv_count"
    # The rule has the field, but the binding's policy does not resize: nothing to turn.
    assert _binding(spec, "scatter").regular.param("recv_buf").grows_only_if_given() is None
    header = "".join(group_calls(built, "collectives").split())  # as clang-format breaks it or not
    assert "nampi::detail::policy_unless_given<nampi::resize_to_fit,nampi::param_id::send_recv_count,Args...>" in header


def test_either_cases_always_give_one_of_the_two(spec):
    from generator.calltests import cases, requested_back_case

    binding = _binding(spec, "cart_create")
    form = binding.regular
    assert form.either == ("ndims", "dims")
    names = [c["name"] for c in cases(binding, form)]
    assert len(names) == 2 ** len(form.inferable) - 2 ** (len(form.inferable) - 2)  # not both omitted
    for name in names:
        given = name.split("given {", 1)[1].split("}", 1)[0].split(", ")
        assert "ndims" in given or "dims" in given, name
    back = requested_back_case(binding, form)
    # dims is asked back, so ndims is given; the rest is omitted.
    assert back["args"] == "ndims(2), dims_out()"
    assert back["calls"] == {"MPI_Cart_create": 1, "MPI_Comm_dup": 1, "MPI_Comm_rank": 1, "MPI_Comm_set_attr": 1,
                             "MPI_Comm_size": 1, "MPI_Dims_create": 1}


def test_all_or_none_cases_give_both_weights_or_neither(spec):
    from generator.calltests import cases

    binding = _binding(spec, "dist_graph_create_adjacent")
    form = binding.regular
    assert form.all_or_none == ("source_weights", "dest_weights")
    all_cases = cases(binding, form)
    assert len(all_cases) == 2 ** (len(form.inferable) - 1)
    for case in all_cases:
        assert ("source_weights(" in case["args"]) == ("dest_weights(" in case["args"]), case["name"]


def test_either_and_all_or_none_compile_time_checks(spec, built):
    from generator.checks import checks

    cart = _binding(spec, "cart_create")
    either = [c for c in checks(cart, cart.regular) if "give 'ndims' or 'dims'" in (c["msg"] or "")]
    assert either == [
        {
            "cond": "!nampi::detail::all_named<Args...> || !nampi::detail::computes<nampi::param_id::ndims, Args...> || "
            "!nampi::detail::computes<nampi::param_id::dims, Args...>",
            "msg": "nampi: cart_create: give 'ndims' or 'dims' (each is computed from the other)",
        }
    ]
    adjacent = _binding(spec, "dist_graph_create_adjacent")
    weights = [c for c in checks(adjacent, adjacent.regular) if "together" in (c["msg"] or "")]
    assert weights == [
        {
            "cond": "nampi::detail::has_param<nampi::param_id::source_weights, Args...> == "
            "nampi::detail::has_param<nampi::param_id::dest_weights, Args...>",
            "msg": "nampi: dist_graph_create_adjacent: give 'source_weights', 'dest_weights' together, or none of them",
        }
    ]
    header = group_calls(built, "topologies")
    assert "nampi: cart_create: give 'ndims' or 'dims' (each is computed from the other)" in header


def test_missing_test_topology(root: Path, capsys):
    path = root / NEIGHBORHOOD
    text = path.read_text()
    delete_line(path, find_line(text, "neighbor_allgather", r"^    topology: cart$"))
    test_line = find_line(text, "neighbor_allgather", r"^  test:$")
    assert_spec_error(
        root, capsys, NEIGHBORHOOD, test_line, "neighbor_allgather: test.topology is needed",
        "rule 'size_count_per_in_neighbor' (of 'recv_buf')",
    )


def test_test_topology_needs_comm(root: Path, capsys):
    path = root / NEIGHBORHOOD
    text = path.read_text()
    delete_line(path, find_line(text, "neighbor_allgather", r"^    comm: "))
    test_line = find_line(text, "neighbor_allgather", r"^  test:$")
    assert_spec_error(root, capsys, NEIGHBORHOOD, test_line, "'comm' is a dependency of 'topology'")


def test_unknown_test_topology(root: Path, capsys):
    path = root / NEIGHBORHOOD
    line = find_line(path.read_text(), "neighbor_allgather", r"^    topology: cart$")
    edit_line(path, line, "cart", "torus")
    assert_spec_error(root, capsys, NEIGHBORHOOD, line, "topology: 'torus' is not one of")


def test_either_names_a_non_parameter(root: Path, capsys):
    path = root / TOPOLOGIES
    line = find_line(path.read_text(), "cart_create", r"^  either: \[ndims, dims\]$")
    edit_line(path, line, "dims]", "dimz]")
    assert_spec_error(root, capsys, TOPOLOGIES, line, "cart_create.either: 'dimz' is not a parameter of this call")


def test_without_either_the_defaults_form_a_cycle(root: Path, capsys):
    path = root / TOPOLOGIES
    text = path.read_text()
    delete_line(path, find_line(text, "cart_create", r"^  either: "))
    # The cycle is reported at ndims (visited first), one line up once `either` is gone.
    line = find_line(text, "cart_create", r"^    ndims: ") - 1
    assert_spec_error(root, capsys, TOPOLOGIES, line, "cart_create.ndims: default rules form a cycle")


def test_either_too_many_parameters(root: Path, capsys):
    path = root / TOPOLOGIES
    line = find_line(path.read_text(), "cart_create", r"^  either: \[ndims, dims\]$")
    edit_line(path, line, "dims]", "dims, periods]")
    assert_spec_error(root, capsys, TOPOLOGIES, line, "cart_create.either", "is too long")


def test_all_or_none_with_a_required_parameter(root: Path, capsys):
    path = root / TOPOLOGIES
    line = find_line(path.read_text(), "dist_graph_create_adjacent", r"^  all_or_none: ")
    edit_line(path, line, "[source_weights,", "[sources,")
    assert_spec_error(
        root, capsys, TOPOLOGIES, line, "dist_graph_create_adjacent.all_or_none: 'sources' is required"
    )


def test_topology_calls_lacking_a_topology(root: Path, capsys):
    path = root / RULES
    line = rule_line(path.read_text(), "size_of_per_out_neighbor", r"^  topology_calls: \*neighbor_counts$")
    edit_line(path, line, "*neighbor_counts", "{cart: {MPI_Cartdim_get: 1}, graph: {MPI_Graph_neighbors_count: 1}}")
    assert_spec_error(root, capsys, RULES, line, "size_of_per_out_neighbor.topology_calls", "'dist_graph' is a required property")


# --------------------------------------------------------------------------- large-count fallback


def test_large_count_fallback_must_be_known(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allreduce", r"^  large_count_fallback: chunks")
    edit_line(path, line, "chunks", "pieces")
    assert_spec_error(root, capsys, COLLECTIVES, line, "large_count_fallback")


def test_chunks_fallback_only_in_the_blocking_reduction(snapshot: Path):
    """`large_count_fallback: chunks` gives the blocking allreduce the int function on chunks
    where the MPI lacks MPI_Allreduce_c; the nonblocking and persistent ones, one request each,
    a derived datatype and a wrapper op that their result keeps in its emulation slot."""
    header = group_calls(snapshot / "generated", "collectives")
    chunked = re.findall(r'in_chunks\([^;]*?"(MPI_\w+)"', header, re.S)
    assert sorted(set(chunked)) == ["MPI_Allreduce", "MPI_Exscan", "MPI_Reduce", "MPI_Scan"]
    wrapped = re.findall(r'large_reduction[^;]*;\s*nampi::detail::call_mpi<(MPI_\w+)>\(\s*ctx,', header)
    assert sorted(set(wrapped)) == sorted(
        [f"MPI_I{f}" for f in ("allreduce", "exscan", "reduce", "reduce_scatter_block", "scan")]
        + [f"MPI_{f}_init" for f in ("Allreduce", "Exscan", "Reduce", "Reduce_scatter_block", "Scan")]
        + ["MPI_Reduce_scatter_block"]
    )
    dense = re.sub(r"\s+", "", header)  # as clang-format may break it
    assert "emulation_slot<!provided::have_MPI_Iallreduce_c,nampi::detail::large_reduction>{}" in dense
    assert 'large_count_unsupported("iallreduce",' not in header
    assert 'large_count_unsupported("allreduce",' not in header


def test_alltoallw_fallback_for_counts_arrays(snapshot: Path):
    """`large_count_fallback: alltoallw`: without the twin, MPI_Count arrays build the blocks of
    the call and issue them in every form; a large count beside int arrays stays a usage_error."""
    header = group_calls(snapshot / "generated", "collectives")
    built = re.findall(r"nampi::detail::(\w+)_blocks\(\s*ctx,", header)
    assert sorted(set(built)) == ["allgatherv", "alltoallv", "alltoallw", "gatherv", "scatterv"]
    assert len(built) == 3 * 5  # blocking, nonblocking, persistent
    assert "counts or displacements given as MPI_Count or MPI_Aint need MPI_Gatherv_c" not in header
    dense = re.sub(r"\s+", "", header)  # as clang-format may break it
    assert "emulation_slot<!provided::have_MPI_Igatherv_c,nampi::detail::block_exchange>{}" in dense
    assert 'large_count_unsupported("allgatherv","MPI_Allgatherv_c","send_count",' in dense


# --------------------------------------------------------------------------- serialized buffers


def test_serialized_per_rank_must_be_serialized(root: Path, capsys):
    path = root / COLLECTIVES
    text = path.read_text()
    edit_line(path, find_line(text, "scatterv", r"^  serialized: "), "[send_buf, recv_buf]", "[recv_buf]")
    line = find_line(text, "scatterv", r"^  serialized_per_rank: ")
    assert_spec_error(root, capsys, COLLECTIVES, line, "scatterv.serialized_per_rank: 'send_buf' is not in serialized")


def test_serialized_default_reads_only_what_is_there_before_it(root: Path, capsys):
    """A serialized_default runs where the default would: what it reads must be given or
    computed before (read by the default too)."""
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "scatterv", r"^    send_counts: .*serialized_default")
    edit_line(path, line, '\\"send_buf\\", root)', '\\"send_buf\\", send_type)')
    assert_spec_error(
        root, capsys, COLLECTIVES, line, "scatterv.send_counts: serialized_default reads 'send_type'"
    )


def test_serialized_per_rank_checks_and_rules(spec):
    """scatterv and alltoallv: a serialized send_buf must be a range; its byte counts are
    computed (instead of being required) and may not be given; persistent forms refuse it with
    one message."""
    from generator.checks import checks, tag_view
    from generator.shapes import call_body as body

    scatterv = _binding(spec, "scatterv")
    msgs = {c["msg"]: c["cond"] for c in checks(scatterv, scatterv.regular)}
    assert msgs["nampi: scatterv: a serialized 'send_buf' must be a range with one value per rank (value i goes to rank i)"] == (
        "nampi::detail::serialized_range<nampi::param_id::send_buf, Args...>()"
    )
    # Which buffers may be serialized, and what they compute, are the tag's data, which the
    # generic check reads (nampi/detail/check_call.hpp): no message of the call's own.
    assert not any("computed from the serialized buffer" in (m or "") or "may be serialized" in (m or "") for m in msgs)
    tag = tag_view(scatterv, scatterv.regular)
    assert tag["serialized"] == "nampi::detail::serialized_buffers::listed"
    assert tag["serializable"] == [f"nampi::param_id::{n}" for n in scatterv.serialized] and "send_buf" in scatterv.serialized
    assert tag["computed_from_serialized"] == [
        "nampi::param_id::send_counts", "nampi::param_id::send_displs", "nampi::param_id::send_type",
        "nampi::param_id::recv_count", "nampi::param_id::recv_type",
    ]
    assert msgs[
        "nampi: scatterv: with a serialized buffer, 'send_buf' must be serialized too (as_serialized(values); off the root an empty range will do)"
    ] == (
        "!nampi::detail::has_param<nampi::param_id::send_buf, Args...> || !nampi::detail::any_serialized<Args...> || "
        "nampi::detail::is_serialized<nampi::param_id::send_buf, Args...>()"
    )
    rules = body(scatterv, scatterv.regular)["rules"]
    assert (
        "if constexpr (decltype(send_counts)::computed) { if constexpr (nampi::detail::any_serialized<std::remove_cvref_t<Args>...>) "
        'nampi::infer::serialized_counts_at_root(send_counts, ctx, send_buf, "send_buf", root); '
        "else nampi::infer::required_at_root(send_counts, ctx, root); }"
    ) in rules
    slots = body(scatterv, scatterv.regular)["slots"]
    assert slots[0].startswith("auto send_buf = nampi::detail::slot_for<nampi::param_id::send_buf, nampi::detail::serialized_per_rank,")

    alltoallv = _binding(spec, "alltoallv")
    # Required, unless a serialized buffer computes it: the tag says so (nampi/detail/check_call.hpp).
    tag = tag_view(alltoallv, alltoallv.regular)
    assert "nampi::param_id::send_counts" in tag["required"]
    assert "nampi::param_id::send_counts" in tag["computed_when_serialized"]
    # Without a default, the serialized rule runs first (after the length checks of given arrays).
    assert [r for r in body(alltoallv, alltoallv.regular)["rules"] if "check_length" not in r][0].startswith(
        "if constexpr (decltype(send_counts)::computed) { if constexpr (nampi::detail::any_serialized"
    )
    persistent = _binding(spec, "alltoallv_init")
    assert persistent.serialized == () and persistent.serialized_per_rank == ()
    assert tag_view(persistent, persistent.regular)["serialized"] == "nampi::detail::serialized_buffers::none_persistent"
    assert tag_view(persistent, persistent.regular)["serializable"] == []
    assert not any("serialized" in (c["msg"] or "") for c in checks(persistent, persistent.regular))
    send = _binding(spec, "rsend")  # takes none yet
    assert tag_view(send, send.regular)["serialized"] == "nampi::detail::serialized_buffers::none_yet"
    # Blocking and nonblocking scatter and alltoall hand serialized buffers to the v forms.
    assert [_binding(spec, n).serialized_via for n in ("scatter", "iscatter", "alltoall", "ialltoall")] == [
        "scatterv", "iscatterv", "alltoallv", "ialltoallv"
    ]


# --------------------------------------------------------------------------- parameter values


def test_every_checked_factory_names_its_parameter(built, spec):
    """A parameter with `takes` gets one static_assert per way its value can be wrong, each
    naming the factory; parameters without it are not checked by their factory."""
    header = built["include/nampi/generated/parameters.hpp"]
    for p in spec.parameters.values():
        name = p.factories.get("in")
        if name is None:
            continue
        if p.takes is None:
            assert f'"nampi: {name}: ' not in header, name
            continue
        assert f'"nampi: {name}: ' in header, name
    assert '"nampi: dest: expects an integer, got a floating-point value' in header
    assert '"nampi: send_counts: expects an array' in header
    assert '"nampi: op: an integer is not an MPI_Op' in header
    # Arrays also take a braced list; single values do not.
    assert "auto send_buf(std::initializer_list<E> values)" in header
    assert "auto send_counts(std::initializer_list<E> values)" in header
    assert "auto dest(std::initializer_list" not in header


def test_unknown_takes_is_a_schema_error(root: Path, capsys):
    path = root / "spec" / "parameters.yaml"
    text = path.read_text()
    line = find_line(text, "dest", r"^  takes: integer")
    edit_line(path, line, "takes: integer", "takes: rank")
    assert_spec_error(root, capsys, "spec/parameters.yaml", line, "takes")


def test_misuse_cases_give_counts_and_displacements_one_past_the_send_buffer(spec):
    from generator.misuse import given_one_past

    def cases(name):
        binding = _binding(spec, name)
        return [c for form in binding.forms for c in given_one_past(binding, form)]

    # A per-rank count reaches past the buffer once multiplied by the ranks.
    (alltoall,) = cases("alltoall")
    assert "send_count(nampi_misuse::one_past(" in alltoall["misuse"] and ", size))" in alltoall["misuse"]
    assert alltoall["message"] == "but 'send_buf' holds"
    # A buffer read in blocks: one rank's block moved past the end.
    displs = [c for c in cases("alltoallv_init") if "send_displs" in c["name"]]
    assert displs and "nampi_misuse::displs_one_past(" in displs[0]["misuse"]
    # At the root only: one rank, which no peer waits for.
    assert all(c["one_rank"] for c in cases("scatter"))
    # Not where some ranks receive into the buffer (bcast sizes it there), nor where a peer in
    # plain MPI would wait for a rank that threw (send's fixture).
    assert cases("bcast") == [] and cases("send") == []


def test_rule_helper_in_another_namespace(root: Path, capsys):
    # nampi::detail exists and nampi::infer defines exclusive_scan: neither is the helper named.
    path = root / RULES
    line = rule_line(path.read_text(), "exclusive_scan", r"^\s+helper: ")
    edit_line(path, line, "nampi::infer::exclusive_scan", "nampi::detail::exclusive_scan")
    assert_spec_error(root, capsys, RULES, line, "exclusive_scan: helper 'nampi::detail::exclusive_scan'",
                      "is not defined in runtime/include/nampi/")


def test_a_name_twice_in_mpi_args_for_arguments_of_different_kinds(root: Path, capsys):
    # The counts passed as the displacements too.
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^\s+mpi_args: ")
    edit_line(path, line, "recv_counts, recv_displs,", "recv_counts, recv_counts,")
    assert_spec_error(root, capsys, COLLECTIVES, line, "allgatherv: 'recv_counts' is in mpi_args twice, as arguments 5 and 6",
                      "MPI_Allgatherv's recvcounts and displs differ in kind")


def test_a_declared_parameter_nothing_uses(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "allgatherv", r"^\s+send_buf: \{required: true\}")
    insert_line(path, line, "    status: {}")
    assert_spec_error(root, capsys, COLLECTIVES, line + 1,
                      "allgatherv: parameter 'status' is declared but no MPI argument and no rule uses it")
