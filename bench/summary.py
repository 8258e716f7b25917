"""bench/results/summary.md from the raw results in bench/results/<mpi>/*.json.

    .venv/bin/python bench/summary.py      # rewrite summary.md from what is there
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

from compile_time import spread

BENCH = Path(__file__).resolve().parent
MPIS = ("mpich", "openmpi")
FLAG = 1.02  # ratios above this are listed below the table
LEAN_NOTE = (" Lean include: the app's own nampi.cpp built with `NAMPI_BENCH_LEAN`, which includes "
             "`<nampi/core.hpp>` and the header of each call family it calls instead of "
             "`<nampi/nampi.hpp>`, and linked to `nampi::compiled` (the runtime's out-of-line "
             "functions compiled once, into that library, not in the unit; runs before 2026-12-01: "
             "header-only).")


def load(mpi_dir: Path) -> tuple[dict, list[dict]]:
    meta = json.loads((mpi_dir / "meta.json").read_text())
    records = []
    for name in meta["order"]:
        path = mpi_dir / f"{name}.json"
        if path.exists():
            records.append(json.loads(path.read_text()))
    return meta, records


def _ratio(x) -> str:
    return "–" if x is None else f"{x:.3f}"


def noise(samples_n: list[float], samples_m: list[float]) -> float | None:
    """Two standard errors of the ratio of the medians of two sets of timings.

    The standard error of a median of n samples is about 1.25 sigma / sqrt(n); relative
    errors of the two medians add in quadrature. A ratio closer to 1 than this is not
    distinguishable from run-to-run noise.
    """
    if len(samples_n) < 2 or len(samples_m) < 2:
        return None
    rel = 0.0
    for xs in (samples_n, samples_m):
        mean = statistics.fmean(xs)
        rel += (1.25 * statistics.stdev(xs) / mean) ** 2 / len(xs)
    ratio = statistics.median(samples_n) / statistics.median(samples_m)
    return 2 * ratio * math.sqrt(rel)


def _with_noise(ratio, spread) -> str:
    return _ratio(ratio) + ("" if ratio is None or spread is None else f" ± {spread:.3f}")


def _pair(a, b, fmt="{}") -> str:
    if a is None or b is None:
        return "–"
    return f"{fmt.format(a)} / {fmt.format(b)}"


def rows(records: list[dict]) -> list[dict]:
    out = []
    for rec in records:
        cg = rec.get("callgrind") or {}
        comp = rec.get("compile") or {}
        n, m = comp.get("nampi"), comp.get("mpi")
        per_bench = {
            "ir": cg.get("ir_ratio"),
            "ir_fatal": cg.get("ir_ratio_fatal"),
            "ir_per_call": cg.get("ir_per_call"),
            "calls_equal": cg.get("mpi_calls_equal"),
            "loc": _pair(rec["loc"]["nampi"], rec["loc"]["mpi"]),
            "compile": _pair(n and n["median_cpu_s"], m and m["median_cpu_s"], "{:.2f}"),
            "binary": _pair(n and n["binary_bytes"] / 1024, m and m["binary_bytes"] / 1024,
                            "{:.1f}"),
        }
        runs = rec.get("runs") or [{}]
        for i, run in enumerate(runs):
            hf, pr = run.get("hyperfine") or {}, run.get("program") or {}
            row = {"name": f"{rec['kind']}/{rec['name']}", "ranks": run.get("ranks", "–"),
                   "time": run.get("time_ratio"), "program": run.get("program_ratio"),
                   "time_noise": noise(*(hf.get(v, {}).get("times", []) for v in ("nampi", "mpi"))),
                   "program_noise": noise(*(pr.get(v, {}).get("seconds", []) for v in ("nampi", "mpi"))),
                   "errors": run.get("errors", []), "run": run, "rec": rec}
            row.update(per_bench if i == 0 else {"ir": None, "ir_fatal": None, "ir_per_call": None,
                                                 "calls_equal": None, "loc": "",
                                                 "compile": "", "binary": "", "blank": True})
            out.append(row)
    return out


def table(records: list[dict]) -> list[str]:
    lines = ["| benchmark | ranks | time ratio (hyperfine) | in-program time ratio | Ir ratio | "
             "Ir ratio, errors fatal | extra Ir per MPI call | "
             "LOC nampi / mpi | compile s nampi / mpi | binary KiB nampi / mpi |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows(records):
        blank = r.get("blank")
        ir = "" if blank else _ratio(r["ir"])
        if r.get("calls_equal") is False:
            ir += " †"
        ir_fatal = "" if blank else _ratio(r["ir_fatal"])
        per_call = "" if blank or r["ir_per_call"] is None else f"{r['ir_per_call']:+.1f}"
        time_ratio = "error" if r["errors"] and r["time"] is None else _ratio(r["time"])
        if time_ratio != "error":
            time_ratio = _with_noise(r["time"], r["time_noise"])
        lines.append(f"| {r['name']} | {r['ranks']} | {time_ratio} | "
                     f"{_with_noise(r['program'], r['program_noise'])} | "
                     f"{ir} | {ir_fatal} | {per_call} | {r['loc']} | {r['compile']} | {r['binary']} |")
    return lines


def details(records: list[dict]) -> list[str]:
    lines = ["| benchmark | ranks | hyperfine median s nampi / mpi | in-program s nampi / mpi | "
             "Ir outside MPI nampi / mpi | MPI calls (callgrind region) |",
             "|---|---:|---:|---:|---:|---|"]
    for r in rows(records):
        run = r["run"]
        hf = run.get("hyperfine") or {}
        pr = run.get("program") or {}
        hf_s = _pair(hf.get("nampi", {}).get("median"), hf.get("mpi", {}).get("median"), "{:.3f}")
        pr_s = _pair(pr.get("nampi", {}).get("median"), pr.get("mpi", {}).get("median"), "{:.3g}")
        cg = r["rec"].get("callgrind") or {}
        if r.get("blank") or not cg.get("nampi") or "ir_outside_mpi" not in cg["nampi"]:
            ir, calls = "", ""
        else:
            ir = _pair(cg["nampi"]["ir_outside_mpi"], cg["mpi"]["ir_outside_mpi"], "{:,}")
            n_calls, m_calls = cg["nampi"]["mpi_calls"], cg["mpi"]["mpi_calls"]
            if n_calls == m_calls:
                calls = "equal: " + ", ".join(f"{k} {v}" for k, v in m_calls.items())
            else:
                calls = "nampi " + ", ".join(f"{k} {v}" for k, v in n_calls.items()) + \
                        "; mpi " + ", ".join(f"{k} {v}" for k, v in m_calls.items())
            if cg.get("region") != "bench::measure":
                calls += f" (region: {cg.get('region')})"
        lines.append(f"| {r['name']} | {r['ranks']} | {hf_s} | {pr_s} | {ir} | {calls} |")
    return lines


def flagged(records: list[dict]) -> list[str]:
    out = []
    for r in rows(records):
        for key, label in (("time", "time ratio"), ("program", "in-program time ratio"),
                           ("ir", "Ir ratio")):
            if r.get(key) is not None and r[key] > FLAG:
                spread = r.get(f"{key}_noise")
                verdict = ""
                if spread is not None:
                    verdict = (f" (within noise: ± {spread:.3f})" if r[key] - 1 <= spread
                               else f" (beyond noise: ± {spread:.3f})")
                out.append(f"- {r['name']} ({r['ranks']} ranks): {label} {r[key]:.3f}{verdict}")
    return out


def compile_section(mpi_dir: Path) -> list[str]:
    """bench/compile_time.py's figures (compile_time.json), if it ran for this MPI."""
    path = mpi_dir / "compile_time.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    trees = list(data.get("trees", {}))
    pch = data.get("pch_build_cpu_s") or {}
    lean = any("nampi_lean" in row for row in data["units"].values())
    paired = all("ratios" in row["nampi"] for row in data["units"].values())  # runs since 2026-11-30

    def ratio(variant: dict) -> str:
        if not paired:
            return f"{variant['median_ratio']:.2f}"
        return f"{variant['median_ratio']:.2f} {spread(variant)}"

    head = "| unit | plain MPI s | nampi s | nampi / MPI |" + (" lean include: nampi s (ratio) |" if lean else "")
    head += "".join(f" nampi at {t} s (ratio) |" for t in trees)
    if pch:
        head += " with PCH: plain MPI s | with PCH: nampi s (ratio) |"
    lines = [f"### Compile time ({data['compiler']})", "",
             f"{data['date']}, `bench/compile_time.py`: CPU seconds of the bench build's exact compile "
             f"commands (`-O2 -DNDEBUG`), median of {data['rounds']} rounds that compile every unit once "
             "in a new order" + (", each unit's variants one right after another" if paired else "")
             + "; ratio: median of the per-round ratios to the plain MPI unit of the same "
             "round" + (" (the lowest and highest in brackets)" if paired else "") + "." + (" Other checkouts: " + ", ".join(f"{k} = `{v}`" for k, v in data["trees"].items()) + "." if trees else "")
             + (f" With PCH: each variant's library header (`<nampi/nampi.hpp>`, `<mpi.h>`) precompiled "
                f"once (CPU s: nampi {pch['nampi']:.2f}, MPI {pch['mpi']:.2f}) and included with `-include`, "
                "as the README advises; ratio to plain MPI with its own PCH." if pch else "")
             + (LEAN_NOTE if lean else ""),
             "", head, "|---|---:|---:|---:|" + "---:|" * (len(trees) + (2 if pch else 0) + (1 if lean else 0))]
    for unit, row in data["units"].items():
        line = f"| {unit} | {row['mpi']['median_cpu_s']:.2f} | {row['nampi']['median_cpu_s']:.2f} | {ratio(row['nampi'])} |"
        if lean:
            line += (f" {row['nampi_lean']['median_cpu_s']:.2f} ({ratio(row['nampi_lean'])}) |"
                     if "nampi_lean" in row else " |")
        line += "".join(f" {row[f'nampi@{t}']['median_cpu_s']:.2f} ({ratio(row[f'nampi@{t}'])}) |" for t in trees)
        if pch:
            line += (f" {row['mpi+pch']['median_cpu_s']:.2f} | {row['nampi+pch']['median_cpu_s']:.2f} "
                     f"({ratio(row['nampi+pch'])}) |")
        lines.append(line)
    return lines + [""] + instance_lines(data["units"])


