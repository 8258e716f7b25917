#!/usr/bin/env python3
"""Scale by simulation (issue 36): bench/micro and bench/apps programs at 64 to 4,096 simulated
ranks on SimGrid's SMPI (Debian's libsimgrid-dev; make setup-smpi).

    .venv/bin/python bench/scale/run.py            # make bench-scale: every run of scale.json
    .venv/bin/python bench/scale/run.py --smoke    # each program once at 64 ranks (CI)

Builds the programs it needs with smpicxx (build/bench-smpi, the bench project of bench/),
runs each variant of each case at each rank count on each platform of scale.json with
smpirun, one rank per simulated host, two runs at a time, and writes
bench/results/scale/scale.json, scale.md and the plots. Every program checks what it
received (bench::require) and exits nonzero on a wrong value; a failed run stops the whole.
The figures are simulated seconds (MPI_Wtime under SMPI) of one operation: the median over
`reps` of the maximum over ranks. They are not the real 2-4 rank figures of make bench.

A bench of scale.json may name its own `ranks`, `reps`, `smpirun` options (after the global
ones; `variant_smpirun` per variant), `programs` (a variant's executable when it is not
<bench>_<variant>), `case_ranks` (fewer rank counts for a case), `bounds` (variants left out of
"fastest") and `smoke: false` (not in the smoke run: its program runs in another entry's).
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
        if smoke and not b.get("smoke", True):  # its program already runs in another entry's smoke
            continue
        cases = list(b["cases"].items())[:1] if smoke else list(b["cases"].items())
        platforms = b["platforms"][:1] if smoke else b["platforms"]
        for platform in platforms:
            for ranks in ([64] if smoke else b.get("ranks", config["ranks"])):
                for case, args in cases:
                    if not smoke and ranks not in b.get("case_ranks", {}).get(case, [ranks]):
                        continue
                    for variant in b["variants"]:
                        iters, reps = (1, 1) if smoke else (b.get("iters", config["iters"]), b.get("reps", config["reps"]))
                        run = {"bench": b["bench"], "case": case, "variant": variant, "platform": platform,
                               "ranks": ranks, "args": [*args, f"iters={iters}", f"reps={reps}"],
                               "program": program(b, variant), "smpirun": options(b, variant)}
                        if run not in out:  # a run that two tables show (the sparse all-to-all's) runs once
                            out.append(run)
    return out


def program(b: dict, variant: str) -> str:
    """The executable (build target) of a variant: <bench>_<variant> unless `programs` names another."""
    return b.get("programs", {}).get(variant, f"{b['bench']}_{variant}")


def options(b: dict, variant: str) -> list[str]:
    """smpirun options of this bench and variant, after the global ones (a later --cfg wins)."""
    return [*b.get("smpirun", []), *b.get("variant_smpirun", {}).get(variant, [])]


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
    exe = build_dir / r["program"]
    cmd = [SMPIRUN, "-np", str(r["ranks"]), "-platform", str(platform), "-hostfile", str(hostfile),
           *config["smpirun"], *r["smpirun"], str(exe), *r["args"]]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - start
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}")
    return {**r, "seconds": lines[-1]["seconds"], "checksum": lines[-1]["checksum"], "wall_s": round(wall, 2)}


def measured(results: list[dict], b: dict, case: str, platform: str, p: int) -> dict[str, float]:
    """Seconds of each of the bench's variants that ran this case on this platform at p ranks."""
    return {r["variant"]: r["seconds"] for r in results if r["variant"] in b["variants"]
            and (r["bench"], r["case"], r["platform"], r["ranks"]) == (b["bench"], case, platform, p)}


