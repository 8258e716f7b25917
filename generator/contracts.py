"""What the spec names in the hand-written runtime exists there (issue 14, item 4): each rule's
helper, each parameter's converter (`to_mpi: K` -> nampi::detail::to_mpi_K) and each large-count
block builder (`large_count_fallback: alltoallw` -> nampi::detail::<base>_blocks). A typo is a
file:line error at the spec line that names it, not a C++ error deep in a generated header."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from .errors import SpecError
from .yamlload import where_of

# `to_mpi` kinds the generated body spells without a converter: a field of the slot's object,
# passed by address (`&message.get().handle`).
NO_CONVERTER = {"fields"}


# What the scan of the runtime's headers needs to see: comments, string and character literals and
# preprocessor lines hide braces and names; what is left is namespaces, braces and `name(`.
HIDDEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*',
                    re.DOTALL | re.MULTILINE)
TOKEN = re.compile(r"\bnamespace\s+([A-Za-z_][\w:]*)?\s*\{|([{}])|\b([A-Za-z_]\w*)\s*\(")


@cache
def runtime_text(root: Path) -> str:
    folder = root / "runtime" / "include" / "nampi"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.hpp")))


@cache
def namespace_functions(root: Path) -> dict[str, frozenset[str]]:
    """Per namespace of runtime/include/nampi/ (`nampi::detail`), the names declared or defined
    at its scope followed by `(`: its free functions (members of a class and names inside a
    function body are not at namespace scope)."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / "runtime" / "include" / "nampi").rglob("*.hpp")):
        text = HIDDEN.sub(" ", path.read_text(encoding="utf-8"))
        scopes: list[str | None] = []  # a namespace's name ("" if anonymous), None for any other brace
        for m in TOKEN.finditer(text):
            if m.group(0).startswith("namespace"):
                scopes.append(m.group(1) or "")
            elif m.group(2) == "{":
                scopes.append(None)
            elif m.group(2) == "}":
                if scopes:
                    scopes.pop()
            elif None not in scopes:
                namespace = "::".join(n for n in scopes if n)
                found.setdefault(namespace, set()).add(m.group(3))
    return {k: frozenset(v) for k, v in found.items()}


def _defines(root: Path, namespace: str, function: str) -> bool:
    """A function `function(` (any return type, template or not) in `namespace` itself (not a
    namespace inside it, nor one beside it) of the runtime."""
    return function in namespace_functions(root).get(namespace, frozenset())


def check_helpers(root: Path, rules: dict, data: dict) -> None:
    for name, rule in rules.items():
        namespace, _, function = rule.helper.rpartition("::")
        if not _defines(root, namespace, function):
            raise SpecError(
                where_of(data[name], "helper"),
                f"{name}: helper '{rule.helper}' is not defined in runtime/include/nampi/ "
                f"(a function `void {function}(...)` in namespace {namespace})",
            )


def check_converters(root: Path, parameters: dict, data: dict) -> None:
    for name in data:  # in file order: the first line that names it
        p = parameters[name]
        if p.to_mpi not in NO_CONVERTER and not _defines(root, "nampi::detail", f"to_mpi_{p.to_mpi}"):
            raise SpecError(
                where_of(data[name], "to_mpi"),
                f"{name}: to_mpi '{p.to_mpi}' needs nampi::detail::to_mpi_{p.to_mpi}(slot) in "
                "runtime/include/nampi/ (slot.hpp has the others)",
            )


def check_block_builder(root: Path, name: str, base: str, entry: dict) -> None:
    """A binding emulated by one MPI_Alltoallw needs its blocks from large_count_alltoallw.hpp."""
    if entry.get("large_count_fallback") == "alltoallw" and not _defines(root, "nampi::detail", f"{base}_blocks"):
        raise SpecError(
            where_of(entry, "large_count_fallback"),
            f"{name}: large_count_fallback 'alltoallw' needs nampi::detail::{base}_blocks(ctx, ...) in "
            "runtime/include/nampi/detail/large_count_alltoallw.hpp",
        )
