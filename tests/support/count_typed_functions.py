"""Count the distinct MPI functions whose calls the typed-layer tests assert.

A function counts when a test in tests/typed/*.cpp names it as a key of an expected call
multiset (`{"MPI_X", n}`), i.e. the PMPI counter confirms the test issued it. Functions of
the point-to-point and collectives chapters of spec/mpi/ do not count, nor do the collective
operations of other chapters (MPI_Win_fence, neighbourhood collectives): the tests use them,
but issue 4 asks for functions outside communication. A `_c` twin counts as its base function.

    python tests/support/count_typed_functions.py [--list] [--min N]

prints the number (and with --list one line per function: chapter, name); exits 1 if a name
is not an MPI function of the spec, or if the number is below --min.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.mpi_spec import load_mpi_spec  # noqa: E402

EXCLUDED_CHAPTERS = {"pt2pt", "collectives"}
# Collective communication or synchronization that lives in other chapters.
EXCLUDED_PATTERN = re.compile(r"^MPI_(Win_fence|I?neighbor_\w+)$")
EXPECTATION = re.compile(r'\{\s*"(MPI_\w+)"\s*,')


def expected_calls(test_dir: Path) -> set[str]:
    """Every MPI function named as a key of an expected call multiset."""
    names: set[str] = set()
    for path in sorted(test_dir.glob("*.cpp")):
        names.update(EXPECTATION.findall(path.read_text()))
    return names


def chapters_of(root: Path) -> dict[str, str]:
    """C function name (twins included) -> chapter of its base function."""
    result = {}
    for name, function in load_mpi_spec(root / "spec", root).items():
        result[name] = function.chapter
        if function.large_count:
            result[function.large_count] = function.chapter
    return result


def counted(root: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """(chapter, base name) of every counted function, and names unknown to the spec."""
    chapters = chapters_of(root)
    unknown = sorted(n for n in expected_calls(root / "tests" / "typed") if n not in chapters)
    found = set()
    for name in expected_calls(root / "tests" / "typed"):
        if name not in chapters:
            continue
        base = name[:-2] if name.endswith("_c") and name[:-2] in chapters else name
        chapter = chapters[base]
        if chapter in EXCLUDED_CHAPTERS or EXCLUDED_PATTERN.match(base):
            continue
        found.add((chapter, base))
    return sorted(found), unknown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print each counted function")
    parser.add_argument("--min", type=int, default=0, help="fail below this number")
    args = parser.parse_args(argv)
    found, unknown = counted(ROOT)
    if args.list:
        for chapter, name in found:
            print(f"{chapter:14} {name}")
    print(f"{len(found)} distinct MPI functions outside pt2pt and collectives are asserted by tests/typed/")
    for name in unknown:
        print(f"error: {name} is not an MPI function of spec/mpi/", file=sys.stderr)
    if unknown or len(found) < args.min:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
