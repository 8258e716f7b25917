#!/usr/bin/env python3
"""Compile time of nampi against plain MPI (issue 14, item 6).

    .venv/bin/python bench/compile_time.py --mpi mpich                      # make bench-compile
    .venv/bin/python bench/compile_time.py --mpi mpich --tree old=/tmp/wt   # + another checkout

Compiles, with the exact commands of the bench build (build/bench-<mpi>/compile_commands.json,
`-O2 -DNDEBUG`), the nampi and the plain MPI source of every bench/apps/*/ and of every
bench/compile/*/: include_only (`#include <nampi/nampi.hpp>` against `#include <mpi.h>`),
include_lean (the README's lighter include: <nampi/communicator.hpp> and
<nampi/environment.hpp>), include_core (<nampi/core.hpp>: every call declared, none defined),
one_allgatherv_core (one_allgatherv with <nampi/core.hpp> and <nampi/calls/allgatherv.hpp>), include_global (<nampi/nampi.hpp> and <nampi/global.hpp>: against
include_only, what the global layer adds), header_floor (`#include <nampi/nampi.hpp>` against `<mpi.h>` and
every standard or system header that nampi's headers include, found with `-H` at each run, so
it follows the headers: the floor that nampi's own headers add to), eight_allgathervs (eight instances of one call: what each costs
once the headers are paid), one_allgatherv (one of them: against eight_allgathervs, what each
further instance costs) and vector_allgather_headers (that app's plain MPI program with
<nampi/nampi.hpp> included and unused: the headers' share of the app's ratio). An app whose
nampi.cpp has a NAMPI_BENCH_LEAN include block (<nampi/core.hpp> and the families it calls) is
compiled a third time that way, as the bench build's <app>_nampi_lean: variant nampi_lean, the
same program on the lean include and nampi::compiled (NAMPI_COMPILED_RUNTIME: the runtime's
out-of-line functions come from that library, compiled once per build). Each round
compiles every unit once, one at a time: the units in a new order, and each unit's variants one
right after another, so that a ratio compares compiles seconds apart; the figure is the median
CPU time (user + system of the compiler and its children) over the rounds, and the ratio the
median of the rounds' ratios (each round's ratios are in the JSON, "ratios").
This machine's speed drifts by tens of per cent within minutes, so only figures of one run are
compared, and each nampi unit is also given as a ratio to its plain MPI twin of the same round.

`--tree name=path` compiles the nampi units a second time against the headers of another
checkout (its runtime/include and generated/include in place of this one's), in the same
rounds: what a change bought, measured side by side.

`--pch` adds the precompiled-header figures of the README's advice: each variant's library
header (<nampi/nampi.hpp>; <mpi.h> for plain MPI) is precompiled once with the units' flags,
and every unit is compiled again with it (`-include`), in the same rounds. The ratio of these
is nampi+pch / mpi+pch; what building each header costs once is reported beside them.

Writes bench/results/<mpi>/compile_time.json; bench/summary.py adds it to summary.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
COMPILE_UNITS = BENCH / "compile"  # <unit>/nampi.cpp and <unit>/mpi.cpp, compiled with the apps' flags


def commands(build: Path) -> dict[str, dict]:
    """'<folder>/<variant>' -> compile command (argv, directory) of the bench build."""
    entries = json.loads((build / "compile_commands.json").read_text())
    out = {}
    for e in entries:
        src = Path(e["file"])
        if src.name in ("nampi.cpp", "mpi.cpp") and src.parent.parent.name == "apps":
            argv = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
            if any(a.startswith("-DNAMPI_ERRORS_ARE_FATAL") for a in argv):
                continue  # the errors-fatal twin of a program, built from the same source
            # The lean twin: the same source on <nampi/core.hpp> and the families it calls.
            variant = "nampi_lean" if any(a.startswith("-DNAMPI_BENCH_LEAN") for a in argv) else src.stem
            out[f"{src.parent.name}/{variant}"] = {"argv": argv, "directory": e["directory"], "file": str(src)}
    return out


def app_commands(found: dict[str, dict], app: str) -> dict[str, dict]:
    """An app's variants: nampi, mpi and, where its nampi.cpp has the block, nampi_lean."""
    return {v: found[f"{app}/{v}"] for v in ("nampi", "mpi", "nampi_lean") if f"{app}/{v}" in found}


def with_source(cmd: dict, source: Path) -> dict:
    argv = [str(source) if a == cmd["file"] else a for a in cmd["argv"]]
    return {**cmd, "argv": argv, "file": str(source)}


def with_includes(cmd: dict, swap: dict[Path, Path]) -> dict:
    """The command with each include directory `old` of `swap` replaced by its `new`."""
    argv = []
    for a in cmd["argv"]:
        for old, new in swap.items():
            if a.endswith(str(old)):
                a = a[: -len(str(old))] + str(new)
        argv.append(a)
    return {**cmd, "argv": argv}


