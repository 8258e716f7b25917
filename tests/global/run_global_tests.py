#!/usr/bin/env python3
"""Global process addressing across separately launched jobs (nampi/global.hpp, issue 17).

    run_global_tests.py --case two_jobs --mpiexec M --job global_job --sets nampi-sets

Each case starts its own MPI name server (MPICH's hydra_nameserver, beside mpiexec, on a
free port), launches jobs of tests/global/global_job.cpp with separate mpiexec commands in
a fresh set directory (NAMPI_SETS_DIR), checks what every rank printed, and stops the name
server. It fails if a job or a process is left behind, or the directory holds an entry.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIMEOUT = 90


class Failure(Exception):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failure(what)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Harness:
    def __init__(self, args):
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="nampi-global-"))
        self.sets_dir = self.tmp / "sets"
        self.env = dict(os.environ, NAMPI_SETS_DIR=str(self.sets_dir), MPIR_CVAR_CH4_NETMOD="ofi")
        self.jobs: list[subprocess.Popen] = []
        self.nameserver = None
        self.ns_port = None

    # --- name server and jobs
    def start_nameserver(self):
        """On a free port; again on another one where it exits or does not listen in 10 s
        (a port taken between the probe and its bind)."""
        server = Path(self.args.mpiexec).resolve().parent / "hydra_nameserver"
        check(server.exists(), f"no hydra_nameserver beside {self.args.mpiexec}")
        log = self.tmp / "nameserver.log"
        for attempt in range(5):
            self.ns_port = free_port()
            with open(log, "w") as out:
                self.nameserver = subprocess.Popen([str(server), "-port", str(self.ns_port)],
                                                   stdout=out, stderr=subprocess.STDOUT)
            deadline = time.time() + 10
            while time.time() < deadline and self.nameserver.poll() is None:
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", self.ns_port)) == 0:
                        return
                time.sleep(0.05)
            print(f"hydra_nameserver on port {self.ns_port} (attempt {attempt + 1}): "
                  f"exit {self.nameserver.poll()}: {log.read_text()[-2000:]}")
            self.nameserver.kill()
            self.nameserver.wait()
        self.nameserver = None
        raise Failure("hydra_nameserver did not listen (5 attempts)")

    def launch(self, ranks: int, *job_args: str, sets_dir: Path | None = None) -> subprocess.Popen:
        cmd = [self.args.mpiexec, "-n", str(ranks), *self.args.mpiexec_flag]
        if self.ns_port:
            cmd += ["-nameserver", f"localhost:{self.ns_port}"]
        cmd += [self.args.job, *job_args]
        env = dict(self.env)
        if sets_dir is not None:
            env["NAMPI_SETS_DIR"] = str(sets_dir)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env, start_new_session=True)
        p.args_text = " ".join(cmd)
        self.jobs.append(p)
        return p

    def finish(self, p: subprocess.Popen, expect: int = 0) -> str:
        try:
            out, _ = p.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            raise Failure(f"timed out: {p.args_text}\n{out}")
        sys.stdout.write(f"$ {p.args_text}  -> {p.returncode}\n{out}")
        check(p.returncode == expect, f"exit {p.returncode}, expected {expect}: {p.args_text}")
        return out

    def sets_list(self) -> str:
        out = subprocess.run([self.args.sets, "list"], env=self.env, capture_output=True,
                             text=True, timeout=30)
        sys.stdout.write(f"$ nampi-sets list\n{out.stdout}{out.stderr}")
        check(out.returncode == 0, "nampi-sets list failed")
        return out.stdout

    def entries(self, directory: Path | None = None) -> list[str]:
        d = directory or self.sets_dir
        return sorted(f.name for f in d.iterdir() if not f.name.startswith(".")) if d.exists() else []

    def entry_field(self, set_name: str, key: str) -> str:
        """A field of a set's directory file (name=..., id=..., pid=...)."""
        text = (self.sets_dir / f"{set_name}.set").read_text()
        return re.search(rf"^{key}=(.*)$", text, re.M)[1]

    def wait_for(self, cond, what: str, limit: float = 30):
        deadline = time.time() + limit
        while time.time() < deadline:
            if cond():
                return
            time.sleep(0.05)
        raise Failure(f"waited {limit} s for {what}")

    def close(self):
        for p in self.jobs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
                print(f"left behind and killed: {p.args_text}")
                self.failed_cleanup = True
        if self.nameserver:
            self.nameserver.terminate()
            self.nameserver.wait(timeout=10)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def no_processes_left(self):
        left = []
        for pid in subprocess.run(["pgrep", "-f", self.args.job], capture_output=True, text=True).stdout.split():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue  # gone meanwhile
            if "run_global_tests.py" not in cmdline and "ctest" not in cmdline:
                left.append(f"{pid}: {cmdline}")  # a job, not this driver or its caller
        check(not left, f"processes of {self.args.job} left behind: {left}")


