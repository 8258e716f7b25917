#!/usr/bin/env python3
"""Scale by simulation (issue 36): bench/micro programs at 64 to 4,096 simulated ranks on
SimGrid's SMPI (Debian's libsimgrid-dev; make setup-smpi).

    .venv/bin/python bench/scale/run.py            # make bench-scale: every run of scale.json
    .venv/bin/python bench/scale/run.py --smoke    # each program once at 64 ranks (CI)

Builds the programs it needs with smpicxx (build/bench-smpi, the bench project of bench/),
runs each variant of each case at each rank count on each platform of scale.json with
smpirun, one rank per simulated host, two runs at a time, and writes
bench/results/scale/scale.json, scale.md and the plots. Every program checks what it
received (bench::require) and exits nonzero on a wrong value; a failed run stops the whole.
The figures are simulated seconds (MPI_Wtime under SMPI) of one operation: the median over
`reps` of the maximum over ranks. They are not the real 2-4 rank figures of make bench.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCALE = Path(__file__).resolve().parent
BENCH = SCALE.parent
ROOT = BENCH.parent
SMPICXX, SMPICC, SMPIRUN = "/usr/bin/smpicxx", "/usr/bin/smpicc", "/usr/bin/smpirun"


def load_config() -> dict:
    return json.loads((SCALE / "scale.json").read_text())


def runs(config: dict, smoke: bool) -> list[dict]:
    """Every run: bench, case, variant, platform, ranks, program arguments."""
    out = []
    for b in config["benches"]:
        cases = list(b["cases"].items())[:1] if smoke else list(b["cases"].items())
        platforms = b["platforms"][:1] if smoke else b["platforms"]
        for platform in platforms:
            for ranks in ([64] if smoke else b.get("ranks", config["ranks"])):
                for case, args in cases:
                    for variant in b["variants"]:
                        iters, reps = (1, 1) if smoke else (config["iters"], config["reps"])
                        out.append({"bench": b["bench"], "case": case, "variant": variant, "platform": platform,
                                    "ranks": ranks, "args": [*args, f"iters={iters}", f"reps={reps}"]})
    return out


def build(build_dir: Path, targets: list[str]) -> None:
    if not (build_dir / "build.ninja").exists():
        subprocess.run(["cmake", "-S", str(BENCH), "-B", str(build_dir), "-G", "Ninja",
                        f"-DCMAKE_CXX_COMPILER={SMPICXX}", f"-DCMAKE_C_COMPILER={SMPICC}", "-DNAMPI_WERROR=ON"],
                       check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(build_dir), "--target", *targets], check=True)


def hosts_of(platform: Path) -> list[str]:
    """The hosts of a <cluster> platform (prefix, radical a-b, suffix), in order."""
    text = platform.read_text()
    cluster = re.search(r'<cluster[^>]*prefix="([^"]*)"[^>]*radical="(\d+)-(\d+)"[^>]*suffix="([^"]*)"', text)
    if not cluster:
        raise SystemExit(f"{platform}: no <cluster prefix=... radical=a-b suffix=...>")
    prefix, first, last, suffix = cluster.groups()
    return [f"{prefix}{i}{suffix}" for i in range(int(first), int(last) + 1)]


def run_one(r: dict, config: dict, build_dir: Path) -> dict:
    platform = SCALE / config["platforms"][r["platform"]]["file"]
    hosts = hosts_of(platform)
    if r["ranks"] > len(hosts):
        raise SystemExit(f"{platform}: {len(hosts)} hosts, fewer than {r['ranks']} ranks")
    hostfile = build_dir / "scale-hosts" / f"{platform.stem}-{r['ranks']}"
    hostfile.parent.mkdir(parents=True, exist_ok=True)
    hostfile.write_text("\n".join(hosts[: r["ranks"]]) + "\n")
    exe = build_dir / f"{r['bench']}_{r['variant']}"
    cmd = [SMPIRUN, "-np", str(r["ranks"]), "-platform", str(platform), "-hostfile", str(hostfile),
           *config["smpirun"], str(exe), *r["args"]]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - start
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}")
    return {**r, "seconds": lines[-1]["seconds"], "checksum": lines[-1]["checksum"], "wall_s": round(wall, 2)}


def table(results: list[dict], b: dict, case: str, platform: str) -> list[str]:
    """One markdown table: a row per rank count, simulated µs per variant, and each plain
    variant's time over nampi's."""
    variants = list(b["variants"])
    head = ["p"] + [f"{b['variants'][v]} µs" for v in variants] + [f"{b['variants'][v]} / nampi" for v in variants[1:]]
    rows = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for p in sorted({r["ranks"] for r in results}):
        got = {r["variant"]: r["seconds"] for r in results
               if (r["bench"], r["case"], r["platform"], r["ranks"]) == (b["bench"], case, platform, p)}
        if len(got) != len(variants):
            continue
        cells = [str(p)] + [f"{got[v] * 1e6:.3g}" for v in variants]
        cells += [f"{got[v] / got['nampi']:.3g}" if got["nampi"] > 0 else "∞ (nampi: 0)" for v in variants[1:]]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def report(results: list[dict], config: dict, out: Path, wall: float, date: str | None = None,
           reruns: list[str] | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    version = subprocess.run([SMPIRUN, "-version"], capture_output=True, text=True).stdout.strip().splitlines()[0]
    data = {"date": date or time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "simulator": version,
            "platforms": config["platforms"], "smpirun": config["smpirun"],
            "why_these_algorithms": config["why_these_algorithms"], "iters": config["iters"], "reps": config["reps"],
            "wall_s": round(wall, 1), "runs": results}
    if reruns:  # `--only` runs since the full run of `date`
        data["reruns"] = reruns
    (out / "scale.json").write_text(json.dumps(data, indent=1) + "\n")
    md = [f"# Scale by simulation ({version})", "",
          f"{data['date']}, `make bench-scale` (bench/scale/run.py, {wall / 60:.1f} min of wall time). "
          "Simulated µs of one operation (median of "
          f"{config['reps']} of the maximum over ranks). {config['description']}"
          + "".join(f" Rerun since then: `{x}`." for x in data.get("reruns", [])), "",
          "Platforms (bench/scale/platforms/): " + "; ".join(f"`{k}`: {v['network']}" for k, v in config["platforms"].items())
          + ". smpirun: " + " ".join(f"`{a}`" for a in config["smpirun"]) + ". " + config["why_these_algorithms"], ""]
    for b in config["benches"]:
        for platform in b["platforms"]:
            for case in b["cases"]:
                md += [f"## {b['title']}{', ' + case if case else ''} ({b['bench']}, platform `{platform}`)", ""]
                md += table(results, b, case, platform) + [""]
                if "why_these_ranks" in b:
                    md += [b["why_these_ranks"], ""]
    md += goals(results)
    (out / "scale.md").write_text("\n".join(md) + "\n")
    plots(results, config, out)


def seconds(results: list[dict], bench: str, case: str, variant: str, platform: str, p: int) -> float | None:
    return next((r["seconds"] for r in results if (r["bench"], r["case"], r["variant"], r["platform"], r["ranks"])
                 == (bench, case, variant, platform, p)), None)


def goals(results: list[dict]) -> list[str]:
    """Issue 36's goals that the simulator can show, each with its figures."""
    out = ["## Goals (issue 36, item 2)", ""]
    big = [p for p in sorted({r["ranks"] for r in results}) if p >= 1024]
    ratios = {p: (seconds(results, "range_bcast", "8B", "mpi_split", "1us", p) or 0)
              / (seconds(results, "range_bcast", "8B", "nampi", "1us", p) or float("inf")) for p in big}
    if ratios:
        holds = all(x >= 10 for x in ratios.values())
        out.append(f"- Range broadcast including the split at least 10x faster than MPI_Comm_split + MPI_Bcast "
                   f"at p >= 1,024, 8 B (platform `1us`): {'holds' if holds else 'does not hold'} ("
                   + ", ".join(f"p = {p}: {x:.1f}x" for p, x in ratios.items()) + ").")
    first = {p: (seconds(results, "range_bcast", "8B", "mpi_split", "1us", p) or 0)
             / (seconds(results, "range_bcast", "8B", "nampi", "1us", p) or float("inf"))
             for p in sorted({r["ranks"] for r in results if r["bench"] == "range_bcast"})}
    out.append("- Creating a range costs no communication (the simulator shows it as about 0: range_split); "
               "creation plus the first collective (8 B bcast) against split + bcast: "
               + ", ".join(f"p = {p}: {x:.1f}x" for p, x in first.items()) + ".")
    return out + [""]


