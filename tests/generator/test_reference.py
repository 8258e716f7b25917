"""generated/docs/reference/ (generator/reference.py): a page per chapter of spec/mpi/ listing
every function's C and typed C++ declarations, versions, availability and named-parameter
calls; and README.md's links to the generated indexes."""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator import availability  # noqa: E402
from generator.availability import Availability  # noqa: E402
from generator.mpi_spec import load_mpi_spec  # noqa: E402
from generator.pipeline import load_spec  # noqa: E402
from generator.reference import name_family, render_reference  # noqa: E402
from generator.render import make_environment  # noqa: E402
from generator.typed import typed_plan  # noqa: E402

SPEC = ROOT / "spec"
HEADING = re.compile(r"^## `(MPI_\w+)`$", re.MULTILINE)

FIXTURE = """\
MPI_Attr_get:
  introduced: "1.0"
  deprecated: "2.0"
  params:
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
    - {name: keyval, kind: KEYVAL, c_type: "int", dir: in}
    - {name: attribute_val, kind: ATTRIBUTE_VAL_10, c_type: "void *", dir: out}
    - {name: flag, kind: LOGICAL, c_type: "int *", dir: out}

MPI_Comm_dup:
  introduced: "1.0"
  params:
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
    - {name: newcomm, kind: COMMUNICATOR, c_type: "MPI_Comm *", dir: out}

MPI_Get_version:
  introduced: "1.2"
  params:
    - {name: version, kind: VERSION, c_type: "int *", dir: out}
    - {name: subversion, kind: VERSION, c_type: "int *", dir: out}

MPI_Pcontrol:
  introduced: "1.0"
  params:
    - {name: level, kind: PROFILE_LEVEL, c_type: "const int", dir: in}
    - {name: varargs, kind: VARARGS, c_type: "...", dir: in}

MPI_Send:
  introduced: "1.0"
  params:
    - {name: buf, kind: BUFFER, c_type: "const void *", dir: in}
    - {name: count, kind: POLYXFER_NUM_ELEM_NNI, c_type: "int", dir: in}
    - {name: datatype, kind: DATATYPE, c_type: "MPI_Datatype", dir: in}
    - {name: dest, kind: RANK, c_type: "int", dir: in}
    - {name: tag, kind: TAG, c_type: "int", dir: in}
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
  large_count:
    introduced: "4.0"
    params:
      count: "MPI_Count"
"""

OTHER = """\
MPI_Barrier:
  introduced: "1.0"
  params:
    - {name: comm, kind: COMMUNICATOR, c_type: "MPI_Comm", dir: in}
"""


@pytest.fixture
def fixture_docs(tmp_path: Path) -> dict[str, str]:
    """The reference pages of a two-chapter fixture spec, two MPIs, one named-parameter call."""
    (tmp_path / "spec" / "schema").mkdir(parents=True)
    (tmp_path / "spec" / "mpi").mkdir()
    shutil.copy(SPEC / "schema" / "mpi.schema.json", tmp_path / "spec" / "schema")
    (tmp_path / "spec" / "mpi" / "fam.yaml").write_text(FIXTURE, encoding="utf-8")
    (tmp_path / "spec" / "mpi" / "other.yaml").write_text(OTHER, encoding="utf-8")
    functions = load_mpi_spec(tmp_path / "spec", tmp_path)
    records = [Availability("a", "MPI A", frozenset({"MPI_Comm_dup", "MPI_Send", "MPI_Send_c", "MPI_Barrier"})),
               Availability("b", "MPI B", frozenset({"MPI_Send", "MPI_Get_version"}))]
    return render_reference(make_environment(ROOT / "templates"), functions, typed_plan(functions, {}),
                            {"send": "MPI_Send"}, records)


