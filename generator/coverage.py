"""Render generated/docs/coverage.md: how much of the standard the spec and the bindings cover.

One row per chapter file of spec/mpi/: the C functions it holds, how many have a large-count
`_c` twin, how many are deprecated, how many have a typed wrapper (nampi::mpi), how many a
named-parameter binding (spec/bindings/) calls, and how many each MPI of the test matrix
provides (spec/mpi/availability/, measured by the configure-time probe). Callback typedefs and
predefined functions are counted apart (they are not called).
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from .availability import Availability, available_bases
from .forum import CHAPTERS
from .mpi_spec import MpiFunction
from .typed import skip_reason


@dataclass(frozen=True)
class Row:
    chapter: str  # file stem of spec/mpi/<chapter>.yaml
    title: str
    functions: int
    large_count: int
    deprecated: int
    typed: int  # functions with a typed wrapper
    bound: int  # functions some binding calls
    available: tuple[int, ...]  # per MPI of the matrix, in the order of the records


def coverage_rows(functions: dict[str, MpiFunction], bound: set[str],
                  records: list[Availability] = ()) -> list[Row]:
    """Rows sorted by chapter file name, then a total row (chapter '')."""
    by_chapter: dict[str, list[MpiFunction]] = {}
    for function in functions.values():
        by_chapter.setdefault(function.chapter, []).append(function)

    def row(chapter: str, title: str, members: list[MpiFunction]) -> Row:
        return Row(
            chapter=chapter,
            title=title,
            functions=len(members),
            large_count=sum(1 for f in members if f.large_count),
            deprecated=sum(1 for f in members if f.deprecated),
            typed=sum(1 for f in members if skip_reason(f) is None),
            bound=sum(1 for f in members if f.name in bound),
            available=tuple(sum(1 for f in members if f.name in provided) for provided in provided_sets),
        )

    provided_sets = [available_bases(r, functions) for r in records]

    rows = [row(c, CHAPTERS.get(c, c), by_chapter[c]) for c in sorted(by_chapter)]
    return rows + [row("", "total", list(functions.values()))]


def render_coverage(env: jinja2.Environment, functions: dict[str, MpiFunction],
                    callbacks: dict[str, MpiFunction], bound: set[str],
                    records: list[Availability] = ()) -> dict[str, str]:
    typedefs = sum(1 for f in callbacks.values() if f.callback)
    return {
        "docs/coverage.md": env.get_template("coverage.md.j2").render(
            rows=coverage_rows(functions, bound, records),
            mpis=[r.label for r in records],
            typedefs=typedefs,
            predefined=len(callbacks) - typedefs,
        )
    }