def instructions_section(mpi_dir: Path) -> list[str]:
    """bench/compile_instructions.py's figures (compile_instructions.json), if it ran: the same
    units counted in instructions of cc1plus, which do not drift as this machine's seconds do."""
    path = mpi_dir / "compile_instructions.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    units = data["units"]
    lean = any("nampi_lean" in row for row in units.values())
    lines = ["### Compile cost in instructions", "",
             f"{data['date']}, `bench/compile_instructions.py`: million instructions that `cc1plus` "
             "executes for the same compile commands (callgrind; deterministic, one run). Ratio: to the "
             "plain MPI unit." + (LEAN_NOTE if lean else ""), "",
             "| unit | plain MPI M | nampi M (ratio) |" + (" lean include: nampi M (ratio) |" if lean else ""),
             "|---|---:|---:|" + ("---:|" if lean else "")]
    for unit, row in units.items():
        if "mpi" not in row or "nampi" not in row:
            continue
        plain = row["mpi"]
        line = f"| {unit} | {plain / 1e6:,.0f} | {row['nampi'] / 1e6:,.0f} ({row['nampi'] / plain:.2f}) |"
        if lean:
            line += (f" {row['nampi_lean'] / 1e6:,.0f} ({row['nampi_lean'] / plain:.2f}) |"
                     if "nampi_lean" in row else " |")
        lines.append(line)
    return lines + [""]


