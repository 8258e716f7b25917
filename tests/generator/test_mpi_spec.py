"""Tests of spec/mpi/: loading, errors with file:line, the importer, spec-check, the PMPI counter."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.errors import SpecError  # noqa: E402
from generator.__main__ import main  # noqa: E402
from generator.forum import CHAPTERS, ForumData, chapter_of, entry_of  # noqa: E402
from generator.import_mpi import dump_chapter, import_functions, import_standard  # noqa: E402
from generator.mpi_spec import all_c_functions, c_declaration, load_mpi_callbacks, load_mpi_entries, load_mpi_spec  # noqa: E402
from generator.pmpi import pmpi_plan, render_pmpi  # noqa: E402
from generator.render import make_environment  # noqa: E402
from generator.spec_check import spec_check  # noqa: E402

SPEC = ROOT / "spec"

# The functions the bindings or the runtime use (the first import's scope).
SCOPE = """
MPI_Send MPI_Ssend MPI_Bsend MPI_Rsend MPI_Recv MPI_Probe MPI_Iprobe MPI_Get_count MPI_Sendrecv
MPI_Sendrecv_replace MPI_Barrier MPI_Bcast MPI_Gather MPI_Gatherv MPI_Scatter MPI_Scatterv
MPI_Allgather MPI_Allgatherv MPI_Alltoall MPI_Alltoallv MPI_Alltoallw MPI_Reduce MPI_Allreduce
MPI_Reduce_scatter MPI_Reduce_scatter_block MPI_Scan MPI_Exscan
MPI_Init MPI_Init_thread MPI_Finalize MPI_Initialized MPI_Finalized MPI_Query_thread MPI_Abort
MPI_Comm_rank MPI_Comm_size MPI_Comm_set_errhandler MPI_Comm_dup MPI_Comm_free MPI_Error_string
MPI_Error_class MPI_Type_contiguous MPI_Type_commit MPI_Type_free MPI_Type_size MPI_Op_create
MPI_Op_free MPI_Buffer_attach MPI_Buffer_detach
""".split()


@pytest.fixture(scope="module")
def forum() -> ForumData:
    return ForumData()


@pytest.fixture(scope="module")
def spec():
    return load_mpi_spec(SPEC, ROOT)


@pytest.fixture
def tmp_spec(tmp_path: Path) -> Path:
    """An empty spec/ (schema only) under tmp_path; display names are relative to tmp_path."""
    (tmp_path / "spec" / "schema").mkdir(parents=True)
    (tmp_path / "spec" / "mpi").mkdir()
    shutil.copy(SPEC / "schema" / "mpi.schema.json", tmp_path / "spec" / "schema")
    shutil.copy(SPEC / "mpi" / "chapters.yaml", tmp_path / "spec" / "mpi")  # where new entries go
    return tmp_path / "spec"


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    """A copy of the committed spec/mpi (deviations.yaml included) + schema."""
    target = tmp_path / "spec"
    shutil.copytree(SPEC / "schema", target / "schema")
    shutil.copytree(SPEC / "mpi", target / "mpi")
    return target


def write(spec_dir: Path, name: str, text: str) -> None:
    (spec_dir / "mpi" / name).write_text(text, encoding="utf-8")


def load_error(spec_dir: Path) -> str:
    with pytest.raises(SpecError) as info:
        load_mpi_spec(spec_dir, spec_dir.parent)
    return str(info.value)


GOOD_SEND = """\
MPI_Send:
  introduced: "1.0"
  params:
    - {name: buf, kind: BUFFER, c_type: "const void *", dir: in}
    - {name: count, kind: POLYXFER_NUM_ELEM_NNI, c_type: "int", dir: in}
  large_count:
    introduced: "4.0"
    params:
      count: "MPI_Count"
