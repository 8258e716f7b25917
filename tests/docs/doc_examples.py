#!/usr/bin/env python3
"""Every C++ block of the documentation, compiled and run (so no example rots).

The hand-written pages (README.md, docs/*.md, bench/README.md) hold ```cpp blocks. Each becomes
part of a test program:

- a block with `int main(` is a whole program: compiled as it stands, run on 2 ranks;
- any other block is a fragment: it runs inside a function that has `comm` (MPI_COMM_WORLD as a
  `nampi::Communicator`), `rank` and `size`. The fragments of one page become one program that
  includes <nampi/nampi.hpp>, the `#include` lines of the page's blocks and the usual standard
  headers, says `using namespace nampi::params;`, and runs them in page order on 2 ranks, with
  a barrier between them.

An HTML comment right before a block (invisible on GitHub and on the site) says otherwise:

    <!-- example: declarations -->          at namespace scope (types, functions, plugins)
    <!-- example: continues -->             the same fragment (or declarations) as the block before
    <!-- example: compile-only -->          compiled, never run (files of a real system, failures)
    <!-- example: compile-error "TEXT" -->  must not compile, and the compiler must say TEXT
    <!-- example: ranks 3 -->               run on 3 ranks (a whole program or the page's fragments)

Compile errors point at the Markdown file and line (`#line`).

    doc_examples.py generate --out DIR PAGE...     write the programs and DIR/examples.cmake (CMake)
    doc_examples.py check PAGE...                  compile and run them here with .venv's MPICH
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE_RE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[\w+-]*)")
DIRECTIVE_RE = re.compile(r"^\s*<!--\s*example:\s*(?P<body>.*?)\s*-->\s*$")
CPP_LANGS = {"cpp", "c++", "cxx"}
KINDS = {"declarations", "continues", "compile-only", "compile-error"}
STANDARD_HEADERS = [
    "algorithm", "array", "cstdint", "cstdio", "cstdlib", "functional", "iostream", "map",
    "numeric", "optional", "span", "string", "utility", "vector",
]


class DocError(Exception):
    pass


@dataclasses.dataclass
class Block:
    page: str  # path relative to the repository
    line: int  # line of the first code line
    code: str
    kind: str  # program, fragment, declarations, compile-only, compile-error
    ranks: int = 2
    expect: str = ""
    continues: bool = False


DIRECTIVE_WORDS = re.compile(r'compile-error\s+"(?P<expect>[^"]+)"|ranks\s+(?P<ranks>\d+)|(?P<word>\S+)')


def parse_directive(text: str, where: str) -> tuple[str | None, int | None, str, bool]:
    """(kind, ranks, expected error text, continues) of `<!-- example: ... -->`."""
    kind, ranks, expect, continues = None, None, "", False
    for m in DIRECTIVE_WORDS.finditer(text):
        word = m.group("word")
        if m.group("expect"):
            kind, expect = "compile-error", m.group("expect")
        elif m.group("ranks"):
            ranks = int(m.group("ranks"))
            if not 1 <= ranks <= 4:
                raise DocError(f"{where}: ranks {ranks}: run examples on 1 to 4 ranks")
        elif word == "continues":
            continues = True
        elif word == "compile-error":
            raise DocError(f'{where}: write compile-error "text the compiler must print"')
        elif word in KINDS:
            kind = word
        else:
            raise DocError(f"{where}: unknown word {word!r} in an example directive "
                           f"(known: {', '.join(sorted(KINDS))}, ranks N)")
    return kind, ranks, expect, continues


def blocks_of(page: Path) -> list[Block]:
    rel = page.resolve().relative_to(ROOT).as_posix()
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group("indent"), m.group("fence"), m.group("lang").lower()
        start = i + 1
        j = start
        while j < len(lines) and not (lines[j].startswith(indent + fence[0] * len(fence))
                                      and lines[j].strip().strip(fence[0]) == ""):
            j += 1
        if j == len(lines):
            raise DocError(f"{rel}:{i + 1}: code block never closed")
        if lang in CPP_LANGS:
            code = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                             for line in lines[start:j])
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            directive = DIRECTIVE_RE.match(lines[k]) if k >= 0 else None
            kind, ranks, expect, continues = (
                parse_directive(directive.group("body"), f"{rel}:{k + 1}") if directive else (None, None, "", False)
            )
            has_main = re.search(r"\bint\s+main\s*\(", code) is not None
            if kind is None:
                kind = "program" if has_main else "fragment"
            if continues:
                if not blocks or blocks[-1].kind not in {"fragment", "declarations", "compile-only"}:
                    raise DocError(f"{rel}:{start + 1}: 'continues' needs a fragment or declarations block before it")
                kind = blocks[-1].kind
            if has_main and kind != "program":
                raise DocError(f"{rel}:{start + 1}: a block with main() is a whole program; drop the directive")
            blocks.append(Block(rel, start + 1, code, kind, ranks or 2, expect, continues))
        i = j + 1
    return blocks


def line_directive(block: Block) -> str:
    return f'#line {block.line} "{block.page}"'


def split_includes(code: str) -> tuple[list[str], str]:
    """The `#include` lines of a fragment (hoisted to the top) and the rest (kept in place, with
    empty lines for the hoisted ones so that line numbers stay right)."""
    includes, rest = [], []
    for line in code.splitlines():
        if line.lstrip().startswith("#include"):
            includes.append(line.strip())
            rest.append("")
        else:
            rest.append(line)
    return includes, "\n".join(rest)


def prologue(includes: list[str]) -> list[str]:
    out = ["#include <nampi/nampi.hpp>"]
    for inc in includes:
        if inc not in out:
            out.append(inc)
    out += [f"#include <{h}>" for h in STANDARD_HEADERS]
    out += ["", "using namespace nampi::params;", ""]
    return out


def fragment_function(name: str, blocks: list[Block]) -> list[str]:
    out = [f"void {name}([[maybe_unused]] nampi::Communicator& comm, [[maybe_unused]] int rank,"
           " [[maybe_unused]] int size) {", "  {"]
    for block in blocks:
        out += [line_directive(block), split_includes(block.code)[1]]
    out += ["  }", "}", ""]
    return out


def page_program(page: str, blocks: list[Block]) -> tuple[str, int]:
    """One program of a page's fragments, declarations and compile-only blocks."""
    groups: list[list[Block]] = []
    for block in blocks:
        if block.continues and groups:
            groups[-1].append(block)
        else:
            groups.append([block])
    includes = [inc for b in blocks for inc in split_includes(b.code)[0]]
    out = [f"// The examples of {page}, made by tests/docs/doc_examples.py: edit the page, not this."]
    out += prologue(includes)
    calls = []
    for n, group in enumerate(groups, 1):
        if group[0].kind == "declarations":
            for block in group:
                out += [line_directive(block), split_includes(block.code)[1], ""]
        else:
            name = f"nampi_doc_example_{n}"
            out += fragment_function(name, group)
            if group[0].kind == "fragment":
                calls.append((name, f"{page}:{group[0].line}"))
    ranks = max([b.ranks for b in blocks if b.kind == "fragment"], default=2)
    out += [
        "int main(int argc, char** argv) {",
        "  nampi::Environment env(argc, argv);",
        "  nampi::Communicator comm;",
        "  int failed = 0;",
    ]
    for name, where in calls:
        out += [
            "  try {",
            f"    {name}(comm, comm.rank(), comm.size());",
            "  } catch (const std::exception& e) {",
            f'    std::fprintf(stderr, "{where}: the example threw: %s\\n", e.what());',
            "    failed = 1;",
            "  }",
            "  MPI_Barrier(MPI_COMM_WORLD);",
        ]
    out += ["  return failed;", "}", ""]
    return "\n".join(out), ranks