def plots(results: list[dict], config: dict, out: Path) -> None:
    sys.path.insert(0, str(BENCH))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, (bench, case, title) in zip(axes, [("range_split", "", "split into halves"),
                                               ("range_bcast", "8B", "make the half + 8 B bcast"),
                                               ("range_iscan", "8B", "iscan of one int64")]):
        b = next(x for x in config["benches"] if x["bench"] == bench)
        for variant, label in b["variants"].items():
            for platform, style in (("1us", "-"), ("50us", ":")):
                pts = sorted((r["ranks"], r["seconds"] * 1e6) for r in results
                             if (r["bench"], r["case"], r["variant"], r["platform"]) == (bench, case, variant, platform))
                if pts:
                    ax.plot([p for p, _ in pts], [max(s, 1e-3) for _, s in pts], style, marker="o",
                            label=f"{label} ({platform})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("simulated ranks")
        ax.set_ylabel("simulated µs per operation")
        ax.set_title(title)
        ax.legend(fontsize=7)
    fig.suptitle("nampi vs plain MPI on SimGrid SMPI 3.32, simulated time (comm.range sends nothing: its 0.01 µs is SMPI's smpi/wtime step)")
    fig.tight_layout()
    fig.savefig(out / "scale.png", dpi=110)
    plt.close(fig)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--smoke", action="store_true", help="each program once at 64 ranks; writes nothing")
    p.add_argument("--build-dir", type=Path, default=ROOT / "build" / "bench-smpi")
    p.add_argument("--out", type=Path, default=BENCH / "results" / "scale")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--from-json", type=Path, help="only write the tables and plots again from a run's scale.json")
    p.add_argument("--only", metavar="REGEX",
                   help="run only the runs whose bench/case/variant matches (e.g. 'range_bcast/1MiB/nampi') "
                        "and put them in place of those of the last run's scale.json")
    args = p.parse_args()
    config = load_config()
    if args.from_json:
        old = json.loads(args.from_json.read_text())
        config = {**config, "iters": old["iters"], "reps": old["reps"]}
        report(old["runs"], config, args.out, old["wall_s"], old["date"], old.get("reruns"))
        return 0
    todo = runs(config, args.smoke)
    if args.only:
        todo = [r for r in todo if re.search(args.only, f"{r['bench']}/{r['case']}/{r['variant']}")]
        if not todo:
            raise SystemExit(f"--only {args.only}: no run matches")
    build(args.build_dir, sorted({f"{r['bench']}_{r['variant']}" for r in todo}))
    start = time.perf_counter()
    # The largest first: two of them at once keep both cores busy to the end.
    todo.sort(key=lambda r: -r["ranks"])
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(lambda r: run_one(r, config, args.build_dir), todo):
            results.append(r)
            print(f"{r['bench']:<12} {r['case']:<5} {r['variant']:<17} {r['platform']:<5} p={r['ranks']:<5} "
                  f"{r['seconds'] * 1e6:10.3f} µs simulated ({r['wall_s']} s wall)", flush=True)
    wall = time.perf_counter() - start
    if args.smoke:
        print(f"bench-scale smoke: {len(results)} runs at 64 simulated ranks passed their checks ({wall:.0f} s)")
        return 0
    if args.only:  # the other runs as the last full run measured them
        last = json.loads((args.out / "scale.json").read_text())
        key = lambda r: (r["bench"], r["case"], r["variant"], r["platform"], r["ranks"])
        fresh = {key(r) for r in results}
        results = [r for r in last["runs"] if key(r) not in fresh] + results
        config = {**config, "iters": last["iters"], "reps": last["reps"]}
        wall, date = last["wall_s"], last["date"]
        report(results, config, args.out, wall, date,
               [*last.get("reruns", []), f"--only {args.only}, {time.strftime('%Y-%m-%d')}"])
    else:
        report(results, config, args.out, wall)
    print(args.out / "scale.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
