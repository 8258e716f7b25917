#!/usr/bin/env python3
"""Global process addressing (issue 17): routed RPCs against plain MPI, in one run.

    .venv/bin/python bench/global_bench.py --mpi mpich     # make bench-global

Runs build/bench-<mpi>/global_rpc_bench (bench/global/rpc_bench.cpp) as separately launched
jobs in a fresh set directory, MPICH with its ofi netmod (ports), and writes
bench/results/<mpi>/global.json; bench/summary.py adds it to summary.md. Figures:

- round trip of an 8-byte MPI_Send/MPI_Recv ping-pong against universe::call("ping") to the
  other rank of the set (1 hop each way), to a linked set's root (1 hop, after an on-demand
  link) and to another rank of that set (2 hops each way: through its root);
- the paper's per-connection cost C_c = T / (n k) of getting 64 bytes of connection data
  from k peers per process, by RPC to just those peers, against one MPI_Allgather of all.
Each figure is the median of --repeat runs (each itself a median over blocks of calls).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


def run_json(cmd: list[str], env: dict) -> list[dict]:
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{out.stdout}{out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mpi", default="mpich")
    p.add_argument("--build-dir", type=Path)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--ranks", type=int, nargs="+", default=[4, 8], help="ranks of the C_c jobs")
    args = p.parse_args()
    build = args.build_dir or ROOT / "build" / f"bench-{args.mpi}"
    exe = str(build / "global_rpc_bench")
    mpiexec = str(ROOT / ".venv" / "bin" / "mpiexec") if args.mpi == "mpich" else "mpiexec"
    tmp = Path(tempfile.mkdtemp(prefix="nampi-global-bench-"))
    env = dict(os.environ, NAMPI_SETS_DIR=str(tmp / "sets"), MPIR_CVAR_CH4_NETMOD="ofi")
    started = time.time()
    hops, remote, cc = [], [], []
    for _ in range(args.repeat):
        hops += run_json([mpiexec, "-n", "2", exe, "hops", str(args.iterations)], env)
        release = tmp / "release"
        server = subprocess.Popen([mpiexec, "-n", "2", exe, "serve", "bench-server", str(release)], env=env)
        while not (tmp / "sets" / "bench-server.set").exists():
            time.sleep(0.02)
        remote += run_json([mpiexec, "-n", "1", exe, "remote", "bench-client", "bench-server",
                            str(args.iterations // 4)], env)
        release.touch()
        server.wait(timeout=120)
        release.unlink()
        for n in args.ranks:
            cc += run_json([mpiexec, "-n", str(n), exe, "cc", "50"], env)
    med = lambda rows, key: statistics.median(r[key] for r in rows)
    result = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "repeat": args.repeat,
        "iterations": args.iterations,
        "mpi_rtt_us": med(hops, "mpi_rtt_us"),
        "rpc_1hop_us": med(hops, "rpc_1hop_us"),
        "link_us": med(remote, "link_us"),
        "rpc_linked_1hop_us": med(remote, "rpc_linked_1hop_us"),
        "rpc_linked_2hop_us": med(remote, "rpc_linked_2hop_us"),
        "cc": [{"ranks": n, "k": k,
                "rpc_cc_us": statistics.median(r["rpc_cc_us"] for r in cc if (r["ranks"], r["k"]) == (n, k)),
                "allgather_cc_us": statistics.median(r["allgather_cc_us"] for r in cc if (r["ranks"], r["k"]) == (n, k))}
               for n, k in sorted({(r["ranks"], r["k"]) for r in cc})],
        "elapsed_s": round(time.time() - started, 1),
    }
    out = BENCH / "results" / args.mpi / "global.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    subprocess.run([sys.executable, str(BENCH / "summary.py")], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
