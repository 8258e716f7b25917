#!/usr/bin/env python3
"""Runs the nampi benchmarks: every bench/micro/*/ and bench/apps/*/ with a bench.json.

    .venv/bin/python bench/run.py --mpi mpich --smoke    # each variant once, tiny sizes
    .venv/bin/python bench/run.py --mpi mpich            # full: hyperfine, callgrind, LOC, ...

The executables must be built first (`make bench` / `make bench-smoke` do both); see
bench/README.md for what every number means.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import callgrind
import loc

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
# Results other tools write beside the benchmarks' (bench/compile_time.py, bench/global_bench.py):
# a full run replaces its own stale files, not these.
OTHER_TOOLS_RESULTS = {"compile_time.json", "global.json"}
VARIANTS = ("nampi", "mpi")
FATAL = "nampi_fatal"  # nampi.cpp built with NAMPI_ERRORS_ARE_FATAL (callgrind only)
# nampi.cpp built with NAMPI_BENCH_LEAN, where it has that include block (<nampi/core.hpp> and the
# families it calls), linked to nampi::compiled: the smoke runs it beside nampi,
# bench/compile_time.py compiles it.
LEAN = "nampi_lean"
TOGGLE = "*bench::measure*"  # callgrind counts only inside bench::measure (see README)


# ---------------------------------------------------------------- discovery


@dataclass
class Bench:
    name: str  # row name, also the results file name
    folder: Path  # bench/<kind>/<folder>
    kind: str  # "micro" or "apps"
    case: str | None
    description: str
    configs: dict  # "full" / "smoke" / "callgrind" -> {"args": [...], "ranks": [...]}

    @property
    def target(self) -> str:
        return self.folder.name

    @property
    def label(self) -> str:
        return f"{self.kind}/{self.name}"


def expand_cases(spec: dict) -> list[tuple[str | None, dict]]:
    """[(case name or None, {"full": ..., "smoke": ..., "callgrind": ...})] of one bench.json.

    Optional "cases": {name: [extra args]} appends the extra args to every mode's args;
    {name: {"full": ..., ...}} replaces the given modes. One result row per case.
    """
    base = {k: spec[k] for k in ("full", "smoke", "callgrind") if k in spec}
    if not spec.get("cases"):
        return [(None, base)]
    result = []
    for case, extra in spec["cases"].items():
        if isinstance(extra, list):
            cfg = {k: {**v, "args": [*v["args"], *extra]} for k, v in base.items()}
        else:
            cfg = {**base, **{k: v for k, v in extra.items() if k in ("full", "smoke", "callgrind")}}
        result.append((case, cfg))
    return result


def discover(only: str | None) -> tuple[list[Bench], list[str]]:
    benches, skipped = [], []
    for kind in ("micro", "apps"):
        for d in sorted((BENCH / kind).glob("*/")):
            if not ((d / "nampi.cpp").is_file() and (d / "mpi.cpp").is_file()):
                skipped.append(f"{kind}/{d.name}: no nampi.cpp + mpi.cpp")
                continue
            if not (d / "bench.json").is_file():
                skipped.append(f"{kind}/{d.name}: no bench.json")
                continue
            spec = json.loads((d / "bench.json").read_text())
            for case, cfg in expand_cases(spec):
                name = d.name if case is None else f"{d.name}_{case}"
                for key in ("full", "smoke", "callgrind"):
                    if key not in cfg or "args" not in cfg[key] or "ranks" not in cfg[key]:
                        raise SystemExit(f"{d / 'bench.json'}: '{key}' needs 'args' and 'ranks'")
                b = Bench(name, d, kind, case, spec.get("description", ""), cfg)
                if only and not re.search(only, b.label):
                    continue
                benches.append(b)
    return benches, skipped


# ---------------------------------------------------------------- MPI and processes


@dataclass
class MPI:
    name: str
    prefix: Path
    flags: list[str] = field(default_factory=list)

    @property
    def mpiexec(self) -> str:
        return str(self.prefix / "bin" / "mpiexec")

    def launch(self, ranks: int) -> list[str]:
        extra = []
        if self.name == "mpich" and ranks > (os.cpu_count() or 1):
            # More ranks than cores: MPICH's shared-memory device collectives (release/gather)
            # busy-wait without yielding, which makes e.g. a 4-rank MPI_Allreduce of one int
            # take ~10 ms on 2 cores. The generic algorithms yield; both variants get them.
            extra = ["-genv", "MPIR_CVAR_DEVICE_COLLECTIVES", "none"]
        return [self.mpiexec, *self.flags, *extra, "-n", str(ranks)]

    def version(self) -> str:
        try:
            out = subprocess.run([self.mpiexec, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        m = re.search(r"(\d+\.\d+(?:\.\d+)?)", out)
        label = {"mpich": "MPICH", "openmpi": "Open MPI"}[self.name]
        return f"{label} {m.group(1) if m else '(unknown version)'}"


def mpi_config(name: str) -> MPI:
    if name == "mpich":
        return MPI(name, ROOT / ".venv")
    flags = ["--oversubscribe", "--mca", "btl", "^ofi"]
    if os.geteuid() == 0:
        flags.append("--allow-run-as-root")
    return MPI(name, ROOT / ".venv-openmpi", flags)


def run(cmd: list[str], timeout: float, cwd: Path | None = None) -> tuple[int, str, str]:
    """Runs cmd in its own process group; on timeout the whole group is killed."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return -1, out, err + f"\n(timed out after {timeout:.0f} s)"
    return proc.returncode, out, err


