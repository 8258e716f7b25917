"""python -m generator generate|check|spec-check|import-standard|availability"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .errors import SpecError

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path) -> dict[str, str]:
    from . import cache
    from .pipeline import render_all
    from .write import format_cpp, stamp

    # Content-addressed, so any checkout's or copy's entries are right for another: the
    # generator's tests point all their temporary copies at the checkout's.
    cache.use(Path(os.environ.get("NAMPI_GENERATOR_CACHE", root / "build" / "generator-cache")))
    return stamp(format_cpp(render_all(root), root))


def import_standard(root: Path, versions_file: Path | None, force: bool, apis: Path | None = None) -> int:
    from .forum import ForumData
    from .import_mpi import import_standard as run, read_list

    versions = {}
    for name, version in read_list(versions_file) if versions_file else []:
        if version is None:
            raise SpecError(None, f"{versions_file}: {name}: no version given")
        versions[name] = version
    changed = run(root / "spec", versions, force=force, forum=ForumData(apis))
    for path, text in sorted(changed.items()):
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(root).as_posix()}")
    print(f"spec/mpi/: {len(changed)} files changed")
    return 0


def availability(root: Path, mpi: str, label: str, config_h: Path, check: bool) -> int:
    from . import availability as av
    from .mpi_spec import all_c_functions, load_mpi_spec

    functions = load_mpi_spec(root / "spec", root)
    found = av.probed(config_h, functions)
    text = av.render(mpi, label, found, len(all_c_functions(functions)))
    path = root / "spec" / "mpi" / av.FOLDER / f"{mpi}.txt"
    old = path.read_text(encoding="utf-8") if path.exists() else None
    rel = path.relative_to(root).as_posix()
    if check:
        if old == text:
            print(f"{rel}: matches the probe ({len(found)} functions)")
            return 0
        recorded = {l for l in (old or "").splitlines() if l and not l.startswith("#")}
        for name in sorted(found - recorded):
            print(f"{rel}: the probe found {name}, the record lacks it", file=sys.stderr)
        for name in sorted(recorded - found):
            print(f"{rel}: the record has {name}, the probe did not find it", file=sys.stderr)
        if recorded == found:
            print(f"{rel}: header differs (label or total)", file=sys.stderr)
        print(f"{rel}: out of date, run `make availability MPI={mpi}` and `make generate`", file=sys.stderr)
        return 1
    if old != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"{rel}: {len(found)} functions{'' if old != text else ' (unchanged)'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator")
    parser.add_argument("command", choices=["generate", "check", "spec-check", "import-standard", "availability"])
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root (default: this checkout)")
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: <root>/generated)")
    parser.add_argument("--versions", type=Path, help="import-standard: file of `MPI_Name introduced` lines for new entries")
    parser.add_argument("--force", action="store_true", help="import-standard: overwrite unlisted differences from apis.json")
    parser.add_argument("--apis", type=Path, help="import-standard, spec-check: the MPI Forum's apis.json to read "
                                                  "(default: the one pympistandard bundles)")
    parser.add_argument("--mpi", help="availability: record name (mpich, openmpi, debian-openmpi, debian-mpich)")
    parser.add_argument("--label", help="availability: the MPI's name and version for the coverage table")
    parser.add_argument("--config", type=Path, help="availability: nampi/config.h of a configured build")
    parser.add_argument("--check", action="store_true", help="availability: fail if the record differs from the probe")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out_dir = args.out or root / "generated"
    try:
        if args.command == "spec-check":
            from .forum import ForumData
            from .spec_check import check

            report = check(root / "spec", root, forum=ForumData(args.apis))
            for p in report.problems:
                print(p, file=sys.stderr)
            print(report.summary())
            return 1 if report.problems else 0
        if args.command == "import-standard":
            return import_standard(root, args.versions, args.force, args.apis)
        if args.command == "availability":
            if not (args.mpi and args.label and args.config):
                parser.error("availability needs --mpi, --label and --config")
            return availability(root, args.mpi, args.label, args.config, args.check)
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
