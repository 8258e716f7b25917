"""The generator's modules stay small and import each other without cycles (issue 14, item 2):
each module one concept, readable on its own."""

from __future__ import annotations

import ast

from conftest import REPO

GENERATOR = REPO / "generator"


def _imports(path) -> set[str]:
    """The generator modules `path` imports (`from .x import`, `from . import x`), anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out


def test_no_import_cycles():
    graph = {p.stem: _imports(p) for p in GENERATOR.glob("*.py")}
    cycles = []

    def visit(module, path):
        for dep in sorted(graph.get(module, ())):
            if dep in path:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep in graph:
                visit(dep, path + [dep])

    for module in sorted(graph):
        visit(module, [module])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_module_over_600_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in GENERATOR.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 600} == {}


# The C++ statement shapes of a call body and of a typed wrapper live in templates
# (call_body.j2, typed_body.j2); Python passes decisions, expressions and argument lists.
STATEMENT_SHAPES = ("call_mpi(", "if constexpr", "#else", "#endif", "} else", "static_assert(", "return nampi::")


def _string_parts(path):
    """Every string literal of a module, f-string parts included, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_statement_shapes_live_in_templates():
    found = []
    for path in sorted(GENERATOR.glob("*.py")):
        docstrings = {n.body[0].value.lineno for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for line, text in _string_parts(path):
            if line in docstrings:
                continue
            found += [f"generator/{path.name}:{line}: {shape!r}" for shape in STATEMENT_SHAPES if shape in text]
    assert not found, "C++ statements spelled in Python:\n" + "\n".join(found)