"""


# --- loading --------------------------------------------------------------------------------------


def test_committed_spec_has_the_whole_standard(spec, forum):
    assert list(spec) == forum.names() and len(spec) == 531
    assert set(SCOPE) <= set(spec)
    callbacks = load_mpi_callbacks(SPEC, ROOT)
    assert list(callbacks) == forum.callback_names()
    assert sum(f.callback for f in callbacks.values()) == 21 and sum(bool(f.implements) for f in callbacks.values()) == 13
    assert callbacks["MPI_COMM_DUP_FN"].implements == "MPI_Comm_copy_attr_function"
    assert callbacks["MPI_User_function"].twin().name == "MPI_User_function_c"
    assert callbacks["MPI_CONVERSION_FN_NULL"].large_count == "MPI_CONVERSION_FN_NULL_C"
    assert {f.chapter for f in callbacks.values()} == {"callbacks"}
    assert "callbacks" not in {f.chapter for f in spec.values()}


def test_model_of_allgatherv(spec):
    f = spec["MPI_Allgatherv"]
    assert f.chapter == "collectives"
    assert f.where.file == "spec/mpi/collectives.yaml" and f.where.line > 1
    assert f.introduced == "1.0" and f.return_type == "int" and f.deprecated is None
    assert [p.name for p in f.params] == ["sendbuf", "sendcount", "sendtype", "recvbuf", "recvcounts", "displs", "recvtype", "comm"]
    recvcounts = f.params[4]
    assert (recvcounts.kind, recvcounts.c_type, recvcounts.direction, recvcounts.length) == (
        "POLYXFER_NUM_ELEM_NNI", "const int []", "in", "*")
    assert recvcounts.declaration == "const int recvcounts[]"
    assert f.params[0].declaration == "const void *sendbuf"
    assert f.large_count == "MPI_Allgatherv_c"
    twin = f.twin()
    assert twin.name == "MPI_Allgatherv_c" and twin.base == "MPI_Allgatherv" and twin.introduced == "4.0"
    assert [p.c_type for p in twin.params] == [
        "const void *", "MPI_Count", "MPI_Datatype", "void *", "const MPI_Count []", "const MPI_Aint []", "MPI_Datatype", "MPI_Comm"]


def test_curated_versions(spec):
    introduced = {
        "MPI_Send": "1.0", "MPI_Get_version": "1.2", "MPI_Alltoallw": "2.0", "MPI_Init_thread": "2.0",
        "MPI_Win_create": "2.0", "MPI_File_open": "2.0", "MPI_Comm_spawn": "2.0", "MPI_Reduce_scatter_block": "2.2",
        "MPI_Dist_graph_create": "2.2", "MPI_Ineighbor_alltoallw": "3.0", "MPI_T_init_thread": "3.0",
        "MPI_Ibcast": "3.0", "MPI_Comm_split_type": "3.0", "MPI_Mprobe": "3.0", "MPI_Aint_add": "3.1",
        "MPI_Session_init": "4.0", "MPI_Psend_init": "4.0", "MPI_Allreduce_init": "4.0", "MPI_Isendrecv": "4.0",
        "MPI_Get_hw_resource_info": "4.1", "MPI_Comm_attach_buffer": "4.1", "MPI_Abi_get_version": "5.0",
        "MPI_Comm_toint": "5.0",
    }
    assert {name: spec[name].introduced for name in introduced} == introduced
    deprecated = {name: f.deprecated for name, f in spec.items() if f.deprecated}
    assert deprecated["MPI_Info_get"] == deprecated["MPI_Info_get_valuelen"] == "4.0"
    assert deprecated["MPI_Attr_get"] == deprecated["MPI_Keyval_create"] == "2.0"
    assert deprecated["MPI_Type_size_x"] == "4.1" and len(deprecated) == 12
    assert spec["MPI_Barrier"].large_count is None
    assert spec["MPI_Probe"].large_count is None
    twins = [f for f in all_c_functions(spec) if f.base]
    assert len(twins) == 159
    assert all(f.introduced in ("4.0", "4.1") for f in twins)
    assert spec["MPI_Comm_attach_buffer"].twin().introduced == "4.1"


@pytest.mark.parametrize(
    "c_type, declaration",
    [("int", "int x"), ("const void *", "const void *x"), ("char ***", "char ***x"),
     ("char **[]", "char **x[]"), ("int [][3]", "int x[][3]"), ("const MPI_Count []", "const MPI_Count x[]"),
     ("...", "...")],
)
def test_c_declaration(c_type, declaration):
    assert c_declaration(c_type, "x") == declaration


def test_missing_field_is_reported_with_file_and_line(tmp_spec):
    write(tmp_spec, "pt2pt.yaml", "# comment\nMPI_Send:\n  params: []\n")
    message = load_error(tmp_spec)
    assert message.startswith("spec/mpi/pt2pt.yaml:2: ")
    assert "'introduced' is a required property" in message


def test_wrong_type_is_reported_at_the_parameter(tmp_spec):
    text = GOOD_SEND.replace('c_type: "int"', "c_type: 4")
    write(tmp_spec, "pt2pt.yaml", text)
    message = load_error(tmp_spec)
    assert message.startswith("spec/mpi/pt2pt.yaml:5: ")  # the `count` parameter's line
    assert "params.1.c_type" in message and "is not of type 'string'" in message


def test_bad_version_and_unknown_key(tmp_spec):
    write(tmp_spec, "a.yaml", GOOD_SEND.replace('introduced: "1.0"', "introduced: 1.0"))
    assert load_error(tmp_spec).startswith("spec/mpi/a.yaml:2: MPI_Send.introduced: 1.0 is not of type 'string'")
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("  params:\n", "  colour: red\n  params:\n", 1))
    message = load_error(tmp_spec)
    assert message.startswith("spec/mpi/a.yaml:1: ") and "'colour' was unexpected" in message


def test_yaml_syntax_error_has_file_and_line(tmp_spec):
    write(tmp_spec, "pt2pt.yaml", 'MPI_Send:\n  introduced: "1.0"\n  params: [\n    - {name: buf\n')
    message = load_error(tmp_spec)
    assert message.startswith("spec/mpi/pt2pt.yaml:") and "YAML syntax error" in message
    assert int(message.split(":")[1]) >= 3


def test_semantic_errors(tmp_spec):
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("      count:", "      cuont:"))
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:9: MPI_Send.large_count.params: unknown parameter 'cuont'"
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("{name: count", "{name: buf"))
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:5: MPI_Send: duplicate parameter 'buf'"
    write(tmp_spec, "a.yaml", GOOD_SEND.replace('introduced: "1.0"', 'introduced: "1.0"\n  deprecated: "1.0"'))
    assert "is not after introduced" in load_error(tmp_spec)
    write(tmp_spec, "a.yaml", GOOD_SEND.replace('introduced: "1.0"', 'introduced: "4.1"'))
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:7: MPI_Send.large_count.introduced: 4.0 is before the function's 4.1"


def test_function_defined_twice(tmp_spec):
    write(tmp_spec, "a.yaml", GOOD_SEND)
    write(tmp_spec, "b.yaml", "\n" + GOOD_SEND)
    assert load_error(tmp_spec) == "spec/mpi/b.yaml:2: MPI_Send is already defined at spec/mpi/a.yaml:1"


def test_twin_may_not_be_an_entry_of_its_own(tmp_spec):
    twin = GOOD_SEND.replace("MPI_Send:", "MPI_Send_c:").split("  large_count:")[0]
    write(tmp_spec, "a.yaml", GOOD_SEND + "\n" + twin)
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:11: MPI_Send_c is already defined at spec/mpi/a.yaml:1"


def test_deviations_and_chapters_files_are_not_chapters(tmp_spec):
    write(tmp_spec, "a.yaml", GOOD_SEND)
    write(tmp_spec, "deviations.yaml", 'MPI_Send.params.buf.c_type: "a reason, not a function entry"\n')
    assert list(load_mpi_spec(tmp_spec, tmp_spec.parent)) == ["MPI_Send"]


def test_callback_and_implementation_errors(tmp_spec):
    predefined = '\nMPI_SEND_FN:\n  implements: MPI_Send\n  introduced: "1.0"\n  params: []\n'
    write(tmp_spec, "a.yaml", GOOD_SEND + predefined)
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:11: MPI_SEND_FN.implements: 'MPI_Send' is not a callback typedef of the spec"
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("MPI_Send:\n", "MPI_Send:\n  callback: true\n") + predefined)
    assert list(load_mpi_callbacks(tmp_spec, tmp_spec.parent)) == ["MPI_SEND_FN", "MPI_Send"]
    assert load_mpi_spec(tmp_spec, tmp_spec.parent) == {}
    override = '  implementations:\n    openmpi: {reason: "r", params: {cnt: "long"}}\n'
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("  params:\n", override + "  params:\n", 1))
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:4: MPI_Send.implementations.openmpi.params: unknown parameter 'cnt'"
    write(tmp_spec, "a.yaml", GOOD_SEND.replace("  params:\n", override.replace("params: {cnt: \"long\"}", "skip: false") + "  params:\n", 1))
    assert "spec/mpi/a.yaml:4: " in load_error(tmp_spec)


def test_duplicate_key(tmp_spec):
    write(tmp_spec, "a.yaml", GOOD_SEND + "MPI_Send:\n  introduced: \"1.0\"\n  params: []\n")
    assert load_error(tmp_spec) == "spec/mpi/a.yaml:10: duplicate key 'MPI_Send'"


# --- importer -------------------------------------------------------------------------------------


def test_committed_files_are_canonical():
    """load -> dump reproduces every committed chapter file byte for byte."""
    everything = load_mpi_entries(SPEC, ROOT)
    chapters = sorted(p for p in (SPEC / "mpi").glob("*.yaml") if p.name not in ("deviations.yaml", "chapters.yaml"))
    assert [p.stem for p in chapters] == sorted(CHAPTERS)
    for path in chapters:
        entries = {f.name: entry_of(f) for f in everything.values() if f.chapter == path.stem}
        assert dump_chapter(path.stem, entries) == path.read_text(encoding="utf-8"), path


def test_reimporting_existing_functions_changes_nothing(spec_copy, forum):
    assert import_functions(spec_copy, [(name, None) for name in SCOPE], forum=forum) == {}
    assert import_standard(spec_copy, forum=forum) == {}


def test_curation_survives_reimport(spec_copy, forum):
    """Curated fields and listed corrections are kept; a second import changes no byte."""
    path = spec_copy / "mpi" / "pt2pt.yaml"
    text = path.read_text(encoding="utf-8")
    edited = text.replace('MPI_Bsend:\n  introduced: "1.0"\n', 'MPI_Bsend:\n  introduced: "1.1"\n  deprecated: "9.0"\n'
                          '  implementations:\n    mpich:\n      reason: "test"\n      skip: true\n', 1)
    # a Forum field gone wrong, outside what deviations.yaml lists: overwritten on import
    edited = edited.replace('{name: tag, kind: TAG, c_type: "int", dir: in}', '{name: tag, kind: TAG, c_type: "long", dir: in}', 1)
    assert edited.count('introduced: "1.1"') == 1 and edited.count('"long"') == 1
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(SpecError, match=r"spec/mpi/pt2pt.yaml:\d+: MPI_Bsend differs from apis.json where .*MPI_Bsend.params.tag.c_type"):
        import_standard(spec_copy, forum=forum)
    changed = import_standard(spec_copy, forum=forum, force=True)
    assert list(changed) == [path]
    assert changed[path] == edited.replace('"long"', '"int"')  # curated fields kept, the Forum field restored
    path.write_text(changed[path], encoding="utf-8")
    before = {p: p.read_bytes() for p in sorted((spec_copy / "mpi").glob("*.yaml"))}
    assert import_standard(spec_copy, forum=forum) == {}
    assert {p: p.read_bytes() for p in sorted((spec_copy / "mpi").glob("*.yaml"))} == before
    # the listed correction of MPI_Info_create_env survives even a forced import
    assert import_standard(spec_copy, forum=forum, force=True).keys() <= {path}
    argv = load_mpi_spec(spec_copy, spec_copy.parent)["MPI_Info_create_env"].params[1]
    assert (argv.name, argv.c_type) == ("argv", "char *[]")


def test_import_standard_cli_needs_versions_for_new_entries(tmp_spec, tmp_path, capsys):
    (tmp_path / "versions.txt").write_text("MPI_Send 1.0\n", encoding="utf-8")
    assert main(["import-standard", "--root", str(tmp_path), "--versions", str(tmp_path / "versions.txt")]) == 1
    err = capsys.readouterr().err
    assert "MPI_Recv: new entry needs an introduced version" in err and "MPI_Send:" not in err
    assert [p.name for p in (tmp_spec / "mpi").iterdir()] == ["chapters.yaml"]  # nothing written


def test_fresh_import_gives_the_committed_entry(tmp_spec, forum):
    changed = import_functions(tmp_spec, [("MPI_Allgatherv", "1.0"), ("MPI_Init", "1.0")], forum=forum)
    assert sorted(p.name for p in changed) == ["collectives.yaml", "process.yaml"]
    for path, text in changed.items():
        committed = (SPEC / "mpi" / path.name).read_text(encoding="utf-8")
        for name in ("MPI_Allgatherv", "MPI_Init"):
            if f"\n{name}:\n" in text:
                entry = text.split(f"\n{name}:\n")[1].split("\n\n")[0]
                assert f"\n{name}:\n{entry}\n" in committed


def test_import_keeps_curated_fields_and_protects_fixes(spec_copy, forum):
    path = spec_copy / "mpi" / "pt2pt.yaml"
    original = path.read_text(encoding="utf-8")
    altered = original.replace('{name: buf, kind: BUFFER, c_type: "const void *", dir: in}', '{name: buf, kind: BUFFER, c_type: "void *", dir: in}', 1)
    path.write_text(altered, encoding="utf-8")
    with pytest.raises(SpecError, match=r"spec/mpi/pt2pt.yaml:\d+: MPI_Bsend differs from apis.json .* --force"):
        import_functions(spec_copy, [("MPI_Bsend", None)], forum=forum)
    changed = import_functions(spec_copy, [("MPI_Bsend", None)], forum=forum, force=True)
    assert changed == {path: original}
    # note: and introduced survive a forced refresh
    assert import_functions(spec_copy, [("MPI_Buffer_detach", None)], forum=forum, force=True) == {}


def test_import_rejects_bad_requests(tmp_spec, forum):
    with pytest.raises(SpecError) as info:
        import_functions(tmp_spec, [("MPI_Send_c", "4.0"), ("MPI_Sned", "1.0"), ("MPI_Send", None)], forum=forum)
    message = str(info.value)
    assert "MPI_Send_c: large-count twins are recorded on their base entry; import MPI_Send" in message
    assert "MPI_Sned: not a C function in apis.json" in message
    assert "MPI_Send: new entry needs an introduced version" in message


def test_every_forum_function_has_a_chapter(forum):
    assert len(forum.names()) == 531
    chapters = {name: chapter_of(name) for name in forum.names()}
    assert set(chapters.values()) <= set(CHAPTERS)
    expected = {
        "MPI_Send": "pt2pt", "MPI_Buffer_attach": "pt2pt", "MPI_Isendrecv_replace": "pt2pt",
        "MPI_Iallgatherv": "collectives", "MPI_Reduce_scatter_block_init": "collectives", "MPI_Op_create": "collectives",
        "MPI_Ineighbor_alltoallw": "topologies", "MPI_Comm_set_errhandler": "environment", "MPI_Wtime": "environment",
        "MPI_Comm_rank": "communicators", "MPI_Win_set_name": "communicators", "MPI_Init_thread": "process",
        "MPI_Comm_spawn": "process", "MPI_Type_size": "datatypes", "MPI_Rget_accumulate": "rma",
        "MPI_Comm_c2f": "language", "MPI_Comm_toint": "abi", "MPI_T_init_thread": "tools",
    }
    assert {name: chapters[name] for name in expected} == expected


def test_whole_standard_imports_and_loads(tmp_spec, forum):
    changed = import_functions(tmp_spec, [(name, "1.0") for name in forum.names()], forum=forum)
    for path, text in changed.items():
        path.write_text(text, encoding="utf-8")
    functions = load_mpi_spec(tmp_spec, tmp_spec.parent)
    assert len(functions) == 531 and sum(1 for f in functions.values() if f.large_count) == 159
    contents = functions["MPI_Type_get_contents"]
    assert "max_large_counts" not in [p.name for p in contents.params]
    assert "max_large_counts" in [p.name for p in contents.twin().params]
    assert functions["MPI_Wtime"].return_type == "double"
    assert spec_check(tmp_spec, forum=forum) == []


# --- spec-check -----------------------------------------------------------------------------------


def test_spec_check_is_clean(forum):
    assert spec_check(SPEC, ROOT, forum=forum) == []


def test_spec_check_reports_an_altered_entry(spec_copy, forum):
    path = spec_copy / "mpi" / "collectives.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('recvcounts: "const MPI_Count []"', 'recvcounts: "MPI_Count []"', 1)
    text = text.replace('{name: sendbuf, kind: BUFFER, c_type: "const void *", dir: in}', '{name: sendbuf, kind: BUFFER, c_type: "void *", dir: in}', 1)
    path.write_text(text, encoding="utf-8")
    problems = spec_check(spec_copy, forum=forum)
    lines = text.splitlines()
    line = next(i for i, l in enumerate(lines, 1) if 'c_type: "void *", dir: in}' in l)
    lc_line = next(i for i, l in enumerate(lines, 1) if 'recvcounts: "MPI_Count []"' in l)
    assert problems == [
        f"spec/mpi/collectives.yaml:{line}: MPI_Allgather.params.sendbuf.c_type: spec has 'void *', apis.json has 'const void *'",
        f"spec/mpi/collectives.yaml:{lc_line}: MPI_Allgatherv.large_count.params.recvcounts: "
        "_c twin: spec has 'MPI_Count []', apis.json has 'const MPI_Count []'",
    ]
    allow = spec_copy / "mpi" / "deviations.yaml"
    allow.write_text(
        allow.read_text(encoding="utf-8")
        + 'MPI_Allgather.params.sendbuf.c_type: "test: a deliberate difference"\n'
        'MPI_Allgatherv.large_count.params.recvcounts: "test"\n'
        'MPI_Bcast.params.buffer.c_type: "stale"\n',
        encoding="utf-8",
    )
    line = len(allow.read_text(encoding="utf-8").splitlines())
    assert spec_check(spec_copy, forum=forum) == [
        f"spec/mpi/deviations.yaml:{line}: MPI_Bcast.params.buffer.c_type: listed as a deviation, "
        "but spec/mpi/ and apis.json agree here (remove the entry)"
    ]
    allow.write_text('MPI_Allgather.params.sendbuf.c_type: ""\n', encoding="utf-8")
    assert spec_check(spec_copy, forum=forum) == [
        "spec/mpi/deviations.yaml:1: MPI_Allgather.params.sendbuf.c_type: expected a difference key with a non-empty reason string"
    ]


def test_spec_check_command_prints_the_summary(spec_copy, capsys):
    root = spec_copy.parent
    assert main(["spec-check", "--root", str(root)]) == 0
    out, err = capsys.readouterr()
    assert out == "spec-check: 565 functions, 2210 parameters, 1 listed deviations, 0 unexplained\n" and err == ""
    path = spec_copy / "mpi" / "rma.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('kind: BUFFER, c_type: "const void *"', 'kind: BUFFER, c_type: "void *"', 1),
                    encoding="utf-8")
    (spec_copy / "mpi" / "deviations.yaml").write_text("{}\n", encoding="utf-8")
    assert main(["spec-check", "--root", str(root)]) == 1
    out, err = capsys.readouterr()
    assert out == "spec-check: 565 functions, 2210 parameters, 0 listed deviations, 2 unexplained\n"
    assert "spec/mpi/info.yaml:" in err and "MPI_Info_create_env.params.argv.c_type" in err
    assert "spec/mpi/rma.yaml:" in err and "MPI_Accumulate.params.origin_addr.c_type: spec has 'void *'" in err
    (spec_copy / "mpi" / "tools.yaml").unlink()
    assert main(["spec-check", "--root", str(root)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("spec-check: 513 functions, ") and out.endswith(" 54 unexplained\n")
    assert "MPI_T_init_thread: in apis.json but not in spec/mpi/" in err


def test_spec_check_structural_differences(tmp_spec, forum):
    write(tmp_spec, "pt2pt.yaml", GOOD_SEND + '\nMPI_Frobnicate:\n  introduced: "1.0"\n  params: []\n')
    problems = spec_check(tmp_spec, forum=forum)
    assert problems[0].startswith("spec/mpi/pt2pt.yaml:11: MPI_Frobnicate: not a C function in apis.json")
    assert problems[1].startswith("spec/mpi/pt2pt.yaml:1: MPI_Send.params: spec has parameters ['buf', 'count'], apis.json has")
    assert len(problems) == 2
    write(tmp_spec, "pt2pt.yaml", "MPI_Barrier:\n  introduced: \"1.0\"\n  params:\n"
          "    - {name: comm, kind: COMMUNICATOR, c_type: \"MPI_Comm\", dir: in}\n"
          "  large_count: {introduced: \"4.0\", params: {}}\n")
    assert spec_check(tmp_spec, forum=forum) == [
        "spec/mpi/pt2pt.yaml:1: MPI_Barrier.large_count: spec has MPI_Barrier_c twin, apis.json has none"]
    missing = spec_check(tmp_spec, forum=forum, report_missing=True)[1:]
    assert len(missing) == 531 + 34 - 1
    assert "MPI_Wtime: in apis.json but not in spec/mpi/ (run `python -m generator import-standard`)" in missing
    assert not any(line.startswith("MPI_Barrier:") for line in missing)


def test_spec_check_reports_load_errors(tmp_spec, forum):
    write(tmp_spec, "pt2pt.yaml", "MPI_Send: [\n")
    [problem] = spec_check(tmp_spec, forum=forum)
    assert problem.startswith("spec/mpi/pt2pt.yaml:")


# --- PMPI counter ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rendered(spec):
    return render_pmpi(make_environment(ROOT / "templates"), spec)


def test_pmpi_outputs_and_determinism(spec, rendered):
    assert sorted(rendered) == ["cmake/nampi_mpi_functions.cmake", "pmpi/nampi_pmpi_counter.c", "pmpi/nampi_pmpi_counter.h"]
    again = render_pmpi(make_environment(ROOT / "templates"), load_mpi_spec(SPEC, ROOT))
    assert again == rendered
    for path, text in rendered.items():
        assert "spec/mpi/*.yaml" in text.splitlines()[0] and "make generate" in "\n".join(text.splitlines()[:3]), path
        assert str(ROOT) not in text and "/tmp" not in text, path
        assert text.endswith("\n") and not text.endswith("\n\n"), path


def test_pmpi_wrappers(spec, rendered):
    source = rendered["pmpi/nampi_pmpi_counter.c"]
    header = rendered["pmpi/nampi_pmpi_counter.h"]
    wrappers, skipped, names = pmpi_plan(spec)
    assert len(wrappers) == 637 and len(skipped) == 53 and names == sorted(names) and len(names) == 690
    assert f"#define NAMPI_PMPI_FUNCTION_COUNT {len(wrappers)}" in header
    assert "extern const char *const nampi_pmpi_names[];" in header
    assert "inline std::map<std::string, unsigned long long> snapshot()" in header
    assert "unsigned long long nampi_pmpi_total(int index);" in header
    # The leak check's lists, derived from the spec's owned out handles (typed.borrowed excluded:
    # MPI_Type_get_value_index returns a predefined pair type).
    made = source.split("nampi_pmpi_datatype_constructors[] = {", 1)[1].split("};", 1)[0]
    assert '"MPI_Type_vector_c",' in made and '"MPI_Type_dup",' in made and made.rstrip().endswith("0,")
    assert "MPI_Type_get_value_index" not in made and "MPI_Type_create_f90" not in made
    assert 'nampi_pmpi_op_constructors[] = {\n    "MPI_Op_create",\n    "MPI_Op_create_c",\n    0,\n};' in source
    send = next(w for w in wrappers if w.name == "MPI_Send")
    # Counted atomically: calls from several threads at once (MPI_THREAD_MULTIPLE) all count.
    assert "#define NAMPI_PMPI_BUMP(cell) __atomic_fetch_add(&(cell), 1ULL, __ATOMIC_RELAXED)" in source
    assert (
        "/* spec/mpi/pt2pt.yaml: MPI_Send */\n"
        "#ifdef NAMPI_HAVE_MPI_SEND\n"
        "int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {\n"
        f"  NAMPI_PMPI_BUMP(nampi_pmpi_counts[{send.index}]);\n"
        f"  NAMPI_PMPI_BUMP(nampi_pmpi_totals[{send.index}]);\n"
        "  return PMPI_Send(buf, count, datatype, dest, tag, comm);\n"
        "}\n"
        "#endif\n"
    ) in source
    assert "#ifdef NAMPI_HAVE_MPI_ALLGATHERV_C\nint MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, " \
           "MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], " \
           "MPI_Datatype recvtype, MPI_Comm comm) {" in source
    assert "/* spec/mpi/collectives.yaml: MPI_Allgatherv large_count */" in source
    assert "int MPI_Finalize(void) {" in source and "return PMPI_Finalize();" in source
    assert (  # implementation overrides from spec/mpi/partitioned.yaml, chosen by configure-time probes
        "#ifdef NAMPI_HAVE_MPI_PREADY_LIST\n"
        "#if defined(NAMPI_DECLARES_MPI_PREADY_LIST_AS_MPICH)\n"
        "/* MPICH 4.0's mpi.h declares the partition list without const (MPICH 5.0's with) */\n"
        "int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request) {\n"
        "#elif defined(NAMPI_DECLARES_MPI_PREADY_LIST_AS_OPENMPI)\n"
        "/* Open MPI 5.0's mpi.h declares the partition list without const */\n"
        "int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request) {\n"
        "#else\n"
        "int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {\n"
        "#endif\n"
    ) in source
    assert "int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info) {" in source  # a listed Forum correction
    # the names table is in index order
    table = source.split("nampi_pmpi_names[NAMPI_PMPI_FUNCTION_COUNT] = {\n")[1].split("};")[0]
    assert [line.strip().strip('",') for line in table.splitlines()] == [w.name for w in wrappers]
    cmake = rendered["cmake/nampi_mpi_functions.cmake"]
    listed = cmake.split("set(NAMPI_MPI_FUNCTIONS\n")[1].split(")")[0].split()
    assert listed == names and "MPI_Allgatherv_c" in listed and "MPI_Barrier_c" not in listed
    prototypes = prototypes_of(cmake)
    pready = [p for p in prototypes if p[1] == "MPI_Pready_list"]
    assert pready == [
        ("NAMPI_DECLARES_MPI_PREADY_LIST_AS_MPICH", "MPI_Pready_list",
         "int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)"),
        ("NAMPI_DECLARES_MPI_PREADY_LIST_AS_OPENMPI", "MPI_Pready_list",
         "int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)"),
    ]
    # SimGrid 3.32's smpi.h: one prototype per function it declares without a const (the
    # PMPI-wrapped ones; MPI_Status_c2f and MPI_Status_f2c are not wrapped).
    smpi = [p[1] for p in prototypes if p[0].endswith("_AS_SMPI")]
    assert smpi == [
        "MPI_Add_error_string", "MPI_Comm_spawn_multiple", "MPI_Compare_and_swap", "MPI_Get_elements",
        "MPI_Get_elements_x", "MPI_Lookup_name", "MPI_Pack_external", "MPI_Pack_external_size",
        "MPI_Publish_name", "MPI_Register_datarep", "MPI_Type_create_darray", "MPI_Unpack_external",
        "MPI_Unpublish_name",
    ]
    assert len(prototypes) == len(pready) + len(smpi)
    assert ("NAMPI_DECLARES_MPI_COMPARE_AND_SWAP_AS_SMPI", "MPI_Compare_and_swap",
            "int MPI_Compare_and_swap(const void *origin_addr, void *compare_addr, void *result_addr, "
            "MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)") in prototypes


def prototypes_of(cmake: str) -> list[tuple[str, ...]]:
    """NAMPI_MPI_PROTOTYPES of generated/cmake/nampi_mpi_functions.cmake as (macro, function, declaration)."""
    block = cmake.split("set(NAMPI_MPI_PROTOTYPES\n")[1].split("\n)")[0]
    return [tuple(line.strip().strip('"').split("|")) for line in block.splitlines()]


def test_pmpi_skips_non_error_code_and_varargs(tmp_spec, forum):
    changed = import_functions(tmp_spec, [("MPI_Wtime", "1.0"), ("MPI_Pcontrol", "1.0"), ("MPI_Comm_c2f", "2.0"), ("MPI_Barrier", "1.0")], forum=forum)
    for path, text in changed.items():
        path.write_text(text, encoding="utf-8")
    functions = load_mpi_spec(tmp_spec, tmp_spec.parent)
    wrappers, skipped, names = pmpi_plan(functions)
    assert [w.name for w in wrappers] == ["MPI_Barrier"]
    assert {s.name for s in skipped} == {"MPI_Wtime", "MPI_Pcontrol", "MPI_Comm_c2f"}
    assert names == ["MPI_Barrier", "MPI_Comm_c2f", "MPI_Pcontrol", "MPI_Wtime"]
    source = render_pmpi(make_environment(ROOT / "templates"), functions)["pmpi/nampi_pmpi_counter.c"]
    assert " *   MPI_Wtime: returns double (WALL_TIME), not an int error code" in source
    assert "int MPI_Wtime" not in source and "MPI_Pcontrol(" not in source


def test_pmpi_skip_for_one_implementation(tmp_spec, forum):
    changed = import_functions(tmp_spec, [("MPI_Barrier", "1.0")], forum=forum)
    [(path, text)] = changed.items()
    path.write_text(text.replace('  params:\n', '  implementations:\n    mpich:\n      reason: "test"\n      skip: true\n  params:\n', 1),
                    encoding="utf-8")
    source = render_pmpi(make_environment(ROOT / "templates"), load_mpi_spec(tmp_spec, tmp_spec.parent))["pmpi/nampi_pmpi_counter.c"]
    assert "#if defined(NAMPI_HAVE_MPI_BARRIER) && !defined(MPICH)\nint MPI_Barrier(MPI_Comm comm) {" in source
    assert import_functions(tmp_spec, [("MPI_Barrier", None)], forum=forum) == {}  # the override survives re-import


@dataclass(frozen=True)
class Mpi:
    mpicc: Path
    mpicxx: Path
    libraries: tuple[Path, ...]  # the shared libraries whose exports the configure probe reads
    declares: frozenset[str]  # the NAMPI_DECLARES_* prototypes its mpi.h has
    fixed: frozenset[str] = frozenset({"MPI_Pready_list", "MPI_Info_create_env"})  # MPI-4 functions the spec corrects


def _debian_libs(pattern: str) -> tuple[Path, ...]:
    return tuple(sorted(Path("/usr/lib").glob(f"*-linux-gnu/{pattern}")))


_PREADY_LIST_NON_CONST = frozenset({"NAMPI_DECLARES_MPI_PREADY_LIST_AS_MPICH", "NAMPI_DECLARES_MPI_PREADY_LIST_AS_OPENMPI"})
MPIS = {  # the matrix of the Makefile's MPI=...; Open MPI 4.1 has no MPI_Pready_list at all
    "mpich": Mpi(ROOT / ".venv/bin/mpicc", ROOT / ".venv/bin/mpicxx", tuple(sorted((ROOT / ".venv/lib").glob("libmpi.so*"))), frozenset()),
    "openmpi": Mpi(ROOT / ".venv-openmpi/bin/mpicc", ROOT / ".venv-openmpi/bin/mpicxx",
                   tuple(sorted((ROOT / ".venv-openmpi/lib").glob("libmpi.so*"))), _PREADY_LIST_NON_CONST),
    "debian-openmpi": Mpi(Path("/usr/bin/mpicc.openmpi"), Path("/usr/bin/mpicxx.openmpi"), _debian_libs("openmpi/lib/libmpi.so*"),
                          frozenset(), fixed=frozenset()),  # MPI 3.1
    "debian-mpich": Mpi(Path("/usr/bin/mpicc.mpich"), Path("/usr/bin/mpicxx.mpich"), _debian_libs("libmpich.so*"), _PREADY_LIST_NON_CONST),
}


def exported_symbols(libraries: tuple[Path, ...]) -> set[str]:
    """The MPI_ functions the MPI's shared libraries export (what the configure probe starts from)."""
    symbols = set()
    for lib in libraries:
        out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True).stdout
        symbols |= {line.split()[-1].split("@")[0] for line in out.splitlines() if " T MPI_" in line or " W MPI_" in line}
    return symbols


