"""Render generated/docs/reference/: one reference page per chapter of spec/mpi/, and an index.

A "family" is a chapter file of spec/mpi/ (point-to-point, collectives, one-sided, I/O, ...):
the unit a user includes (`<nampi/mpi/<chapter>.hpp>`), the row of the coverage table and the
file the functions are written down in. Name families such as MPI_Comm_* cross chapters
(MPI_Comm_spawn is process management, MPI_Comm_set_errhandler error handling), so they are
not pages; within a page functions are sorted by name, which keeps each name family together,
and the index lists every function by its name family with a link to its chapter page.

Each page has a summary table (one row per function: typed names, versions, availability on
every MPI of the matrix, named-parameter calls) and a section per function: the C
declarations (base and `_c` twin), the typed C++ declarations and what each returns. The
C++ side is read from the typed layer's own model (typed.typed_plan), never derived again.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from .availability import Availability
from .forum import CHAPTERS
from .mpi_spec import MpiFunction
from .typed import HEADER, Skipped, Wrapper
from .typed_types import NS

FOLDER = "docs/reference"  # under generated/
INDEX = "README.md"
YES, NO = "✓", "✗"


@dataclass(frozen=True)
class Overload:
    """One typed C++ function of an MPI function, as the header declares it."""

    name: str
    kind: str  # '' | 'large count' | 'callable'
    declaration: tuple[str, ...]  # lines: doc comment, result struct, template head, declaration
    notes: str  # what it returns, which owner, fallbacks, C types kept


@dataclass(frozen=True)
class Entry:
    """One MPI C function on its chapter page."""

    name: str
    anchor: str  # of its section heading
    typed_names: str  # summary cell: the typed function names, or why there is none
    introduced: str  # summary cell: 'MPI 1.0' and the twin's version
    deprecated: str  # summary cell, '' if not deprecated
    c_declarations: tuple[str, ...]
    overloads: tuple[Overload, ...]
    no_wrapper: str | None  # why there is no typed wrapper
    available: tuple[str, ...]  # one cell per MPI of the matrix
    bindings: str  # named-parameter calls: Markdown links, or ''
    notes: tuple[str, ...]  # curated facts of the spec entry


@dataclass(frozen=True)
class Page:
    chapter: str  # file stem of spec/mpi/<chapter>.yaml
    title: str
    file: str  # page file name in docs/reference/
    header: str  # the typed layer's header for this chapter
    entries: tuple[Entry, ...]  # sorted by name
    large_count: int


@dataclass(frozen=True)
class Family:
    """Functions sharing the first word of their name (MPI_Comm_*), across chapters."""

    name: str
    label: str  # '`MPI_Comm`: ' before the links, '' for a family of one function
    links: tuple[str, ...]  # Markdown links to the functions' sections


def anchor(name: str) -> str:
    """The anchor Markdown renderers give a heading `` `MPI_Comm_split` ``: mpi_comm_split."""
    return name.lower()


def name_family(name: str) -> str:
    """MPI_Comm_split -> MPI_Comm; MPI_T_cvar_read -> MPI_T_cvar; MPI_Send -> MPI_Send."""
    words = name.removeprefix("MPI_").split("_")
    return "MPI_" + "_".join(words[:2] if words[0] == "T" and len(words) > 1 else words[:1])


def c_declaration(function: MpiFunction) -> str:
    params = ", ".join(p.declaration for p in function.params) or "void"
    return f"{function.return_type} {function.name}({params});"


def _owned(type_: str) -> bool:
    """A returned owner (unique_comm, ...) of a new handle, as typed_params.py maps OWNED_HANDLES (typed_types.py)."""
    return type_.startswith(f"{NS}::unique_")


def _returns(w: Wrapper) -> str:
    if not w.error_code:
        return f"returns the C function's result as `{w.result_type}`"
    if not w.fields:
        return "returns nothing"
    if w.result_struct is None:
        (f,) = w.fields
        owner = ", an owner that frees it at scope exit" if _owned(f.type) else ""
        return f"returns `{f.name}` as `{f.type}`{owner}"
    fields = ", ".join(f"`{f.name}` (`{f.type}`{', owner' if _owned(f.type) else ''})" for f in w.fields)
    return f"returns `{w.result_type}` with {fields}"


def _overload_notes(w: Wrapper) -> str:
    parts = [_returns(w)]
    if w.large_count:
        calls = [v.c_name for v in w.variants]
        if len(calls) > 1:
            parts.append(f"calls `{calls[0]}` where the MPI has it, otherwise `{calls[1]}` with every count "
                         f"checked to fit (`{NS}::count_error` if not)")
        else:
            parts.append(f"exists only where the MPI has `{calls[0]}`")
    if w.adapter:
        callable_params = ", ".join(f"`{p.name}`" for p in w.params if p.type == "F")
        parts.append(f"{callable_params}: a capture-free callable, adapted by `{NS}::callable::{w.adapter}`")
    if w.raw:
        parts.append("C types kept: " + ", ".join(f"`{r}`" for r in w.raw))
    return "; ".join(parts) + "."


def _overload(w: Wrapper) -> Overload:
    lines = [f"/// {w.doc}"]
    if w.result_struct and w.defines_struct:
        lines.append(f"struct {w.result_struct} {{")
        lines.extend(f"  {f.type} {f.name};" for f in w.fields)
        lines.append("};")
    if w.template:
        lines.append(w.template)
    lines.append(f"{w.result_type} {w.name}({w.signature});")
    kind = "callable" if w.adapter else ("large count" if w.large_count else "")
    return Overload(w.name, kind, tuple(lines), _overload_notes(w))


def _available(function: MpiFunction, record: Availability) -> str:
    cell = YES if function.name in record.functions else NO
    if function.large_count:
        cell += f" (`_c` {YES if function.large_count in record.functions else NO})"
    return cell


def _introduced(function: MpiFunction) -> str:
    text = f"MPI {function.introduced}"
    if function.large_count:
        text += f" (`_c`: {function.large_count_introduced or function.introduced})"
    return text


def _deprecated(function: MpiFunction) -> str:
    if not function.deprecated:
        return ""
    return f"MPI {function.deprecated}" + (f", removed in {function.removed}" if function.removed else "")


def _notes(function: MpiFunction) -> tuple[str, ...]:
    notes = []
    if function.note:
        notes.append(function.note)
    for impl in function.implementations:
        notes.append(f"`{impl.name}` override: {impl.reason}" + (" (no wrapper there)" if impl.skip else ""))
    if function.typed and function.typed.borrowed:
        names = ", ".join(f"`{n}`" for n in function.typed.borrowed)
        notes.append(f"{names} returned without an owner: {function.typed.reason}")
    return tuple(notes)


def _entry(function: MpiFunction, wrappers: list[Wrapper], skipped: Skipped | None,
           bindings: list[str], records: list[Availability], written: dict[str, str]) -> Entry:
    twin = function.twin()
    names = list(dict.fromkeys(w.name for w in wrappers))
    return Entry(
        name=function.name,
        anchor=anchor(function.name),
        typed_names=", ".join(f"`{n}`" for n in names) if names else "none",
        introduced=_introduced(function),
        deprecated=_deprecated(function),
        c_declarations=tuple(c_declaration(f) for f in (function, twin) if f is not None),
        overloads=tuple(_overload(w) for w in wrappers),
        no_wrapper=skipped.reason if skipped else None,
        available=tuple(_available(function, r) for r in records),
        bindings=", ".join(f"[`{written.get(b, 'comm.' + b)}(...)`](../{b}.md)" for b in sorted(bindings)),
        notes=_notes(function),
    )


def reference_pages(functions: dict[str, MpiFunction], typed: tuple[dict[str, list[Wrapper]], list[Skipped]],
                    bindings: dict[str, str], records: list[Availability] = (),
                    written: dict[str, str] | None = None) -> list[Page]:
    """One page per chapter, sorted by chapter; `typed` is typed.typed_plan's result, `bindings`
    maps each named-parameter call to its MPI function, `written` to how a user writes it
    (`win.put`, `file.sync`; `comm.<name>` where not given)."""
    chapters, skipped = typed
    base_of = {}
    for f in functions.values():
        base_of[f.name] = f.name
        if f.large_count:
            base_of[f.large_count] = f.name
    wrappers: dict[str, list[Wrapper]] = {}
    for ws in chapters.values():
        for w in ws:  # in the header's order: base, large count, callables
            wrappers.setdefault(base_of[w.c_name], []).append(w)
    skipped_by_name = {s.name: s for s in skipped}
    calls: dict[str, list[str]] = {}
    for binding, mpi in bindings.items():
        calls.setdefault(mpi, []).append(binding)
    by_chapter: dict[str, list[MpiFunction]] = {}
    for f in functions.values():
        by_chapter.setdefault(f.chapter, []).append(f)
    pages = []
    for chapter in sorted(by_chapter):
        members = sorted(by_chapter[chapter], key=lambda f: f.name)
        entries = tuple(_entry(f, wrappers.get(f.name, []), skipped_by_name.get(f.name), calls.get(f.name, []), records,
                               written or {})
                        for f in members)
        pages.append(Page(chapter, CHAPTERS.get(chapter, chapter), f"{chapter}.md", HEADER.format(chapter=chapter),
                          entries, sum(1 for f in members if f.large_count)))
    return pages


def name_families(pages: list[Page]) -> list[Family]:
    """Every function by the first word of its name, families and members sorted by name."""
    links: dict[str, list[tuple[str, str]]] = {}
    for page in pages:
        for e in page.entries:
            links.setdefault(name_family(e.name), []).append((e.name, f"[`{e.name}`]({page.file}#{e.anchor})"))
    return [Family(name, f"`{name}`: " if len(members) > 1 else "", tuple(link for _, link in sorted(members)))
            for name, members in sorted(links.items())]


SOURCES = "spec/mpi/*.yaml, spec/mpi/availability/*.txt, spec/bindings/*.yaml"


def render_reference(env: jinja2.Environment, functions: dict[str, MpiFunction],
                     typed: tuple[dict[str, list[Wrapper]], list[Skipped]], bindings: dict[str, str],
                     records: list[Availability] = (), written: dict[str, str] | None = None) -> dict[str, str]:
    """{path relative to generated/: text}: the chapter pages and the index."""
    pages = reference_pages(functions, typed, bindings, records, written)
    mpis = [r.label for r in records]
    out = {}
    for page in pages:
        out[f"{FOLDER}/{page.file}"] = env.get_template("reference.md.j2").render(sources=SOURCES, page=page, mpis=mpis)
    out[f"{FOLDER}/{INDEX}"] = env.get_template("reference_index.md.j2").render(
        sources=SOURCES, pages=pages, families=name_families(pages), total=sum(len(p.entries) for p in pages))
    return out