def result_lines(text: str) -> list[dict]:
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict) and "seconds" in obj and "checksum" in obj:
                lines.append(obj)
    return lines


def tail(text: str, n: int = 12) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


def exe(build: Path, b: Bench, variant: str) -> Path:
    return build / f"{b.target}_{variant}"


def check_built(build: Path, benches: list[Bench]) -> None:
    missing = [str(exe(build, b, v)) for b in benches for v in VARIANTS + (FATAL,)
               if not exe(build, b, v).is_file()]
    if missing:
        raise SystemExit("not built (run `make bench-smoke` or `make bench`):\n  " +
                         "\n  ".join(missing))


# ---------------------------------------------------------------- smoke


def smoke(benches: list[Bench], mpi: MPI, build: Path) -> int:
    failures = []
    print(f"{'benchmark':<36} {'ranks':>5} {'nampi s':>12} {'mpi s':>12}  checksum")
    for b in benches:
        cfg = b.configs["smoke"]
        for ranks in cfg["ranks"]:
            got = {}
            for v in VARIANTS:
                cmd = mpi.launch(ranks) + [str(exe(build, b, v)), *cfg["args"]]
                rc, out, err = run(cmd, timeout=90)
                lines = result_lines(out)
                if rc != 0 or len(lines) != 1:
                    failures.append(f"{b.label} {v} -n {ranks}: exit {rc}, {len(lines)} result "
                                    f"lines\n  $ {shlex.join(cmd)}\n{tail(out + err)}")
                    continue
                r = lines[0]
                if r.get("variant") != v or r.get("ranks") != ranks:
                    failures.append(f"{b.label} {v} -n {ranks}: result line says variant "
                                    f"{r.get('variant')!r}, ranks {r.get('ranks')!r}")
                got[v] = r
            if len(got) == 2:
                same = str(got["nampi"]["checksum"]) == str(got["mpi"]["checksum"])
                print(f"{b.label:<36} {ranks:>5} {got['nampi']['seconds']:>12.4g} "
                      f"{got['mpi']['seconds']:>12.4g}  "
                      f"{'same' if same else 'DIFFERENT'} ({got['nampi']['checksum']})", flush=True)
                if not same:
                    failures.append(f"{b.label} -n {ranks}: checksums differ: nampi "
                                    f"{got['nampi']['checksum']} vs mpi {got['mpi']['checksum']}")
            else:
                print(f"{b.label:<36} {ranks:>5} {'FAILED':>12}", flush=True)
            if exe(build, b, LEAN).exists() and "nampi" in got:
                cmd = mpi.launch(ranks) + [str(exe(build, b, LEAN)), *cfg["args"]]
                rc, out, err = run(cmd, timeout=90)
                lines = result_lines(out)
                if rc != 0 or len(lines) != 1 or str(lines[0].get("checksum")) != str(got["nampi"]["checksum"]):
                    failures.append(f"{b.label} {LEAN} -n {ranks}: exit {rc}, {len(lines)} result lines, "
                                    f"not nampi's checksum {got['nampi']['checksum']}\n  $ {shlex.join(cmd)}\n"
                                    f"{tail(out + err)}")
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    return len(failures)