def instance_lines(units: dict) -> list[str]:
    """What one instance of a call costs, from the three allgatherv units, both ways."""
    need = ("include_only", "one_allgatherv", "eight_allgathervs")
    if not all(u in units for u in need):
        return []
    s = {v: {u: units[u][v]["median_cpu_s"] for u in need} for v in ("nampi", "mpi")}
    further = {v: (s[v]["eight_allgathervs"] - s[v]["one_allgatherv"]) / 7 for v in s}
    averaged = {v: (s[v]["eight_allgathervs"] - s[v]["include_only"]) / 8 for v in s}
    return [f"One instance of a call (`allgatherv` of a new element type): each further one "
            f"(eight_allgathervs - one_allgatherv) / 7 = {further['nampi']:.3f} s (plain MPI "
            f"{further['mpi']:.3f} s); averaged over the eight with what every unit that calls "
            f"pays once, the environment and the code all allgathervs share (eight_allgathervs - "
            f"include_only) / 8 = {averaged['nampi']:.3f} s (plain MPI {averaged['mpi']:.3f} s, "
            f"whose include-only unit lacks <vector> and <numeric>).", ""]


def global_section(mpi_dir: Path) -> list[str]:
    """bench/global_bench.py's figures (global.json), if it ran for this MPI."""
    path = mpi_dir / "global.json"
    if not path.exists():
        return []
    g = json.loads(path.read_text())
    base = g["mpi_rtt_us"]
    lines = ["### Global process addressing: routed RPCs (nampi/global.hpp)", "",
             f"{g['date']}, {g['cpus']} CPUs, `bench/global_bench.py`: medians of {g['repeat']} runs, "
             "each the median block of calls; every process of a set has a progress thread "
             "(MPI_THREAD_MULTIPLE), so on 2 cores the RPC figures include scheduling.", "",
             "| round trip (8 bytes) | µs | ratio to MPI_Send/MPI_Recv |", "|---|---:|---:|",
             f"| MPI_Send/MPI_Recv ping-pong | {base:.2f} | 1 |",
             f"| call(\"ping\"), other rank of the set (1 hop each way) | {g['rpc_1hop_us']:.2f} | {g['rpc_1hop_us'] / base:.1f} |",
             f"| call(\"ping\"), root of a linked set (1 hop) | {g['rpc_linked_1hop_us']:.2f} | {g['rpc_linked_1hop_us'] / base:.1f} |",
             f"| call(\"ping\"), other rank of a linked set (2 hops, via its root) | {g['rpc_linked_2hop_us']:.2f} | {g['rpc_linked_2hop_us'] / base:.1f} |",
             "", f"Linking to a set on demand (first call): {g['link_us'] / 1000:.1f} ms.", "",
             "Per-connection cost C_c = T / (n k): connection data (64 bytes) from k peers per "
             "process, by RPC to those k only, against one MPI_Allgather of everyone's:", "",
             "| ranks n | peers k | RPC C_c µs | allgather C_c µs | RPC / allgather |", "|---:|---:|---:|---:|---:|"]
    for r in g["cc"]:
        lines.append(f"| {r['ranks']} | {r['k']} | {r['rpc_cc_us']:.2f} | {r['allgather_cc_us']:.2f} | "
                     f"{r['rpc_cc_us'] / r['allgather_cc_us']:.1f} |")
    return lines + [""]