def table(results: list[dict], b: dict, case: str, platform: str) -> list[str]:
    """One markdown table: a row per rank count, simulated µs per variant, and each plain
    variant's time over nampi's."""
    variants = list(b["variants"])
    head = ["p"] + [f"{b['variants'][v]} µs" for v in variants] + [f"{b['variants'][v]} / nampi" for v in variants[1:]]
    rows = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for p in sorted({r["ranks"] for r in results}):
        got = measured(results, b, case, platform, p)
        if len(got) != len(variants):
            continue
        cells = [str(p)] + [f"{got[v] * 1e6:.3g}" for v in variants]
        cells += [f"{got[v] / got['nampi']:.3g}" if got["nampi"] > 0 else "∞ (nampi: 0)" for v in variants[1:]]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def fastest(results: list[dict], b: dict, case: str, platform: str) -> str:
    """Which variant is fastest at each rank count: where each wins."""
    out = []
    for p in sorted({r["ranks"] for r in results}):
        got = measured(results, b, case, platform, p)
        for v in b.get("bounds", []):  # a lower bound that knows more than the others is not a contender
            got.pop(v, None)
        if len(got) == len(b["variants"]) - len(b.get("bounds", [])):
            out.append(f"p = {p}: {b['variants'][min(got, key=got.get)]}")
    return ("Fastest" + (" (without " + ", ".join(b["variants"][v] for v in b["bounds"]) + ", a bound)" if b.get("bounds") else "")
            + ": " + "; ".join(out) + "." if out else "")


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
    shown = set()  # a table that two entries share (other rank counts of the same bench) is shown once
    for b in config["benches"]:
        for platform in b["platforms"]:
            for case in b["cases"]:
                if (b["bench"], b["title"], case, platform) in shown:
                    continue
                shown.add((b["bench"], b["title"], case, platform))
                md += [f"## {b['title']}{', ' + case if case else ''} ({b['bench']}, platform `{platform}`)", ""]
                md += table(results, b, case, platform) + [""]
                if len(b["variants"]) > 2:
                    md += [fastest(results, b, case, platform), ""]
        if b.get("smpirun") or b.get("variant_smpirun"):
            md += ["smpirun options of these runs, after the global ones: "
                   + " ".join(f"`{a}`" for a in b.get("smpirun", []))
                   + "".join(f"; {b['variants'][v]} also " + " ".join(f"`{a}`" for a in a_)
                             for v, a_ in b.get("variant_smpirun", {}).items()) + ".", ""]
        for key in ("why_these_ranks", "note"):
            if key in b:
                md += [b[key], ""]
    md += goals(results)
    (out / "scale.md").write_text("\n".join(md) + "\n")
    plots(results, config, out)


def seconds(results: list[dict], bench: str, case: str, variant: str, platform: str, p: int) -> float | None:
    return next((r["seconds"] for r in results if (r["bench"], r["case"], r["variant"], r["platform"], r["ranks"])
                 == (bench, case, variant, platform, p)), None)


