"""python -m generator generate|check|spec-check|import-standard"""

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


def import_standard(root: Path, versions_file: Path | None, force: bool) -> int:
    from .import_mpi import import_standard as run, read_list

    versions = {}
    for name, version in read_list(versions_file) if versions_file else []:
        if version is None:
            raise SpecError(None, f"{versions_file}: {name}: no version given")
        versions[name] = version
    changed = run(root / "spec", versions, force=force)
    for path, text in sorted(changed.items()):
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(root).as_posix()}")
    print(f"spec/mpi/: {len(changed)} files changed")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator")
    parser.add_argument("command", choices=["generate", "check", "spec-check", "import-standard"])
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root (default: this checkout)")
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: <root>/generated)")
    parser.add_argument("--versions", type=Path, help="import-standard: file of `MPI_Name introduced` lines for new entries")
    parser.add_argument("--force", action="store_true", help="import-standard: overwrite unlisted differences from apis.json")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out_dir = args.out or root / "generated"
    try:
        if args.command == "spec-check":
            from .spec_check import check

            report = check(root / "spec", root)
            for p in report.problems:
                print(p, file=sys.stderr)
            print(report.summary())
            return 1 if report.problems else 0
        if args.command == "import-standard":
            return import_standard(root, args.versions, args.force)
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