@pytest.mark.parametrize("mpi", sorted(MPIS))
def test_counter_compiles_and_links(tmp_path, rendered, spec, mpi):
    """The counter builds with -Werror against each MPI's mpi.h, with NAMPI_HAVE_* for what it exports
    and NAMPI_DECLARES_* for the prototypes its mpi.h accepts (both as the configure step probes them)."""
    target = MPIS[mpi]
    if not target.mpicc.exists() or not target.libraries:
        pytest.skip(f"{mpi}: {target.mpicc} or its libraries are not installed")
    for path, text in rendered.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    (tmp_path / "include" / "nampi").mkdir(parents=True)
    cmake = rendered["cmake/nampi_mpi_functions.cmake"]
    names = cmake.split("set(NAMPI_MPI_FUNCTIONS\n")[1].split(")")[0].split()
    have = sorted(set(names) & exported_symbols(target.libraries))
    mpicc = str(target.mpicc)
    declares = set()
    for macro, function, declaration in prototypes_of(cmake):
        (tmp_path / "probe.c").write_text(f"#include <mpi.h>\n{declaration};\n", encoding="utf-8")
        probe = subprocess.run([mpicc, "-c", str(tmp_path / "probe.c"), "-o", str(tmp_path / "probe.o")], capture_output=True, text=True)
        if function in have and probe.returncode == 0:
            declares.add(macro)
    assert declares == target.declares
    (tmp_path / "include" / "nampi" / "config.h").write_text(
        "".join(f"#define NAMPI_HAVE_{name.upper()} 1\n" for name in have) + "".join(f"#define {m} 1\n" for m in sorted(declares)),
        encoding="utf-8")
    # Deprecated functions are wrapped on purpose (Open MPI 4.1 marks them deprecated).
    flags = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Wmissing-prototypes", "-Werror", "-Wno-deprecated-declarations",
             f"-I{tmp_path / 'include'}"]
    result = subprocess.run([mpicc, *flags, "-c", str(tmp_path / "pmpi" / "nampi_pmpi_counter.c"), "-o", str(tmp_path / "counter.o")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    symbols = subprocess.run(["nm", str(tmp_path / "counter.o")], capture_output=True, text=True).stdout
    defined = {line.split()[-1] for line in symbols.splitlines() if " T MPI_" in line}
    wrappers, _, _ = pmpi_plan(spec)
    assert defined == {w.name for w in wrappers} & set(have)
    assert {"MPI_Send", *target.fixed} <= defined  # the fixed ones need the spec's corrections
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n", encoding="utf-8")
    result = subprocess.run([mpicc, str(tmp_path / "main.c"), str(tmp_path / "counter.o"), "-o", str(tmp_path / "main")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr  # every PMPI_ the wrappers forward to exists
    mpicxx = target.mpicxx
    if mpicxx.exists():  # the header's C++ part
        (tmp_path / "use.cpp").write_text('#include "nampi_pmpi_counter.h"\nint main() { return (int)nampi_pmpi::snapshot().size(); }\n')
        result = subprocess.run([str(mpicxx), "-std=c++20", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                 f"-I{tmp_path / 'pmpi'}", str(tmp_path / "use.cpp")], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


# --- coverage table -------------------------------------------------------------------------------


def test_coverage_table(spec):
    from generator.coverage import coverage_rows, render_coverage

    rows = {r.chapter: r for r in coverage_rows(spec, {"MPI_Send", "MPI_Allgatherv", "MPI_Wtime"})}
    assert (rows[""].functions, rows[""].large_count, rows[""].deprecated, rows[""].bound) == (531, 159, 12, 3)
    assert (rows["collectives"].functions, rows["collectives"].bound) == (55, 1)
    assert rows["info"].deprecated == 2 and rows["tools"].title == "Tool Support"
    text = render_coverage(make_environment(ROOT / "templates"), spec, load_mpi_callbacks(SPEC, ROOT), {"MPI_Send"})["docs/coverage.md"]
    # functions, `_c` twins, deprecated, typed wrappers, named-parameter bindings (no MPI columns
    # without availability records)
    assert "| Point-to-Point Communication | `spec/mpi/pt2pt.yaml` | 55 | 28 | 0 | 55 | 1 |" in text
    assert rows["tools"].typed == 51 and rows[""].typed == 530  # MPI_Pcontrol: C varargs
    assert "21 callback typedefs and 13 predefined" in text
