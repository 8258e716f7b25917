"""nampi::compiled (nampi/detail/out_of_line.hpp): the library's source includes every header
that defines an out-of-line function or names a library instance of a function template, and
each such function is declared and then defined under `#if NAMPI_DEFINE_OUT_OF_LINE`, each
instance named under `#if NAMPI_LIBRARY_INSTANCES`, so that a unit in that mode compiles none
of them and the library all of them. A header left out would be a link error only in the
programs that happen to call one of its functions."""

from __future__ import annotations

import re

from conftest import REPO

INCLUDE = REPO / "runtime" / "include"
SOURCE = REPO / "runtime" / "src" / "compiled_runtime.cpp"
MACROS = "nampi/detail/out_of_line.hpp"


def _headers_with(macro: str) -> set[str]:
    found = set()
    for path in INCLUDE.rglob("*.hpp"):
        name = path.relative_to(INCLUDE).as_posix()
        if name != MACROS and re.search(rf"\b{macro}\b", path.read_text(encoding="utf-8")):
            found.add(name)
    return found


def _headers_with_out_of_line() -> set[str]:
    return _headers_with("NAMPI_OUT_OF_LINE")


def test_the_library_source_includes_every_header_with_out_of_line_functions():
    included = set(re.findall(r'^#include "([^"]+)"', SOURCE.read_text(encoding="utf-8"), re.M))
    headers = _headers_with_out_of_line() | _headers_with("NAMPI_LIBRARY_INSTANCE")
    assert headers, "no header declares an out-of-line function"
    assert headers <= included, f"missing in {SOURCE.name}: {sorted(headers - included)}"
    assert included <= headers, f"{SOURCE.name} includes headers without any: {sorted(included - headers)}"


def _declarations_only(text: str) -> str:
    """The header's text without the definitions of its out-of-line functions: the #else part
    of `#if !NAMPI_DEFINE_OUT_OF_LINE` and the whole of `#if NAMPI_DEFINE_OUT_OF_LINE` (nested
    conditionals counted)."""
    kept, depth, skipping = [], 0, False  # depth: inside one of those conditionals
    for line in text.splitlines():
        stripped = line.strip()
        if depth:
            if stripped.startswith("#if"):
                depth += 1
            elif stripped.startswith("#endif"):
                depth -= 1
                if depth == 0:
                    skipping = False
                    continue
            elif depth == 1 and stripped == "#else":
                skipping = True
                continue
            if not skipping:
                kept.append(line)
            continue
        if stripped == "#if !NAMPI_DEFINE_OUT_OF_LINE":
            depth, skipping = 1, False
            continue
        if stripped == "#if NAMPI_DEFINE_OUT_OF_LINE":
            depth, skipping = 1, True
            continue
        kept.append(line)
    assert depth == 0, "unterminated #if on NAMPI_DEFINE_OUT_OF_LINE"
    return "\n".join(kept)


def test_each_out_of_line_definition_is_guarded_and_each_header_includes_the_macros():
    for name in sorted(_headers_with_out_of_line()):
        text = (INCLUDE / name).read_text(encoding="utf-8")
        assert f'#include "{MACROS}"' in text, f"{name} does not include {MACROS}"
        assert text.count("#if") == text.count("#endif"), f"{name}: unbalanced #if/#endif"
        declared = _declarations_only(text)
        # What a unit of nampi::compiled sees of an out-of-line function is a declaration: it
        # ends with ';' before any body's '{'.
        for match in re.finditer(r"NAMPI_OUT_OF_LINE\b", declared):
            rest = declared[match.end():]
            end = min(i for i in (rest.find(";"), rest.find("{"), len(rest)) if i >= 0)
            assert rest[end:end + 1] == ";", (
                f"{name}: defined where NAMPI_DEFINE_OUT_OF_LINE is 0: {rest[:end].strip()[:80]}")
        assert "NAMPI_OUT_OF_LINE" in declared, f"{name}: nothing declared for nampi::compiled"


def test_declaration_and_definition_carry_the_same_attributes():
    """Header-only units see only the definition, nampi::compiled's units only the
    declaration: each must carry the attributes (noreturn, cold, noinline, format)."""
    block = re.compile(r"#if !NAMPI_DEFINE_OUT_OF_LINE\n(.*?)\n#else\n(.*?)\n#endif", re.S)
    attributes = re.compile(r"^\s*(\[\[.*?\]\])?", re.S)
    checked = 0
    for name in sorted(_headers_with_out_of_line()):
        for declaration, definition in block.findall((INCLUDE / name).read_text(encoding="utf-8")):
            declared = re.sub(r"\s+", " ", attributes.match(declaration).group(1) or "")
            defined = re.sub(r"\s+", " ", attributes.match(definition).group(1) or "")
            assert declared == defined, f"{name}: {declared!r} declared, {defined!r} defined"
            checked += 1
    assert checked >= 10


def test_each_library_instance_is_guarded_and_names_an_explicit_instance():
    """`NAMPI_LIBRARY_INSTANCE` is `template` in the library and `extern template` in a unit
    of nampi::compiled; undefined in header-only mode, so each use sits under
    `#if NAMPI_LIBRARY_INSTANCES` and names one instance (template arguments given)."""
    guarded = re.compile(r"#if NAMPI_LIBRARY_INSTANCES\n(.*?)#endif", re.S)
    instance = re.compile(r"NAMPI_LIBRARY_INSTANCE \w+ (\w+)<[^>]+>\(.*?\)(?: noexcept)?;", re.S)
    named = 0
    for name in sorted(_headers_with("NAMPI_LIBRARY_INSTANCE")):
        text = (INCLUDE / name).read_text(encoding="utf-8")
        assert f'#include "{MACROS}"' in text, f"{name} does not include {MACROS}"
        found = [f for block in guarded.findall(text) for f in instance.findall(block)]
        assert len(found) == text.count("NAMPI_LIBRARY_INSTANCE "), f"{name}: an unguarded library instance"
        for function in found:
            assert re.search(rf"\[\[[\w:, ]*gnu::noinline[\w:, ]*\]\] \w+ {function}\(", text), (
                f"{name}: {function} is not a noinline function template of this header")
        named += len(found)
    assert named >= 4