def test_fixture_family_page_rows(fixture_docs):
    assert sorted(fixture_docs) == ["docs/reference/README.md", "docs/reference/fam.md", "docs/reference/other.md"]
    page = fixture_docs["docs/reference/fam.md"]
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    assert rows == [
        "| function | `nampi::mpi` | introduced | deprecated | MPI A | MPI B | named-parameter call |",
        "| [`MPI_Attr_get`](#mpi_attr_get) | `attr_get` | MPI 1.0 | MPI 2.0 | ✗ | ✗ |  |",
        "| [`MPI_Comm_dup`](#mpi_comm_dup) | `comm_dup` | MPI 1.0 |  | ✓ | ✗ |  |",
        "| [`MPI_Get_version`](#mpi_get_version) | `get_version` | MPI 1.2 |  | ✗ | ✓ |  |",
        "| [`MPI_Pcontrol`](#mpi_pcontrol) | none | MPI 1.0 |  | ✗ | ✗ |  |",
        "| [`MPI_Send`](#mpi_send) | `send` | MPI 1.0 (`_c`: 4.0) |  | ✓ (`_c` ✓) | ✓ (`_c` ✗) | [`comm.send(...)`](../send.md) |",
    ]
    assert HEADING.findall(page) == ["MPI_Attr_get", "MPI_Comm_dup", "MPI_Get_version", "MPI_Pcontrol", "MPI_Send"]
    lines = page.splitlines()
    # C declarations, base and twin.
    assert "int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);" in lines
    assert "int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);" in lines
    assert "int MPI_Pcontrol(const int level, ...);" in lines
    # Typed declarations and how out-parameters come back.
    assert "nampi::mpi::unique_comm comm_dup(nampi::mpi::comm comm);" in lines
    assert "- `comm_dup`: returns `newcomm` as `nampi::mpi::unique_comm`, an owner that frees it at scope exit." in lines
    assert ["struct get_version_result {", "  int version;", "  int subversion;", "};",
            "nampi::mpi::get_version_result get_version();"] == lines[lines.index("struct get_version_result {"):][:5]
    assert "- `get_version`: returns `nampi::mpi::get_version_result` with `version` (`int`), `subversion` (`int`)." in lines
    assert "void send(const void* buf, MPI_Count count, nampi::mpi::datatype datatype, int dest, int tag, nampi::mpi::comm comm);" in lines
    assert ("- `send` (large count): returns nothing; calls `MPI_Send_c` where the MPI has it, otherwise `MPI_Send` "
            "with every count checked to fit (`nampi::mpi::count_error` if not); C types kept: `buf`.") in lines
    assert "No typed wrapper: C varargs cannot be forwarded." in lines
    assert "Introduced in MPI 1.0. Deprecated in MPI 2.0." in lines
    assert "Introduced in MPI 1.0 (`_c`: 4.0). Named-parameter call: [`comm.send(...)`](../send.md)." in lines
    assert HEADING.findall(fixture_docs["docs/reference/other.md"]) == ["MPI_Barrier"]


def test_fixture_index_links_every_page_and_function(fixture_docs):
    index = fixture_docs["docs/reference/README.md"]
    # A chapter without a title in forum.CHAPTERS is named by its file.
    assert "| fam | [fam.md](fam.md) | `<nampi/mpi/fam.hpp>` | 5 |" in index
    assert "| other | [other.md](other.md) | `<nampi/mpi/other.hpp>` | 1 |" in index
    assert "- [`MPI_Comm_dup`](fam.md#mpi_comm_dup)" in index.splitlines()
    assert "- [`MPI_Barrier`](other.md#mpi_barrier)" in index.splitlines()


def test_name_family():
    assert [name_family(n) for n in ("MPI_Comm_split", "MPI_T_cvar_read", "MPI_Send", "MPI_T_init")] == [
        "MPI_Comm", "MPI_T_cvar", "MPI_Send", "MPI_T_init"]


# --- the committed spec ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def inputs():
    spec, functions, callbacks = load_spec(ROOT)
    records = availability.load(SPEC, ROOT, functions)
    return functions, callbacks, {b.name: b.mpi for b in spec.bindings}, records


def render(functions, callbacks, bindings, records):
    return render_reference(make_environment(ROOT / "templates"), functions, typed_plan(functions, callbacks), bindings, records)


