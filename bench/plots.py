"""PNG plots of one MPI's results (bench/results/<mpi>/): ratios, lines of code, compile cost."""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from summary import load  # noqa: E402

NAMPI, MPI = "#1f77b4", "#ff7f0e"


def _ratios(records, out: Path) -> None:
    labels, series = [], {"time (hyperfine)": [], "in-program time": [], "instructions": []}
    for rec in records:
        cg = (rec.get("callgrind") or {}).get("ir_ratio")
        for run in rec.get("runs") or []:
            labels.append(f"{rec['name']} ({run['ranks']})")
            series["time (hyperfine)"].append(run.get("time_ratio") or 0)
            series["in-program time"].append(run.get("program_ratio") or 0)
            series["instructions"].append(cg or 0)
    if not labels:
        return
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(labels) + 1.5))
    height = 0.8 / len(series)
    clip = 3.0  # longer bars are cut here and labelled with their value
    for i, (name, values) in enumerate(series.items()):
        ys = [y + (i - 1) * height for y in range(len(labels))]
        ax.barh(ys, [min(v, clip) for v in values], height, label=name)
        for y, v in zip(ys, values):
            if v > clip:
                ax.text(clip, y, f" {v:.1f}", va="center", fontsize="x-small")
    ax.set_xlim(0, clip * 1.1)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("nampi / plain MPI (ranks in parentheses; instructions at callgrind ranks)")
    ax.set_title("nampi vs plain MPI: ratios (1 = equal)")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def _pairs(records, out: Path, panels) -> None:
    seen, names, recs = set(), [], []
    for rec in records:  # one bar pair per source folder (cases share the sources)
        if rec["folder"] not in seen:
            seen.add(rec["folder"])
            names.append(rec["folder"])
            recs.append(rec)
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 0.4 * len(names) + 1.5),
                             squeeze=False)
    for ax, (title, get) in zip(axes[0], panels):
        ys = range(len(names))
        ax.barh([y - 0.2 for y in ys], [get(r, "nampi") or 0 for r in recs], 0.4, label="nampi",
                color=NAMPI)
        ax.barh([y + 0.2 for y in ys], [get(r, "mpi") or 0 for r in recs], 0.4,
                label="plain MPI", color=MPI)
        ax.set_yticks(list(ys), names)
        ax.invert_yaxis()
        ax.set_title(title)
        ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def _compile(rec, v, key):
    c = (rec.get("compile") or {}).get(v)
    return c and c[key]


def make_plots(mpi_dir: Path) -> None:
    _, records = load(mpi_dir)
    _ratios(records, mpi_dir / "ratios.png")
    _pairs(records, mpi_dir / "loc.png",
           [("lines of code (non-blank, non-comment)", lambda r, v: r["loc"][v])])
    _pairs(records, mpi_dir / "compile.png",
           [("compile time (CPU s, mpicxx -O2 -c)", lambda r, v: _compile(r, v, "median_cpu_s")),
            ("binary size (KiB)",
             lambda r, v: (_compile(r, v, "binary_bytes") or 0) / 1024)])


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        make_plots(Path(arg))