# ---------------------------------------------------------------- compile time, size, LOC


def compile_commands(build: Path) -> dict[str, dict]:
    """target name (<folder>_<variant>) -> compile_commands.json entry."""
    entries = json.loads((build / "compile_commands.json").read_text())
    result = {}
    for e in entries:
        src = Path(e["file"])
        if src.name in ("nampi.cpp", "mpi.cpp"):
            result[f"{src.parent.name}_{src.stem}"] = e
    return result


def timed_compile(entry: dict, out: Path) -> tuple[float, float]:
    """(wall s, CPU s of the compiler and its children) of one compile command."""
    argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    argv[argv.index("-o") + 1] = str(out)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=entry["directory"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"compile failed: {shlex.join(argv)}\n{tail(err)}")
    return wall, usage.ru_utime + usage.ru_stime


def measure_compile(benches: list[Bench], build: Path, repeats: int, jobs: int) -> dict:
    commands = compile_commands(build)
    targets = sorted({f"{b.target}_{v}" for b in benches for v in VARIANTS})
    missing = [t for t in targets if t not in commands]
    if missing:
        raise SystemExit(f"no compile command for {missing} in {build}/compile_commands.json")
    results: dict[str, dict] = {t: {"wall_s": [], "cpu_s": []} for t in targets}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=jobs) as pool:
        jobs_list = [(t, r) for r in range(repeats) for t in targets]  # interleaved variants
        futures = [(t, pool.submit(timed_compile, commands[t], Path(tmp) / f"{t}.{r}.o"))
                   for t, r in jobs_list]
        for t, fut in futures:
            wall, cpu = fut.result()
            results[t]["wall_s"].append(round(wall, 4))
            results[t]["cpu_s"].append(round(cpu, 4))
    for t, r in results.items():
        r["median_wall_s"] = statistics.median(r["wall_s"])
        r["median_cpu_s"] = statistics.median(r["cpu_s"])
        path = build / t
        text = None
        size = subprocess.run(["size", str(path)], capture_output=True, text=True)
        if size.returncode == 0 and len(size.stdout.splitlines()) >= 2:
            text = int(size.stdout.splitlines()[1].split()[0])
        r["binary_bytes"] = path.stat().st_size
        r["text_bytes"] = text
    return results


# ---------------------------------------------------------------- hyperfine