def test_rendering_is_deterministic(inputs):
    functions, callbacks, bindings, records = inputs
    first = render(functions, callbacks, bindings, records)
    shuffled = list(functions.items())
    random.Random(4).shuffle(shuffled)
    named = list(bindings.items())
    random.Random(5).shuffle(named)
    assert render(dict(shuffled), callbacks, dict(named), records) == first
    assert render(functions, callbacks, bindings, records) == first
    for text in first.values():
        assert str(ROOT) not in text and "/tmp" not in text


def test_every_function_is_on_exactly_one_page(inputs):
    functions, callbacks, bindings, records = inputs
    docs = render(functions, callbacks, bindings, records)
    pages = {p: t for p, t in docs.items() if not p.endswith("/README.md")}
    headings = Counter(name for text in pages.values() for name in HEADING.findall(text))
    assert set(headings) == set(functions)
    assert set(headings.values()) == {1}
    # The page is the function's chapter, and the index links it there.
    for path, text in pages.items():
        chapter = Path(path).stem
        assert {functions[n].chapter for n in HEADING.findall(text)} == {chapter}
    index = docs["docs/reference/README.md"]
    links = re.findall(r"\[`(MPI_\w+)`\]\((\w+)\.md#(\w+)\)", index)
    assert sorted(n for n, _, _ in links) == sorted(functions)
    assert all(functions[n].chapter == page and anchor == n.lower() for n, page, anchor in links)


def test_typed_declarations_are_the_headers(inputs):
    """Every wrapper of the typed model appears, as declared, on its function's chapter page."""
    functions, callbacks, bindings, records = inputs
    docs = render(functions, callbacks, bindings, records)
    chapters, skipped = typed_plan(functions, callbacks)
    for chapter, wrappers in chapters.items():
        lines = set(docs[f"docs/reference/{chapter}.md"].splitlines())
        for w in wrappers:
            assert f"{w.result_type} {w.name}({w.signature});" in lines, w.c_name
    for s in skipped:
        assert f"No typed wrapper: {s.reason}." in docs[f"docs/reference/{functions[s.name].chapter}.md"]
    # Named-parameter calls link their own page.
    collectives = docs["docs/reference/collectives.md"]
    assert "[`comm.bcast(...)`](../bcast.md), [`comm.bcast_single(...)`](../bcast_single.md)" in collectives


def test_calls_are_written_as_a_user_writes_them():
    """A window's and a file's calls are their members, not the communicator's."""
    reference = ROOT / "generated" / "docs" / "reference"
    assert "[`win.put(...)`](../put.md)" in (reference / "rma.md").read_text(encoding="utf-8")
    assert "[`file.sync(...)`](../file_sync.md)" in (reference / "io.md").read_text(encoding="utf-8")
    assert "[`comm.bcast(...)`](../bcast.md)" in (reference / "collectives.md").read_text(encoding="utf-8")


def test_committed_pages_are_linked():
    docs = ROOT / "generated" / "docs"
    index = (docs / "reference" / "README.md").read_text(encoding="utf-8")
    for page in sorted((docs / "reference").glob("*.md")):
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name
    assert "](reference/README.md)" in (docs / "coverage.md").read_text(encoding="utf-8")
    assert "](generated/docs/reference/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def table(text: str, after: str = "") -> list[str]:
    """The first Markdown table after the line `after` (from the start if empty)."""
    lines = text.splitlines()
    start = lines.index(after) if after else 0
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    end = next((i for i in range(first, len(lines)) if not lines[i].startswith("|")), len(lines))
    return lines[first:end]


def test_readme_links_the_generated_indexes():
    """README.md keeps no copy of a generated table (it would go stale): it links them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("generated/docs/coverage.md", "generated/docs/calls.md", "generated/docs/reference/README.md"):
        assert f"]({page})" in readme, page
        assert (ROOT / page).is_file(), page
    assert len(table((ROOT / "generated" / "docs" / "coverage.md").read_text(encoding="utf-8"))) > 3