def goals(results: list[dict]) -> list[str]:
    """Issue 36's goals that the simulator can show, each with its figures."""
    out = ["## Goals (issue 36, item 2)", ""]
    sec = lambda bench, case, variant, p: seconds(results, bench, case, variant, "1us", p)
    ranks = lambda bench: sorted({r["ranks"] for r in results if r["bench"] == bench})
    big = [p for p in ranks("range_bcast") if p >= 1024]
    ratios = {p: (sec("range_bcast", "8B", "mpi_split", p) or 0) / (sec("range_bcast", "8B", "nampi", p) or float("inf"))
              for p in big}
    if ratios:
        holds = all(x >= 10 for x in ratios.values())
        split = {p: sec("range_split", "", "mpi", p) for p in big}
        out.append(f"- Range broadcast including the split at least 10x faster than MPI_Comm_split + MPI_Bcast "
                   f"at p >= 1,024, 8 B (platform `1us`): **{'holds' if holds else 'does not hold'}** ("
                   + ", ".join(f"p = {p}: {x:.1f}x" for p, x in ratios.items()) + ")."
                   + ("" if holds or None in split.values() else
                      " The range's side is the broadcast alone, so the ratio is 1 + split / bcast: SMPI's MPI_Comm_split costs "
                      + ", ".join(f"{split[p] * 1e6:.0f} µs at p = {p}" for p in big)
                      + " against the broadcast's " + ", ".join(f"{sec('range_bcast', '8B', 'nampi', p) * 1e6:.0f}" for p in big)
                      + " µs; 10x needs a split of 9 broadcasts. SMPI's split gathers every rank's colour and key at rank 0"
                        " over a 10 Tb/s switch and sorts them at no simulated cost (computation is not simulated), where"
                        " a real MPI's split at 2^15 cores took the paper's 42-202x."))
    first = {p: (sec("range_bcast", "8B", "mpi_split", p) or 0) / (sec("range_bcast", "8B", "nampi", p) or float("inf"))
             for p in ranks("range_bcast")}
    group = {p: (sec("range_bcast", "8B", "mpi", p) or 0) / (sec("range_bcast", "8B", "nampi", p) or float("inf"))
             for p in ranks("range_bcast")}
    out.append("- Creating a range costs no communication (the simulator shows it as about 0: range_split); "
               "creation plus the first collective (8 B bcast) against MPI_Comm_split + MPI_Bcast: "
               + ", ".join(f"p = {p}: {x:.1f}x" for p, x in first.items())
               + "; against MPI_Comm_create_group + MPI_Bcast: " + ", ".join(f"p = {p}: {x:.2f}x" for p, x in group.items()) + ".")
    for versus, label in (("mpi", "MPI_Alltoallv (SMPI's `bruck`)"), ("mpi_linear", "MPI_Alltoallv (SMPI's `ompi_basic_linear`)")):
        got = {(case, p): (sec("sparse_alltoall", case, versus, p) or 0) / x
               for case in ("2 peers", "8 peers") for p in ranks("sparse_alltoall") if p >= 256
               for x in [sec("sparse_alltoall", case, "nampi", p)] if x and sec("sparse_alltoall", case, versus, p)}
        if got:
            holds = all(x > 1 for x in got.values())
            out.append(f"- Sparse all-to-all faster than MPI_Alltoall + {label} at <= 8 peers for p >= 256: "
                       f"**{'holds' if holds else 'does not hold'}** ("
                       + ", ".join(f"{case}, p = {p}: {x:.2f}x" for (case, p), x in got.items()) + ").")
    cases = ["2 peers", "8 peers", "32 peers", "p/2 peers"]
    for versus, label in (("mpi", "`bruck`"), ("mpi_linear", "`ompi_basic_linear`")):
        where = []
        for p in ranks("sparse_alltoall"):
            won = [(c, x < y) for c in cases for x, y in [(sec("sparse_alltoall", c, "nampi", p), sec("sparse_alltoall", c, versus, p))]
                   if x and y]
            if won:
                wins = [c for c, w in won if w]
                where.append(f"p = {p}: " + (f"the sparse all-to-all at {', '.join(wins)}" if wins else "MPI_Alltoallv at every count measured")
                             + ("" if len(wins) in (0, len(won)) else ", MPI_Alltoallv at " + ", ".join(c for c, w in won if not w)))
        if where:
            out.append(f"- Where each wins, sparse all-to-all against MPI_Alltoall + MPI_Alltoallv ({label}): " + "; ".join(where) + ".")
    janus = {(r["case"], r["ranks"]): sec("janus_sort", r["case"], "mpi", r["ranks"]) / r["seconds"]
             for r in results if r["bench"] == "janus_sort" and r["variant"] == "nampi" and r["ranks"] >= 64
             and sec("janus_sort", r["case"], "mpi", r["ranks"])}
    if janus:
        holds = all(x > 1 for x in janus.values())
        out.append(f"- Janus Quicksort on ranges faster than on MPI communicators at every p >= 64: "
                   f"**{'holds' if holds else 'does not hold'}** where measured ("
                   + ", ".join(f"{case}, p = {p}: {x:.1f}x" for (case, p), x in sorted(janus.items(), key=lambda i: (i[0][1], i[0][0])))
                   + "; communication only, computation is not simulated).")
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
    plots_exchange(results, plt, out)


