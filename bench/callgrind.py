"""Instruction counts from callgrind output files, split into "outside MPI" and "inside MPI".

Inside MPI means: inclusive cost of every call from an object that is not part of the MPI
library into one that is (an object whose path lies under the MPI installation prefix). That
part contains the MPI progress engine's busy-waiting and therefore varies from run to run; the
rest (the program, nampi's inlined wrappers, libstdc++/libc called by them) is deterministic.

Callgrind format (valgrind docs, "Callgrind Format Specification"): `ob=`/`fl=`/`fn=` set the
current object/file/function; `cob=`/`cfi=`/`cfn=` name the callee of the following `calls=`
line, whose next line holds the call's inclusive cost. A callee without `cob=` lives in the
current object. Names are compressed as `(id) name` on first use and `(id)` afterwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_NAME = re.compile(r"^\((\d+)\)(?: (.*))?$")


@dataclass
class Counts:
    total: int = 0  # all instructions collected (summary:/totals:)
    mpi: int = 0  # inclusive instructions of calls into the MPI library
    mpi_calls: dict[str, int] = field(default_factory=dict)  # MPI entry point -> calls

    @property
    def outside_mpi(self) -> int:
        return self.total - self.mpi

    def add(self, other: "Counts") -> None:
        self.total += other.total
        self.mpi += other.mpi
        for name, n in other.mpi_calls.items():
            self.mpi_calls[name] = self.mpi_calls.get(name, 0) + n


def _resolve(table: dict[str, str], value: str) -> str:
    m = _NAME.match(value.strip())
    if not m:
        return value.strip()
    key, name = m.group(1), m.group(2)
    if name is not None:
        table[key] = name
        return name
    return table.get(key, f"({key})")


def parse(path: Path, is_mpi_object) -> Counts:
    """Counts of one callgrind output file; is_mpi_object(path) says which objects are MPI."""
    tables: dict[str, dict[str, str]] = {"ob": {}, "fl": {}, "fn": {}}
    counts = Counts()
    current_ob = ""
    callee_ob: str | None = None
    callee_fn = ""
    pending_call = 0  # >0: the next cost line is a call's inclusive cost
    summary = None
    mpi_cache: dict[str, bool] = {}

    def mpi(ob: str) -> bool:
        if ob not in mpi_cache:
            mpi_cache[ob] = bool(is_mpi_object(ob))
        return mpi_cache[ob]

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip() or line[0] == "#":
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                if pending_call:
                    target_ob = callee_ob if callee_ob is not None else current_ob
                    if mpi(target_ob) and not mpi(current_ob):
                        parts = line.split()
                        cost = int(parts[1]) if len(parts) > 1 else 0
                        counts.mpi += cost
                        counts.mpi_calls[callee_fn] = counts.mpi_calls.get(callee_fn, 0) + pending_call
                    pending_call = 0
                    callee_ob = None
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key == "ob":
                current_ob = _resolve(tables["ob"], value)
            elif key == "fn":
                _resolve(tables["fn"], value)
                callee_ob = None
            elif key in ("fl", "fi", "fe", "cfi", "cfl", "jfi"):
                _resolve(tables["fl"], value)
            elif key == "cob":
                callee_ob = _resolve(tables["ob"], value)
            elif key in ("cfn", "jfn"):
                name = _resolve(tables["fn"], value)
                if key == "cfn":
                    callee_fn = name
            elif key == "calls":
                pending_call = int(value.split()[0])
            elif line.startswith("summary:"):
                summary = int(line.split()[1])
            elif line.startswith("totals:") and summary is None:
                summary = int(line.split()[1])
    counts.total = summary or 0
    return counts


def parse_all(files, is_mpi_object) -> Counts:
    total = Counts()
    for path in sorted(files):
        total.add(parse(Path(path), is_mpi_object))
    return total


def prefix_matcher(prefix: Path):
    """is_mpi_object for an MPI installed under `prefix` (its lib/ directory)."""
    lib = str(Path(prefix).resolve() / "lib") + "/"
    return lambda ob: ob.startswith(lib)
