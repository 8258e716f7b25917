"""Compile cost as the instructions the compiler executes (callgrind on cc1plus), for the units
of bench/compile_time.py: deterministic to the million, where CPU seconds on a shared machine
drift by tens of per cent within minutes. One run per unit and variant is enough.

    .venv/bin/python bench/compile_instructions.py [--units include_only,apps/vector_allgather]
        [--tree base=/path/to/other/checkout] [-j 2]

Units are named as in compile_time.py (include_only, one_allgatherv, eight_allgathervs,
header_floor, apps/<name>, ...); the default is include_only, one_allgatherv and
eight_allgathervs. An app with a lean twin (nampi_lean: <nampi/core.hpp> and the families it
calls, on nampi::compiled) is measured in that variant too. Each is compiled with the bench build's exact command (make bench-configure)
under `valgrind --tool=callgrind --trace-children=yes`; the figure is the largest process's
instruction count (cc1plus; the driver and the assembler are small). `--tree` compiles the nampi
variant again against another checkout's headers (a unit that includes a header the other
checkout lacks gets no figure there). `--split` compiles each once more with
`-fsyntax-only` (parsing and template instantiation only): that is the front end's share, and
the rest (optimisation and code generation of what the unit uses) the back end's. Prints a table
and writes bench/results/<mpi>/compile_instructions.json. About a minute per unit and variant.
`--without-calls` adds, for include_only, the variant nampi-without-calls: the same headers with
every generated call family emptied (its tags and family class kept; no checks, entries or
bodies). That is what the runtime alone costs such a unit, and the difference what the
generated calls cost it.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compile_time import BENCH, COMPILE_UNITS, ROOT, app_commands, commands, floor_source, with_includes, with_source, with_tree  # noqa: E402


def instructions(cmd: dict, front_end_only: bool = False) -> int:
    """Instructions of the largest process of `cmd` under callgrind (its output to /dev/null);
    with `front_end_only`, of its parse and template instantiation (-fsyntax-only)."""
    argv = list(cmd["argv"]) + (["-fsyntax-only"] if front_end_only else [])
    argv[argv.index("-o") + 1] = "/dev/null"
    argv = [a for a in argv if a not in ("-MD",)]
    if "-MF" in argv:
        at = argv.index("-MF")
        del argv[at:at + 2]
    if "-MT" in argv:
        at = argv.index("-MT")
        del argv[at:at + 2]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                               f"--callgrind-out-file={tmp}/cg.%p", *argv],
                              cwd=cmd["directory"], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"compile failed: {shlex.join(argv)}\n{proc.stderr[-2000:]}")
        best = 0
        for out in Path(tmp).glob("cg.*"):
            for line in out.read_text(errors="replace").splitlines():
                if line.startswith(("totals:", "summary:")):
                    best = max(best, int(line.split()[1]))
                    break
        return best


def without_calls(where: Path) -> Path:
    """A copy of generated/include whose call families (generated/<group>/<family>.hpp) keep
    only their includes, empty tags and empty family class templates: every name the runtime
    and the group headers use stays declared, no call is. Returns the copy's include folder."""
    copy = where / "generated-without-calls"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(ROOT / "generated" / "include", copy)
    emptied = 0
    for header in sorted(copy.glob("nampi/generated/*/*.hpp")):
        text = header.read_text()
        families = re.findall(r"^class (\w+_family) \{", text, re.M)
        if not families:
            continue
        tags = re.findall(r"^struct (\w+) : nampi::detail::tag_defaults", text, re.M)
        includes = re.findall(r"^#include .*$", text, re.M)
        header.write_text("\n".join(["#pragma once", *includes, "namespace nampi::call {",
                                     *(f"struct {t} : nampi::detail::tag_defaults {{}};" for t in tags),
                                     "}", "namespace nampi::generated {",
                                     *(f"template <typename Comm> class {c} {{}};" for c in families),
                                     "}", ""]))
        emptied += 1
    if emptied == 0:
        raise SystemExit("--without-calls: no call family found under generated/include/nampi/generated/*/")
    for definitions in copy.glob("nampi/calls/*.hpp"):  # each family's definitions (nampi/calls/)
        definitions.write_text("#pragma once\n")
    return copy


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mpi", default="mpich")
    p.add_argument("--build-dir", type=Path, help="default: build/bench-<mpi>")
    p.add_argument("--units", default="include_only,one_allgatherv,eight_allgathervs")
    p.add_argument("--tree", action="append", default=[], help="name=path of another checkout")
    p.add_argument("--split", action="store_true",
                   help="also the front end alone (-fsyntax-only): rows <unit>/front and <unit>/back")
    p.add_argument("--without-calls", action="store_true",
                   help="also include_only against the headers without generated calls (nampi-without-calls)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, help="default: bench/results/<mpi>/compile_instructions.json")
    args = p.parse_args()
    build = args.build_dir or ROOT / "build" / f"bench-{args.mpi}"
    found = commands(build)
    apps = sorted({k.split("/")[0] for k in found})
    if not apps:
        raise SystemExit(f"no app compile commands in {build}/compile_commands.json (make bench-configure MPI={args.mpi})")
    first = {v: found[f"{apps[0]}/{v}"] for v in ("nampi", "mpi")}
    units = {}
    for name in args.units.split(","):
        if name.startswith("apps/"):
            app = name.split("/", 1)[1]
            units[name] = app_commands(found, app)
        elif name == "header_floor":
            include_only = with_source(first["nampi"], COMPILE_UNITS / "include_only" / "nampi.cpp")
            units[name] = {"mpi": with_source(first["mpi"], floor_source(include_only, build.resolve() / "compile-floor"))}
        elif (COMPILE_UNITS / name / "nampi.cpp").exists():
            units[name] = {v: with_source(first[v], COMPILE_UNITS / name / f"{v}.cpp") for v in ("nampi", "mpi")}
        else:
            raise SystemExit(f"unknown unit {name!r}")
    trees = {n: Path(t).resolve() for n, _, t in (s.partition("=") for s in args.tree)}
    jobs = [(u, v, cmd) for u, cmds in units.items() for v, cmd in cmds.items()]
    jobs += [(u, f"nampi@{n}", with_tree(cmds["nampi"], tree)) for n, tree in trees.items()
             for u, cmds in units.items() if "nampi" in cmds]
    scratch = Path(tempfile.mkdtemp(prefix="nampi-compile-"))
    if args.without_calls:
        if "include_only" not in units:
            raise SystemExit("--without-calls measures include_only: add it to --units")
        stripped = without_calls(scratch)
        jobs.append(("include_only", "nampi-without-calls",
                     with_includes(units["include_only"]["nampi"], {ROOT / "generated/include": stripped})))
    runs = [(u, v, cmd, False) for u, v, cmd in jobs]
    runs += [(f"{u}/front", v, cmd, True) for u, v, cmd in jobs] if args.split else []
    start = time.perf_counter()
    def measure(run) -> int | None:
        try:
            return instructions(run[2], run[3])
        except SystemExit:
            if "@" in run[1]:  # another checkout without a header the unit includes: no figure
                return None
            raise

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        counts = {k: n for k, n in zip([(u, v) for u, v, _, _ in runs], pool.map(measure, runs)) if n is not None}
    result = {"mpi": args.mpi, "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
              "trees": {k: str(v) for k, v in trees.items()}, "units": {}}
    for (u, v), n in counts.items():
        result["units"].setdefault(u, {})[v] = n
    for u, v, _ in jobs if args.split else []:  # the back end: the whole compile less the front end
        if (u, v) in counts:
            result["units"].setdefault(f"{u}/back", {})[v] = counts[(u, v)] - counts[(f"{u}/front", v)]
    shutil.rmtree(scratch, ignore_errors=True)
    out = args.out or BENCH / "results" / args.mpi / "compile_instructions.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    variants = ["mpi", "nampi", *(["nampi_lean"] if any("nampi_lean" in c for c in units.values()) else []),
                *[f"nampi@{n}" for n in trees]]
    variants += ["nampi-without-calls"] if args.without_calls else []
    print(f"{'unit':<28}" + "".join(f" {v:>14}" for v in variants) + "   (M instructions)")
    for u, row in result["units"].items():
        print(f"{u:<28}" + "".join(f" {row[v] / 1e6:14,.0f}" if v in row else f" {'':>14}" for v in variants))
    print(f"{out} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