def twins_section(records: list[dict]) -> list[str]:
    """nampi against further plain versions (micro/<name>/mpi_<how>.cpp): Ir outside MPI."""
    rows_ = []
    for rec in records:
        cg = rec.get("callgrind") or {}
        for how, ratio in (cg.get("ir_ratio_alternatives") or {}).items():
            n, t = cg["nampi"], cg[how]
            rows_.append(f"| {rec['kind']}/{rec['name']} | {how} | {n['ranks']} | "
                         f"{n['ir_outside_mpi']:,} / {t['ir_outside_mpi']:,} | {_ratio(ratio)} |")
    if not rows_:
        return []
    return ["### Against the same algorithm written by hand", "",
            "Callgrind instructions outside MPI, nampi against a further plain MPI version of the "
            "benchmark (`micro/<name>/mpi_<how>.cpp`, e.g. nampi's algorithm on "
            "`MPI_Isend`/`MPI_Irecv` by hand).", "",
            "| benchmark | plain version | ranks | Ir outside MPI nampi / plain | ratio |",
            "|---|---|---:|---:|---:|"] + rows_ + [""]


def write_summary(results: Path) -> Path:
    lines = ["# nampi vs plain MPI: benchmark summary", "",
             "Written by `make bench` (`bench/run.py`); what each column means and how the numbers "
             "are measured: `bench/README.md`. Ratios are nampi / plain MPI (below 1: nampi is "
             "faster or smaller). Time ratio: medians of hyperfine runs of the whole "
             "`mpiexec` command, ± two standard errors of the ratio (from the spread of the "
             "runs; a ratio within it is indistinguishable from noise); in-program: median of the `seconds` each program reports "
             "(its measured phase, max over ranks); Ir: callgrind instructions inside "
             "`bench::measure`, summed over ranks, outside the MPI library; errors fatal: the "
             "nampi version built with `NAMPI_ERRORS_ARE_FATAL` (no return-code checks); extra Ir "
             "per MPI call: (nampi - mpi) Ir divided by the MPI calls in the region; compile: CPU "
             "seconds of `mpicxx -O2 -c`, median of 3; binary: the linked executable. "
             "† = nampi calls MPI functions in the measured region that the plain MPI version does "
             "not (or the reverse); see the absolute numbers.", ""]
    for mpi in MPIS:
        d = results / mpi
        if not (d / "meta.json").exists():
            continue
        meta, records = load(d)
        lines += [f"## {meta['mpi_version']}", "",
                  f"{meta['date']}, {meta['cpus']} CPUs, {meta['hyperfine_runs']} alternating "
                  f"hyperfine rounds (warmup {meta['hyperfine_warmup']}); `bench/run.py` took "
                  f"{meta['elapsed_s']:.0f} s (build excluded)" +
                  (f" (partial run: `--only {meta['only']}`)." if meta.get("only") else "."), ""]
        lines += table(records)
        lines += ["", f"![ratios]({mpi}/ratios.png)", "",
                  f"![lines of code]({mpi}/loc.png) ![compile time and size]({mpi}/compile.png)",
                  "", "<details><summary>absolute numbers</summary>", ""]
        lines += details(records)
        lines += ["", "</details>", ""]
        lines += twins_section(records)
        lines += compile_section(d)
        lines += instructions_section(d)
        lines += global_section(d)
        flags = flagged(records)
        lines += [f"Ratios above {FLAG}:", ""] + (flags or ["- none"]) + [""]
        if meta.get("errors"):
            lines += ["Errors:", ""] + [f"- {e.splitlines()[0]}" for e in meta["errors"]] + [""]
    path = results / "summary.md"
    path.write_text("\n".join(lines))
    return path


if __name__ == "__main__":
    print(write_summary(BENCH / "results"))
    sys.exit(0)