# --- what the jobs print
UID = re.compile(r"^\[(\S+) rank (\d+)\] uid (\d+) (\S+) size (\d+)$", re.M)
PEER = re.compile(r"^\[(\S+) rank (\d+)\] peer (\S+) rank (\d+) uid (\d+) (\S+)$", re.M)
CONNECTED = re.compile(r"^\[(\S+) rank (\d+)\] connected (\S+) remote_size (\d+) remote_sum (\d+)$", re.M)


def check_connected(outputs: dict[str, str], sizes: dict[str, int], peers: dict[str, list[str]]):
    """Every rank printed its uid and each connection; uids are unique and as the peers saw them."""
    uids = {}
    for name, out in outputs.items():
        for m in UID.finditer(out):
            check(m[1] == name, f"{name}: a line of another set: {m[0]}")
            check(m[4] == f"{name}:{m[2]}", f"{name}: name_of(uid) is {m[4]}")
            uids[(name, int(m[2]))] = int(m[3])
        check(sum(1 for k in uids if k[0] == name) == sizes[name], f"{name}: not every rank printed its uid")
    check(len(set(uids.values())) == len(uids), f"uids not unique across jobs: {uids}")
    set_ids = {}
    for (name, rank), u in uids.items():
        check(u & 0xffffffff == rank, f"{name}:{rank}: uid {u} has another rank")
        set_ids.setdefault(name, set()).add(u >> 32)
    check(all(len(s) == 1 for s in set_ids.values()), f"one set id per set: {set_ids}")
    check(len({next(iter(s)) for s in set_ids.values()}) == len(set_ids), "set ids not unique")
    for name, out in outputs.items():
        for peer in peers[name]:
            seen = {int(m[4]): int(m[5]) for m in PEER.finditer(out) if m[3] == peer}
            check(seen == {r: uids[(peer, r)] for r in range(sizes[peer])},
                  f"{name}: uids received from {peer} {seen} are not {peer}'s")
            conn = [m for m in CONNECTED.finditer(out) if m[3] == peer]
            check(len(conn) == sizes[name], f"{name}: not every rank connected to {peer}")
            n = sizes[peer]
            check(all(int(m[4]) == n and int(m[5]) == n * (n - 1) // 2 for m in conn),
                  f"{name}: wrong remote size or sum for {peer}")


def case_jobs(h: Harness, sizes: dict[str, int], separate_dirs: bool = False):
    peers = {name: sorted(n for n in sizes if n != name) for name in sizes}
    procs = {}
    for name, n in sizes.items():
        d = h.tmp / f"sets-{name}" if separate_dirs else None
        procs[name] = h.launch(n, "connect", name, *peers[name], sets_dir=d)
    outputs = {name: h.finish(p) for name, p in procs.items()}
    check_connected(outputs, sizes, peers)
    if separate_dirs:
        for name in sizes:
            check(h.entries(h.tmp / f"sets-{name}") == [], f"{name}: entries left")


def case_two_jobs(h):
    for a, b in [(1, 1), (2, 3), (4, 2)]:
        case_jobs(h, {"ocean": a, "atmosphere": b})
        check(h.entries() == [], f"entries left: {h.entries()}")


def case_three_jobs(h):
    case_jobs(h, {"ocean": 2, "atmosphere": 1, "land": 3})
    check(h.entries() == [], f"entries left: {h.entries()}")


def case_name_service(h):
    # Each job has a directory of its own: only MPI's name service can tell them apart.
    case_jobs(h, {"ocean": 2, "ice": 2}, separate_dirs=True)


def case_race(h):
    release = h.tmp / "release"
    a = h.launch(2, "hold", "contested", str(release))
    b = h.launch(1, "hold", "contested", str(release))
    h.wait_for(lambda: a.poll() is not None or b.poll() is not None, "the loser to give up")
    release.touch()
    outs = [h.finish(p, expect=p.wait(timeout=TIMEOUT)) for p in (a, b)]
    codes = sorted(p.returncode for p in (a, b))
    check(codes == [0, 3], f"exit codes {codes}: exactly one job must win")
    loser = outs[0] if a.returncode == 3 else outs[1]
    check("the set name 'contested' is taken by a running job" in loser, "the loser's message")
    check(h.entries() == [], f"entries left: {h.entries()}")


def case_killed(h):
    release = h.tmp / "release"
    doomed = h.launch(2, "hold", "doomed", str(release))
    h.wait_for(lambda: "doomed.set" in h.entries(), "doomed to register")
    pid = int(h.entry_field("doomed", "pid"))
    os.kill(pid, signal.SIGKILL)  # the root process: mpiexec then ends the rest
    try:
        doomed.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Failure("the killed job did not end")
    check(doomed.returncode != 0, "the killed job reported success")
    h.wait_for(lambda: subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode != 0, "the pid to go")
    check("doomed.set" in h.entries(), "the killed job's entry is there until someone looks")
    # Rendezvous files a killed job may leave (connect's pair port, a link request and answer).
    orphans = [".pair.doomed.other", ".link.doomed", ".linkport.doomed.12345"]
    for name in orphans:
        (h.sets_dir / name).write_text("x\n")
    listing = h.sets_list()
    left = [n for n in orphans if (h.sets_dir / n).exists()]
    check(not left, f"rendezvous files of the dead set left: {left}")
    check("doomed" not in listing and "0 sets" in listing, "nampi-sets list shows the dead set")
    check(h.entries() == [], f"the dead entry was not removed: {h.entries()}")
    # Its name is free again.
    h.finish(h.launch(1, "register", "doomed"))


RPC_OK = re.compile(r"^\[(\S+) rank (\d+)\] rpc ok: (\S+):(\d+) answered (\d+)$", re.M)


def case_rpc(h):
    """Procedures called in the set and across sets: sums computed by the right process, a
    vector result, remote exceptions, unknown procedures, the built-ins (the job checks each)."""
    for a, b in [(1, 1), (2, 3), (4, 2)]:
        procs = {"ocean": h.launch(a, "rpc", "ocean", "atmosphere"),
                 "atmosphere": h.launch(b, "rpc", "atmosphere", "ocean")}
        sizes = {"ocean": a, "atmosphere": b}
        for name, p in procs.items():
            out = h.finish(p)
            peer = "atmosphere" if name == "ocean" else "ocean"
            oks = {int(m[2]): (m[3], int(m[4]), int(m[5])) for m in RPC_OK.finditer(out)}
            check(set(oks) == set(range(sizes[name])), f"{name}: not every rank's calls succeeded")
            for rank, (p_name, there, answer) in oks.items():
                check(p_name == peer and there == rank % sizes[peer] and answer == 6 + rank + 1000 * there,
                      f"{name}:{rank}: answer {answer} from {p_name}:{there}")
        check(h.entries() == [], f"entries left: {h.entries()}")


def case_rpc_killed(h):
    """A call to a process that was killed ends in nampi::rpc_timeout within its timeout."""
    gate = h.tmp / "killed"
    doomed = h.launch(2, "connect_hold", "doomed", "caller", str(h.tmp / "never"))
    caller = h.launch(2, "rpc_after_kill", "caller", "doomed", str(gate))
    h.wait_for(lambda: (h.tmp / "killed.pinged").exists(), "the caller's first ping", limit=60)
    pid = int(h.entry_field("doomed", "pid"))
    os.kill(pid, signal.SIGKILL)
    try:
        doomed.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Failure("the killed job did not end")
    gate.touch()
    out = h.finish(caller)
    timeouts = re.findall(r"^\[caller rank (\d+)\] rpc_timeout after ([0-9.]+) s", out, re.M)
    check(sorted(int(r) for r, _ in timeouts) == [0, 1], "every caller rank got rpc_timeout")
    check(h.entries() == [], f"entries left: {h.entries()}")


def case_ping(h):
    """nampi-sets ping: an MPI singleton links to the set's root on demand and pings each rank
    (rank 0 directly, the others forwarded by the root)."""
    release = h.tmp / "release"
    ocean = h.launch(3, "hold", "ocean", str(release))
    h.wait_for(lambda: "ocean.set" in h.entries(), "ocean to register")
    out = subprocess.run([h.args.sets, "ping", "ocean"], env=h.env, capture_output=True, text=True,
                         timeout=TIMEOUT)
    sys.stdout.write(f"$ nampi-sets ping ocean  -> {out.returncode}\n{out.stdout}{out.stderr}")
    check(out.returncode == 0, "nampi-sets ping failed")
    rows = [line.split() for line in out.stdout.splitlines()[1:]]
    set_id = int(h.entry_field("ocean", "id"))
    check([r[0] for r in rows] == ["0", "1", "2"], f"ranks pinged: {rows}")
    for r in rows:
        check(int(r[1]) == (set_id << 32 | int(r[0])) and r[2] == f"ocean:{r[0]}", f"row {r}")
        check(float(r[3]) > 0, f"round trip {r[3]}")
    release.touch()
    h.finish(ocean)
    check(h.entries() == [], f"entries left: {h.entries()}")


def case_unanswered(h):
    """An entry on another host (its pid cannot be checked) that does not answer three link
    requests in a row is removed by the caller; each call ends in rpc_timeout."""
    h.sets_dir.mkdir(parents=True, exist_ok=True)
    ghost_id = 4095
    entry = (f"name=ghost\nid={ghost_id}\nsize=2\ncommand=./ghost\nhost=elsewhere.invalid\n"
             f"pid=1\nport=tag#0$none$\nstart_ns=0\n")
    (h.sets_dir / "ghost.set").write_text(entry)
    os.link(h.sets_dir / "ghost.set", h.sets_dir / f"{ghost_id}.id")
    out = h.finish(h.launch(1, "ghost", "caller", str(ghost_id)))
    check(out.count("rpc_timeout") == 3, "every call to the ghost timed out")
    check(h.entries() == [], f"the unanswering entry was not removed: {h.entries()}")


def case_single_threaded(h):
    """Without MPI_THREAD_MULTIPLE (no progress thread) calls are served inside serve_for()."""
    server = h.launch(2, "single_serve", "server", "client")
    client = h.launch(3, "single_call", "client", "server")
    out = h.finish(client)
    h.finish(server)
    answers = re.findall(r"^\[client rank (\d+)\] single-threaded call answered (\d+)$", out, re.M)
    check(sorted((int(r), int(a)) for r, a in answers) == [(0, 9), (1, 1009), (2, 9)],
          f"answers {answers}")
    check(h.entries() == [], f"entries left: {h.entries()}")


def case_list(h):
    release = h.tmp / "release"
    alpha = h.launch(2, "hold", "alpha", str(release))
    beta = h.launch(3, "hold", "beta", str(release))
    h.wait_for(lambda: {"alpha.set", "beta.set"} <= set(h.entries()), "both to register")
    kept = h.sets_dir / ".pair.alpha.gamma"  # a live set's rendezvous file stays
    kept.write_text("x\n")
    listing = h.sets_list()
    check(kept.exists(), "a live set's rendezvous file was removed")
    rows = {line.split()[1]: line.split() for line in listing.splitlines()[1:-1]}
    check(set(rows) == {"alpha", "beta"}, f"listed {sorted(rows)}")
    for name, size in [("alpha", 2), ("beta", 3)]:
        row = rows[name]
        check(row[0] == h.entry_field(name, "id"), f"{name}: id")
        check(int(row[2]) == size, f"{name}: size {row[2]}")
        check(row[4] == h.entry_field(name, "pid"), f"{name}: pid")
        check(f"hold {name}" in " ".join(row[7:]) and Path(h.args.job).name in " ".join(row[7:]), f"{name}: command")
    check(listing.splitlines()[-1].startswith("2 sets in "), "the count line")
    release.touch()
    outs = {"alpha": h.finish(alpha), "beta": h.finish(beta)}
    for name, out in outs.items():  # what the universe offered as psets while both ran
        psets = re.search(rf"^\[{name} rank 0\] psets (.*)$", out, re.M)[1].split()
        check(f"nampi://{name}" in psets, f"{name}: its own set among the psets {psets}")
        mpi_psets = [p for p in psets if p.startswith("mpi://")]
        check(not mpi_psets or {"mpi://WORLD", "mpi://SELF"} <= set(mpi_psets), f"MPI's psets: {psets}")
    check("0 sets" in h.sets_list(), "sets listed after they ended")
    check(not kept.exists(), "the ended set's rendezvous file was kept")


CASES = {n[len("case_"):]: f for n, f in globals().items() if n.startswith("case_") and n != "case_jobs"}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--case", required=True, choices=sorted(CASES))
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--mpiexec-flag", action="append", default=[])
    p.add_argument("--job", required=True)
    p.add_argument("--sets", required=True)
    args = p.parse_args()
    h = Harness(args)
    h.failed_cleanup = False
    try:
        h.start_nameserver()
        probe = h.launch(1, "probe", "probe")
        out, _ = probe.communicate(timeout=TIMEOUT)
        if probe.returncode == 77:  # e.g. Debian's MPICH 4.0: ch4:ucx only, no ports
            print(f"SKIPPED: this MPI cannot connect jobs\n{out}")
            h.close()
            return 77
        check(probe.returncode == 0, f"the probe job failed:\n{out}")
        CASES[args.case](h)
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        h.close()
    try:
        h.no_processes_left()
        check(not h.failed_cleanup, "a job was left running")
        check(not h.tmp.exists(), "the test directory was left behind")
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    print(f"OK: {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