def with_tree(cmd: dict, tree: Path) -> dict:
    """The command with this checkout's nampi include directories replaced by `tree`'s."""
    return with_includes(cmd, {ROOT / d: tree / d for d in ("runtime/include", "generated/include")})


def with_pch(cmd: dict, header: Path) -> dict:
    """The command with `header` included first: GCC takes header.gch when its flags match."""
    argv = list(cmd["argv"])
    argv[1:1] = ["-include", str(header), "-Winvalid-pch"]
    return {**cmd, "argv": argv}


def build_pch(cmd: dict, library_header: str, where: Path) -> tuple[Path, float]:
    """Precompiles `#include <library_header>` with the unit's flags; (header, CPU s)."""
    where.mkdir(parents=True, exist_ok=True)
    header = where / "library.hpp"
    header.write_text(f"#include <{library_header}>\n")
    argv = list(cmd["argv"])
    at = argv.index(cmd["file"])
    argv[at:at + 1] = ["-x", "c++-header", str(header)]
    argv[argv.index("-o") + 1] = str(header) + ".gch"
    return header, cpu_seconds({**cmd, "argv": argv}, Path(str(header) + ".gch"))


def floor_source(cmd: dict, where: Path) -> Path:
    """A unit that includes what `cmd`'s unit (#include <nampi/nampi.hpp>) reaches outside
    nampi: every header a nampi header includes that is not nampi's own (<mpi.h>, <vector>,
    ...), by the path the compiler found, in the order it met them. Its compile time is the
    floor under nampi's own headers."""
    argv = [a for a in cmd["argv"]]
    argv[argv.index("-o"):argv.index("-o") + 2] = []
    argv += ["-H", "-fsyntax-only"]
    proc = subprocess.run(argv, cwd=cmd["directory"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"compile failed: {shlex.join(argv)}\n{proc.stderr[-2000:]}")
    own = [str(ROOT / "runtime/include"), str(ROOT / "generated/include"), "/nampi/include/nampi/"]
    stack: list[str] = [cmd["file"]]  # the includer at each depth
    reached: list[str] = []
    for line in proc.stderr.splitlines():
        dots, _, path = line.partition(" ")
        if not dots or set(dots) != {"."}:
            continue
        depth = len(dots)
        del stack[depth:]
        includer = stack[-1]
        path = os.path.normpath(os.path.join(cmd["directory"], path))
        stack.append(path)
        nampi_includer = includer == cmd["file"] or any(o in includer for o in own)
        if nampi_includer and not any(o in path for o in own) and path not in reached:
            reached.append(path)
    where.mkdir(parents=True, exist_ok=True)
    source = where / "floor.cpp"
    source.write_text("".join(f'#include "{h}"\n' for h in reached) + "\nint main() { return 0; }\n")
    return source


def cpu_seconds(cmd: dict, out: Path) -> float:
    argv = list(cmd["argv"])
    argv[argv.index("-o") + 1] = str(out)
    proc = subprocess.Popen(argv, cwd=cmd["directory"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"compile failed: {shlex.join(argv)}\n{err[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def spread(variant: dict) -> str:
    """The lowest and highest of a variant's per-round ratios."""
    return f"[{min(variant['ratios']):.2f}-{max(variant['ratios']):.2f}]"


def paired_order(jobs: list[tuple[str, str, list[str]]], rng: random.Random) -> list[tuple[str, str, list[str]]]:
    """One round's order: the units shuffled, and each unit's variants (plain MPI, nampi, the
    lean include, other trees, with PCH) one right after another, shuffled too. A ratio then
    compares compiles made seconds apart: with every job shuffled alone, twins compiled minutes
    apart, and an app's per-round ratios spread by about 0.5 (the median over the apps of two
    runs on 2026-11-30; array_average's lean twin 0.86-1.42) against 0.37 paired."""
    by_unit: dict[str, list[tuple[str, str, list[str]]]] = {}
    for job in jobs:
        by_unit.setdefault(job[0], []).append(job)
    units = list(by_unit)
    rng.shuffle(units)
    order = []
    for u in units:
        variants = list(by_unit[u])
        rng.shuffle(variants)
        order += variants
    return order


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mpi", default="mpich")
    p.add_argument("--build-dir", type=Path, help="default: build/bench-<mpi>")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--tree", action="append", default=[], help="name=path of another checkout")
    p.add_argument("--out", type=Path, help="default: bench/results/<mpi>/compile_time.json")
    p.add_argument("--pch", action="store_true", help="also compile every unit with its library header precompiled")
    args = p.parse_args()
    build = args.build_dir or ROOT / "build" / f"bench-{args.mpi}"
    found = commands(build)
    apps = sorted({k.split("/")[0] for k in found if f"{k.split('/')[0]}/mpi" in found and f"{k.split('/')[0]}/nampi" in found})
    if not apps:
        raise SystemExit(f"no app compile commands in {build}/compile_commands.json (make bench-build MPI={args.mpi})")
    units = {}
    for app in apps:
        units[f"apps/{app}"] = app_commands(found, app)
    # The units of bench/compile/ take the flags of the first app's two commands.
    first = units[f"apps/{apps[0]}"]
    for unit in sorted(d for d in COMPILE_UNITS.iterdir() if (d / "nampi.cpp").exists()):
        units[unit.name] = {v: with_source(first[v], unit / f"{v}.cpp") for v in ("nampi", "mpi")}
    floor_dir = build.resolve() / "compile-floor"  # rewritten at every run
    units["header_floor"] = {"nampi": units["include_only"]["nampi"],
                             "mpi": with_source(first["mpi"], floor_source(units["include_only"]["nampi"], floor_dir))}
    trees = {}
    for t in args.tree:
        name, _, path = t.partition("=")
        trees[name] = Path(path).resolve()
    jobs = [(u, v, cmd) for u, cmds in units.items() for v, cmd in cmds.items()]
    jobs += [(u, f"nampi@{name}", with_tree(cmds["nampi"], tree)) for name, tree in trees.items() for u, cmds in units.items()]
    pch_build = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.pch:
            for v, library_header in (("nampi", "nampi/nampi.hpp"), ("mpi", "mpi.h")):
                header, seconds = build_pch(first[v], library_header, Path(tmp) / f"pch-{v}")
                pch_build[v] = round(seconds, 3)
                jobs += [(u, f"{v}+pch", with_pch(cmds[v], header)) for u, cmds in units.items()]
        samples: dict[tuple[str, str], list[float]] = {(u, v): [] for u, v, _ in jobs}
        ratios: dict[tuple[str, str], list[float]] = {(u, v): [] for u, v, _ in jobs if not v.startswith("mpi")}
        start = time.perf_counter()
        rng = random.Random(14)
        for r in range(args.rounds):
            this_round = {}
            for u, v, cmd in paired_order(jobs, rng):
                this_round[(u, v)] = cpu_seconds(cmd, Path(tmp) / "unit.o")
            for key, s in this_round.items():
                samples[key].append(round(s, 3))
                if key in ratios:
                    base = "mpi+pch" if key[1] == "nampi+pch" else "mpi"
                    ratios[key].append(s / this_round[(key[0], base)])
            print(f"round {r + 1}/{args.rounds} done ({time.perf_counter() - start:.0f} s)", flush=True)
    result = {
        "mpi": args.mpi, "rounds": args.rounds, "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "cpus": os.cpu_count(), "trees": {k: str(v) for k, v in trees.items()},
        "pch_build_cpu_s": pch_build,
        "compiler": subprocess.run([found[f"{apps[0]}/nampi"]["argv"][0], "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        "units": {},
    }
    for u in units:
        row = {}
        lean = ["nampi_lean"] if "nampi_lean" in units[u] else []
        for v in ["mpi", "nampi", *lean, *[f"nampi@{n}" for n in trees], *(["mpi+pch", "nampi+pch"] if args.pch else [])]:
            row[v] = {"cpu_s": samples[(u, v)], "median_cpu_s": statistics.median(samples[(u, v)])}
            if not v.startswith("mpi"):
                row[v]["median_ratio"] = round(statistics.median(ratios[(u, v)]), 3)
                row[v]["ratios"] = [round(x, 3) for x in ratios[(u, v)]]
        result["units"][u] = row
    out = args.out or BENCH / "results" / args.mpi / "compile_time.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{'unit':<28} {'mpi s':>7} {'nampi s':>8} {'ratio':>6} [rounds]" + "".join(f" {'@' + n:>12}" for n in trees))
    for u, row in result["units"].items():
        line = f"{u:<28} {row['mpi']['median_cpu_s']:7.2f} {row['nampi']['median_cpu_s']:8.2f} {row['nampi']['median_ratio']:6.2f} {spread(row['nampi'])}"
        if "nampi_lean" in row:
            line += f"  lean {row['nampi_lean']['median_cpu_s']:.2f} ({row['nampi_lean']['median_ratio']:.2f} {spread(row['nampi_lean'])})"
        line += "".join(f" {row[f'nampi@{n}']['median_cpu_s']:6.2f} ({row[f'nampi@{n}']['median_ratio']:.2f})" for n in trees)
        if args.pch:
            line += f"  pch: mpi {row['mpi+pch']['median_cpu_s']:.2f} nampi {row['nampi+pch']['median_cpu_s']:.2f} ({row['nampi+pch']['median_ratio']:.2f})"
        print(line)
    if args.pch:
        print(f"precompiling the library header once: {pch_build} CPU s")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
