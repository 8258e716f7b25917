#!/usr/bin/env python3
"""Compile-fail test runner for nampi (run by ctest as compile_fail/<name>).

A test file holds one or more lines

    // expect-error: <substring>

and optionally one line `// compile-flags: <flags>` whose flags are added
after the probe's (a later -std= wins over the probe's); such a file is
compiled without the precompiled header, which was built with the probe's flags.

The file is compiled with -fsyntax-only using the compile command CMake
generated for a probe source (found in compile_commands.json), i.e. with the
same compiler, flags, definitions and include directories as the real test
targets. The test passes only if compilation fails AND every expected
substring occurs in the compiler's output.

Exit status: 0 pass, 1 fail, 2 runner error (bad test file, missing probe, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

EXPECT_RE = re.compile(r"//\s*expect-error:\s*(.*?)\s*$")
NOTE_RE = re.compile(r"//\s*expect-note:\s*(.*?)\s*$")
FLAGS_RE = re.compile(r"^//\s*compile-flags:\s*(.*?)\s*$", re.MULTILINE)

# Options (with a separate value) that must not be carried over from the
# probe's command: output and dependency files.
DROP_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
# -Werror too (CI's NAMPI_WERROR build): a compile-fail case is broken code on purpose, and an
# unused variable in it is not the error it checks.
DROP_ALONE = {"-c", "-MD", "-MMD", "-fsyntax-only", "-Werror"}


def runner_error(msg: str) -> NoReturn:
    print(f"run_compile_fail: error: {msg}", file=sys.stderr)
    sys.exit(2)


def expected_errors(path: Path) -> list[str]:
    expected = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = EXPECT_RE.search(line)
        if m:
            if not m.group(1):
                runner_error(f"{path}:{lineno}: empty expect-error")
            expected.append(m.group(1))
    if not expected:
        runner_error(f"{path}: no '// expect-error: <substring>' line")
    return expected


def expected_notes(path: Path) -> list[str]:
    return [m.group(1) for line in path.read_text(encoding="utf-8").splitlines() if (m := NOTE_RE.search(line))]


def probe_command(compile_commands: Path, probe: Path) -> tuple[list[str], str]:
    try:
        entries = json.loads(compile_commands.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        runner_error(f"cannot read {compile_commands}: {e}")
    probe_real = os.path.realpath(probe)
    for entry in entries:
        directory = entry.get("directory", ".")
        file = os.path.realpath(os.path.join(directory, entry["file"]))
        if file == probe_real:
            if "arguments" in entry:
                args = list(entry["arguments"])
            else:
                args = shlex.split(entry["command"])
            return args, directory
    runner_error(f"{probe} not found in {compile_commands}")


# A source that defines or undefines a macro changes what the headers declare: it cannot
# use the precompiled header (forced in with `-include .../cmake_pch.hxx`), built without it.
MACRO_RE = re.compile(r"^\s*#\s*(define|undef)\b", re.MULTILINE)


def changes_macros(source: Path) -> bool:
    return MACRO_RE.search(source.read_text(encoding="utf-8")) is not None


def extra_flags(source: Path) -> list[str]:
    m = FLAGS_RE.search(source.read_text(encoding="utf-8"))
    return shlex.split(m.group(1)) if m else []


def build_command(args: list[str], directory: str, probe: Path, source: Path) -> list[str]:
    probe_real = os.path.realpath(probe)
    flags = extra_flags(source)
    no_pch = changes_macros(source) or bool(flags)
    out = [args[0]]
    skip = False
    for i, arg in enumerate(args[1:], 1):
        if skip:
            skip = False
            continue
        if no_pch and arg == "-Winvalid-pch":
            continue
        if no_pch and arg == "-include" and i + 1 < len(args) and args[i + 1].endswith("cmake_pch.hxx"):
            skip = True
            continue
        if arg in DROP_WITH_VALUE:
            skip = True
            continue
        if arg in DROP_ALONE or (arg.startswith("-o") and len(arg) > 2):
            continue
        if os.path.realpath(os.path.join(directory, arg)) == probe_real:
            continue
        out.append(arg)
    return out + flags + ["-fsyntax-only", "-fdiagnostics-color=never", str(source.resolve())]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compile-commands", required=True, type=Path)
    ap.add_argument("--probe", required=True, type=Path,
                    help="source whose compile command is reused")
    ap.add_argument("source", type=Path)
    ns = ap.parse_args()

    if not ns.source.is_file():
        runner_error(f"{ns.source}: no such file")
    expected = expected_errors(ns.source)
    notes = expected_notes(ns.source)
    args, directory = probe_command(ns.compile_commands, ns.probe)
    cmd = build_command(args, directory, ns.probe, ns.source)

    # C locale: plain ASCII quotes in diagnostics, so expectations can use '...'.
    env = dict(os.environ, LC_ALL="C", LANG="C")
    print("$ " + shlex.join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=directory, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    output = proc.stdout
    sys.stdout.write(output)

    if proc.returncode == 0:
        print(f"FAIL: {ns.source.name} compiled, but it must not", flush=True)
        return 1
    missing = [e for e in expected + notes if e not in output]
    for e in expected + notes:
        print(f"  {'missing' if e in missing else 'found  '}: {e}")
    if missing:
        print(f"FAIL: compilation failed, but {len(missing)} expected error(s) or note(s) "
              "did not appear in the output", flush=True)
        return 1
    # Misuse must give one message per expected error, not a cascade.
    error_lines = [line for line in output.splitlines() if " error: " in line or line.startswith("error: ")]
    if len(error_lines) != len(expected):
        print(f"FAIL: {len(error_lines)} error line(s), expected exactly {len(expected)} "
              "(a misuse must give one message, not a cascade)", flush=True)
        return 1
    print(f"PASS: {ns.source.name} failed to compile with all {len(expected)} "
          "expected error(s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