def hyperfine_pair(b: Bench, mpi: MPI, build: Path, hyperfine: str, ranks: int, work: Path,
                   warmup: int, runs: int) -> dict:
    args = b.configs["full"]["args"]
    work.mkdir(parents=True, exist_ok=True)
    outs = {v: work / f"{v}.out" for v in VARIANTS}
    cmds = []
    for v in VARIANTS:
        outs[v].write_text("")
        argv = mpi.launch(ranks) + [str(exe(build, b, v)), *args]
        cmds.append(f"{shlex.join(argv)} >> {shlex.quote(str(outs[v]))}")
    # Rounds of one run per variant, the order alternating, rather than all runs of one variant
    # and then all of the other: slow phases of the machine (other load, memory state; MPICH's
    # large-message timings are bimodal here) then hit both variants alike.
    result: dict = {"ranks": ranks, "args": args, "commands": dict(zip(VARIANTS, cmds)),
                    "errors": []}
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(runs):
        order = VARIANTS if r % 2 == 0 else VARIANTS[::-1]
        export = work / f"hyperfine.{r}.json"
        cmd = [hyperfine, "--warmup", str(warmup if r == 0 else 0), "--runs", "1",
               "--style", "basic", "--export-json", str(export)]
        for v in order:
            cmd += ["-n", v, cmds[VARIANTS.index(v)]]
        rc, out, err = run(cmd, timeout=900)
        if rc != 0:
            result["errors"].append(f"hyperfine failed (exit {rc}):\n{tail(out + err, 20)}")
            return result
        for res in json.loads(export.read_text())["results"]:
            times[res["command"]] += res["times"]
    result["hyperfine"] = {}
    for v in VARIANTS:
        ts = times[v]
        result["hyperfine"][v] = {"median": statistics.median(ts), "mean": statistics.fmean(ts),
                                  "stddev": statistics.stdev(ts) if len(ts) > 1 else None,
                                  "min": min(ts), "max": max(ts), "times": ts}
    result["program"] = {}
    checksums = {}
    for v in VARIANTS:
        lines = result_lines(outs[v].read_text())
        if len(lines) != warmup + runs:
            result["errors"].append(f"{v}: {len(lines)} result lines, expected {warmup + runs}")
        timed = lines[warmup:]
        seconds = [float(l["seconds"]) for l in timed]
        result["program"][v] = {"seconds": seconds,
                                "median": statistics.median(seconds) if seconds else None}
        checksums[v] = sorted({str(l["checksum"]) for l in lines})
    result["checksums"] = checksums
    if any(len(c) != 1 for c in checksums.values()) or checksums["nampi"] != checksums["mpi"]:
        result["errors"].append(f"checksums differ: {checksums}")
    hf = result["hyperfine"]
    result["time_ratio"] = hf["nampi"]["median"] / hf["mpi"]["median"]
    p = result["program"]
    if p["nampi"]["median"] and p["mpi"]["median"]:
        result["program_ratio"] = p["nampi"]["median"] / p["mpi"]["median"]
    return result


# ---------------------------------------------------------------- callgrind


def callgrind_variant(b: Bench, mpi: MPI, build: Path, variant: str, work: Path) -> dict:
    cfg = b.configs["callgrind"]
    ranks = cfg["ranks"][0]
    is_mpi = callgrind.prefix_matcher(mpi.prefix)
    info: dict = {"ranks": ranks, "args": cfg["args"]}
    for region, extra in (("bench::measure", [f"--toggle-collect={TOGGLE}"]), ("program", [])):
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        cmd = mpi.launch(ranks) + ["valgrind", "-q", "--tool=callgrind", *extra,
                                   f"--callgrind-out-file={work}/cg.%p",
                                   str(exe(build, b, variant)), *cfg["args"]]
        rc, out, err = run(cmd, timeout=600)
        info["command"] = shlex.join(cmd)
        if rc != 0:
            info["error"] = f"exit {rc}:\n{tail(out + err)}"
            return info
        counts = callgrind.parse_all(work.glob("cg.*"), is_mpi)
        if counts.total > 0:  # else the program never called bench::measure: count all of it
            break
    info["region"] = region
    info["files"] = len(list(work.glob("cg.*")))
    info["ir_total"] = counts.total
    info["ir_mpi"] = counts.mpi
    info["ir_outside_mpi"] = counts.outside_mpi
    calls: dict[str, int] = {}
    for fn, n in counts.mpi_calls.items():
        m = re.match(r"P?(MPIX?_\w+)", fn)
        if m:
            calls[m.group(1)] = calls.get(m.group(1), 0) + n
    info["mpi_calls"] = dict(sorted(calls.items()))
    return info


def alternatives(b: Bench) -> list[str]:
    """Further plain MPI versions, micro/<name>/mpi_<how>.cpp (e.g. an algorithm by hand)."""
    return sorted(p.stem for p in b.folder.glob("mpi_*.cpp"))


