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


@cache
def runtime_text(root: Path) -> str:
    folder = root / "runtime" / "include" / "nampi"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.hpp")))


def _defines(root: Path, namespace: str, function: str) -> bool:
    """A function `function(` (any return type, template or not) in `namespace` of the runtime."""
    text = runtime_text(root)
    return f"namespace {namespace} {{" in text and re.search(rf"[\w*&>:)]\s+{re.escape(function)}\s*\(", text) is not None


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
            "runtime/include/nampi/large_count_alltoallw.hpp",
        )