def error_program(block: Block) -> str:
    includes, _ = split_includes(block.code)
    out = [f"// An example of {block.page} that must not compile, made by tests/docs/doc_examples.py.",
           f"// expect-error: {block.expect}"]
    out += prologue(includes)
    out += fragment_function("nampi_doc_example", [block])
    return "\n".join(out)


@dataclasses.dataclass
class Program:
    name: str  # file stem, unique
    source: str
    kind: str  # run, compile, error
    ranks: int
    expect: str
    where: str


def programs_of(page: Path) -> list[Program]:
    blocks = blocks_of(page)
    rel = page.resolve().relative_to(ROOT).as_posix()
    stem = re.sub(r"[^A-Za-z0-9]+", "_", rel.removesuffix(".md")).strip("_")
    out = []
    together = [b for b in blocks if b.kind in {"fragment", "declarations", "compile-only"}]
    if together:
        source, ranks = page_program(rel, together)
        runs = any(b.kind == "fragment" for b in together)
        out.append(Program(stem, source, "run" if runs else "compile", ranks, "", rel))
    for block in blocks:
        where = f"{rel}:{block.line}"
        if block.kind == "program":
            source = f"{line_directive(block)}\n{block.code}\n"
            out.append(Program(f"{stem}_{block.line}", source, "run", block.ranks, "", where))
        elif block.kind == "compile-error":
            out.append(Program(f"{stem}_{block.line}", error_program(block), "error", 0, block.expect, where))
    return out


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def cmd_generate(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# Made by tests/docs/doc_examples.py: one nampi_doc_example(...) per program."]
    for page in args.pages:
        for p in programs_of(Path(page)):
            write_if_changed(out / f"{p.name}.cpp", p.source)
            expect = p.expect.replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'nampi_doc_example({p.name} {p.kind} {p.ranks} "{p.where}" "{expect}")')
    write_if_changed(out / "examples.cmake", "\n".join(lines) + "\n")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    venv = ROOT / ".venv" / "bin"
    cxx = shlex.split(args.cxx or str(venv / "mpicxx"))
    mpiexec = shlex.split(args.mpiexec or str(venv / "mpiexec"))
    # The configured probe of `make test` (nampi/config.h: what this MPICH has) where there is
    # one; without it nampi assumes only what every MPI of the matrix has.
    configured = ROOT / "build" / "mpich" / "include"
    flags = ["-std=c++20", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
             *(["-I", str(configured)] if (configured / "nampi" / "config.h").is_file() and not args.cxx else []),
             "-I", str(ROOT / "runtime/include"), "-I", str(ROOT / "generated/include"),
             "-I", str(ROOT / ".deps/cereal/usr/include")]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for page in args.pages:
            for p in programs_of(Path(page)):
                src = Path(tmp) / f"{p.name}.cpp"
                src.write_text(p.source, encoding="utf-8")
                exe = Path(tmp) / p.name
                r = subprocess.run(cxx + flags + ([] if p.kind != "error" else ["-fsyntax-only"])
                                   + [str(src), "-o", str(exe)], capture_output=True, text=True, cwd=ROOT)
                if p.kind == "error":
                    ok = r.returncode != 0 and p.expect in r.stdout + r.stderr
                    print(f"{'ok  ' if ok else 'FAIL'} {p.where}: must not compile, saying {p.expect!r}")
                    if not ok:
                        print(r.stderr[-4000:] if r.returncode else "  (it compiled)")
                    failures += not ok
                    continue
                if r.returncode != 0:
                    print(f"FAIL {p.where}: does not compile\n{r.stderr[-6000:]}")
                    failures += 1
                    continue
                if p.kind == "compile":
                    print(f"ok   {p.where}: compiles")
                    continue
                r = subprocess.run(mpiexec + ["-n", str(p.ranks), str(exe)], capture_output=True, text=True,
                                   timeout=120)
                ok = r.returncode == 0
                print(f"{'ok  ' if ok else 'FAIL'} {p.where}: runs on {p.ranks} ranks")
                if not ok:
                    print(r.stdout[-3000:] + r.stderr[-3000:])
                failures += not ok
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--out", required=True)
    gen.add_argument("pages", nargs="+")
    check = sub.add_parser("check")
    check.add_argument("--cxx", help="compiler command (default: .venv/bin/mpicxx)")
    check.add_argument("--mpiexec", help="launcher command (default: .venv/bin/mpiexec)")
    check.add_argument("pages", nargs="+")
    args = parser.parse_args(argv)
    try:
        return cmd_generate(args) if args.command == "generate" else cmd_check(args)
    except DocError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