def callgrind_pair(b: Bench, mpi: MPI, build: Path, work: Path) -> dict:
    variants = VARIANTS + (FATAL,) + tuple(alternatives(b))
    result = {v: callgrind_variant(b, mpi, build, v, work / v) for v in variants}
    errors = [f"{v}: {result[v]['error']}" for v in variants if "error" in result[v]]
    result["errors"] = errors
    if not errors:
        n, m, f = result["nampi"], result["mpi"], result[FATAL]
        result["ir_ratio"] = n["ir_outside_mpi"] / m["ir_outside_mpi"] if m["ir_outside_mpi"] else None
        result["ir_ratio_fatal"] = f["ir_outside_mpi"] / m["ir_outside_mpi"] if m["ir_outside_mpi"] else None
        # Extra instructions per MPI call, per rank: what the ratio means in absolute terms.
        calls = sum(m["mpi_calls"].values())
        result["ir_per_call"] = (n["ir_outside_mpi"] - m["ir_outside_mpi"]) / calls if calls else None
        result["total_ratio"] = n["ir_total"] / m["ir_total"] if m["ir_total"] else None
        # Which MPI functions are called, not how often: callgrind's call counts inside a
        # --toggle-collect region can be off by one or two at the region's boundaries.
        result["mpi_calls_equal"] = set(n["mpi_calls"]) == set(m["mpi_calls"])
        result["region"] = n["region"] if n["region"] == m["region"] else "mixed"
        # nampi against each further plain version (outside MPI, as ir_ratio).
        result["ir_ratio_alternatives"] = {
            v: n["ir_outside_mpi"] / result[v]["ir_outside_mpi"]
            for v in alternatives(b) if result[v]["ir_outside_mpi"]}
    return result


# ---------------------------------------------------------------- full run


