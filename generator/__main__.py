"""python -m generator generate|check|spec-check"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import SpecError

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path) -> dict[str, str]:
    from .pipeline import render_all
    from .write import format_cpp, input_hash, stamp

    files, inputs = render_all(root)
    return format_cpp(stamp(files, input_hash(inputs, root)), root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator")
    parser.add_argument("command", choices=["generate", "check", "spec-check"])
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root (default: this checkout)")
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: <root>/generated)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out_dir = args.out or root / "generated"
    try:
        if args.command == "spec-check":
            from .spec_check import spec_check

            problems = spec_check(root / "spec")
            for p in problems:
                print(p, file=sys.stderr)
            return 1 if problems else 0
        files = build(root)
    except SpecError as err:
        print(err, file=sys.stderr)
        return 1
    if args.command == "check":
        from .write import diff_tree

        diffs = diff_tree(files, out_dir)
        for d in diffs:
            print(f"generated/{d}: differs from what the spec generates", file=sys.stderr)
        if diffs:
            print("generated/ is out of date: run `make generate` and commit", file=sys.stderr)
        return 1 if diffs else 0
    from .write import write_tree

    changed = write_tree(files, out_dir)
    print(f"generated/: {len(files)} files, {len(changed)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