def plots_exchange(results: list[dict], plt, out: Path) -> None:
    """scale_exchange.png: the sparse all-to-all by peers, the grid all-to-all and the sorts."""
    def pts(bench, case, variant):
        return sorted((r["ranks"], r["seconds"] * 1e6) for r in results
                      if (r["bench"], r["case"], r["variant"], r["platform"]) == (bench, case, variant, "1us"))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    ax = axes[0]
    cases = ["2 peers", "8 peers", "32 peers", "p/2 peers"]
    for color, (variant, label) in enumerate((("nampi", "sparse all-to-all"), ("mpi", "Alltoall + Alltoallv (bruck)"),
                                              ("mpi_linear", "Alltoall + Alltoallv (linear)"),
                                              ("mpi_known", "Isend/Irecv, sources known"))):
        for p, style in ((256, "-"), (1024, "--")):
            got = [(i, s) for i, case in enumerate(cases) for q, s in pts("sparse_alltoall", case, variant) if q == p]
            if got:
                ax.plot([i for i, _ in got], [s for _, s in got], style, marker="o", color=f"C{color}",
                        label=f"{label}, p = {p}")
    ax.set_xticks(range(len(cases)), cases)
    ax.set_yscale("log")
    ax.set_ylabel("simulated µs per exchange")
    ax.set_title("sparse all-to-all, 16 ints per peer")
    ax.set_ylim(top=ax.get_ylim()[1] * 30)  # room for the legend above the lines
    ax.legend(fontsize=6, ncol=2, loc="upper left")
    ax = axes[1]
    for variant, label in (("nampi", "grid.alltoallv (2 hops)"), ("mpi", "Alltoall + Alltoallv (bruck)")):
        got = pts("grid_alltoallv", "1-3 ints", variant)
        if got:
            ax.plot([p for p, _ in got], [s for _, s in got], marker="o", label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("simulated ranks")
    ax.set_ylabel("simulated µs per call")
    ax.set_title("all-to-all of 1-3 ints per pair")
    ax.legend(fontsize=7)
    ax = axes[2]
    labels = sorted({(r["ranks"], r["case"]) for r in results if r["bench"] == "janus_sort"},
                    key=lambda x: (float(x[1].split("/")[0]), x[0]))
    for variant, label in (("nampi", "Janus on ranges"), ("mpi", "Janus on MPI_Comm_split"), ("sort_plugin", "comm.sort (PSRS)")):
        got = [(i, s) for i, (p, case) in enumerate(labels) for q, s in pts("janus_sort", case, variant) if q == p]
        if got:
            ax.plot([i for i, _ in got], [s for _, s in got], "o", label=label)
    ax.set_xticks(range(len(labels)), [f"{case}\np = {p}" for p, case in labels], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("simulated µs per sort (communication only)")
    ax.set_title("sorting uint64 keys")
    ax.set_ylim(top=ax.get_ylim()[1] * 30)
    ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("Exchanges and sorts on SimGrid SMPI 3.32 (platform 1us), simulated time; computation is not simulated")
    fig.tight_layout()
    fig.savefig(out / "scale_exchange.png", dpi=110)
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
    build(args.build_dir, sorted({r["program"] for r in todo}))
    start = time.perf_counter()
    # The largest first: two of them at once keep both cores busy to the end.
    todo.sort(key=lambda r: -r["ranks"])
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(lambda r: run_one(r, config, args.build_dir), todo):
            results.append(r)
            print(f"{r['bench']:<15} {r['case']:<9} {r['variant']:<17} {r['platform']:<5} p={r['ranks']:<5} "
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