def find_hyperfine(given: str | None) -> str:
    for candidate in (given, shutil.which("hyperfine"),
                      str(ROOT / ".deps/hyperfine/usr/bin/hyperfine")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise SystemExit("hyperfine not found (make bench fetches it into .deps/hyperfine)")


def full(benches: list[Bench], mpi: MPI, build: Path, results: Path, args) -> int:
    hyperfine = find_hyperfine(args.hyperfine)
    phases: dict[str, float] = {}
    work = build / "runs"
    errors: list[str] = []

    start = time.perf_counter()
    print("== compile time (CPU s, median of "
          f"{args.compile_repeats}) and binary size", flush=True)
    compiled = {} if args.skip_compile else measure_compile(benches, build, args.compile_repeats,
                                                            args.jobs)
    phases["compile"] = time.perf_counter() - start

    records = {}
    for b in benches:
        rec = {"name": b.name, "kind": b.kind, "folder": f"{b.kind}/{b.folder.name}",
               "case": b.case, "description": b.description, "configs": b.configs,
               "loc": {v: loc.count_lines(b.folder / f"{v}.cpp") for v in VARIANTS},
               "compile": {v: compiled.get(f"{b.target}_{v}") for v in VARIANTS},
               "runs": [], "callgrind": None, "errors": []}
        records[b.name] = rec
        c = rec["compile"]
        if c["nampi"]:
            print(f"  {b.label:<36} compile {c['nampi']['median_cpu_s']:6.2f} / "
                  f"{c['mpi']['median_cpu_s']:6.2f} s   binary {c['nampi']['binary_bytes'] / 1024:7.1f}"
                  f" / {c['mpi']['binary_bytes'] / 1024:7.1f} KiB   LOC {rec['loc']['nampi']} / "
                  f"{rec['loc']['mpi']}", flush=True)

    start = time.perf_counter()
    print(f"== hyperfine (--warmup {args.warmup} --runs {args.runs}), nampi vs mpi", flush=True)
    for b in [] if args.skip_hyperfine else benches:
        for ranks in b.configs["full"]["ranks"]:
            t0 = time.perf_counter()
            r = hyperfine_pair(b, mpi, build, hyperfine, ranks, work / b.name / f"np{ranks}",
                               args.warmup, args.runs)
            records[b.name]["runs"].append(r)
            errors += [f"{b.label} -n {ranks}: {e}" for e in r["errors"]]
            if "time_ratio" in r:
                print(f"  {b.label:<36} -n {ranks}: time ratio {r['time_ratio']:.3f} "
                      f"(median {r['hyperfine']['nampi']['median']:.3f} / "
                      f"{r['hyperfine']['mpi']['median']:.3f} s), in-program ratio "
                      f"{r.get('program_ratio', float('nan')):.3f}  [{time.perf_counter() - t0:.0f} s]",
                      flush=True)
            else:
                print(f"  {b.label:<36} -n {ranks}: FAILED", flush=True)
    phases["hyperfine"] = time.perf_counter() - start

    start = time.perf_counter()
    if not args.skip_callgrind:
        print("== callgrind (instructions outside MPI, region bench::measure)", flush=True)
        for b in benches:
            t0 = time.perf_counter()
            cg = callgrind_pair(b, mpi, build, work / b.name / "callgrind")
            records[b.name]["callgrind"] = cg
            errors += [f"{b.label} callgrind: {e}" for e in cg["errors"]]
            if not cg["errors"]:
                print(f"  {b.label:<36} Ir ratio {cg['ir_ratio']:.4f} (errors fatal "
                      f"{cg['ir_ratio_fatal']:.4f}) "
                      f"({cg['nampi']['ir_outside_mpi']:,} / {cg['mpi']['ir_outside_mpi']:,}, "
                      f"region {cg['region']}), MPI calls "
                      f"{'same' if cg['mpi_calls_equal'] else 'DIFFER'}  "
                      f"[{time.perf_counter() - t0:.0f} s]", flush=True)
            else:
                print(f"  {b.label:<36} callgrind FAILED", flush=True)
    phases["callgrind"] = time.perf_counter() - start

    for b in benches:
        records[b.name]["errors"] = [e for e in errors if e.startswith(b.label + " ")]

    # raw results
    out_dir = results / mpi.name
    if not args.only and out_dir.exists():
        for old in out_dir.glob("*.json"):
            if old.name not in OTHER_TOOLS_RESULTS:
                old.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, rec in records.items():
        (out_dir / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n")
    meta = {"mpi": mpi.name, "mpi_version": mpi.version(), "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "hyperfine_runs": args.runs,
            "hyperfine_warmup": args.warmup, "compile_repeats": args.compile_repeats,
            "order": [b.name for b in benches], "phases_s": {k: round(v, 1) for k, v in phases.items()},
            "elapsed_s": round(time.perf_counter() - args.t0, 1), "errors": errors,
            "only": args.only}
    if args.only and (out_dir / "meta.json").exists():  # keep the order of a complete run
        old = json.loads((out_dir / "meta.json").read_text())
        meta["order"] = old["order"] + [n for n in meta["order"] if n not in old["order"]]
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")

    import plots
    import summary

    plots.make_plots(out_dir)
    summary.write_summary(results)
    print(f"wrote {out_dir}/*.json, *.png and {results / 'summary.md'}")
    for e in errors:
        print(f"ERROR: {e}", file=sys.stderr)
    return len(errors)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--mpi", choices=("mpich", "openmpi"), default="mpich")
    p.add_argument("--smoke", action="store_true", help="run each variant once at smoke size")
    p.add_argument("--build-dir", type=Path, help="default: build/bench-<mpi>")
    p.add_argument("--results", type=Path, default=BENCH / "results")
    p.add_argument("--only", help="regex on kind/name, e.g. 'micro/' or 'sample_sort'")
    p.add_argument("--hyperfine", help="hyperfine executable (default: PATH, .deps/hyperfine)")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--compile-repeats", type=int, default=3)
    p.add_argument("--jobs", type=int, default=2, help="parallel compiles when timing them")
    p.add_argument("--skip-compile", action="store_true")
    p.add_argument("--skip-callgrind", action="store_true")
    p.add_argument("--skip-hyperfine", action="store_true")
    args = p.parse_args()
    args.t0 = time.perf_counter()

    build = (args.build_dir or ROOT / "build" / f"bench-{args.mpi}").resolve()
    mpi = mpi_config(args.mpi)
    benches, skipped = discover(args.only)
    for s in skipped:
        print(f"skipped {s}")
    if not benches:
        raise SystemExit("no benchmarks found")
    check_built(build, benches)
    print(f"{len(benches)} benchmarks, {mpi.version()}, build {build}", flush=True)

    failed = smoke(benches, mpi, build) if args.smoke else full(benches, mpi, build, args.results,
                                                               args)
    elapsed = time.perf_counter() - args.t0
    mode = "bench-smoke" if args.smoke else "bench"
    print(f"{mode} ({args.mpi}): {len(benches)} benchmarks, {failed} failures, "
          f"elapsed {elapsed:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
