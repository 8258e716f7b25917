"""Seed `spec/mpi/<chapter>.yaml` from the MPI Forum's machine-readable standard.

    python -m generator import-standard [--versions versions.txt] [--force]   # everything
    python -m generator.import_mpi [--introduced 1.0] MPI_Send MPI_Recv ...   # some functions
    python -m generator.import_mpi --list functions.txt   # lines: `MPI_Name [introduced]`

The Forum data is `apis.json` (MPI 5.0 level) as shipped with the `pympistandard` package; its
own C rendering (`procedure.express.iso_c`) gives the exact C types. The importer writes the
Forum fields of an entry (`params`, `returns`, `large_count.params`, `callback`, `implements`)
and keeps the curated ones (`introduced`, `deprecated`, `removed`, `note`, `implementations`, `local`,
`large_count.introduced`). An existing entry whose Forum fields differ from apis.json only where
spec/mpi/deviations.yaml lists a difference is a curated correction and is kept as it is; any
other difference makes the import refuse, unless given `--force` (which overwrites it).

apis.json has neither a chapter nor a version for a procedure. The chapter is derived from the
function's name by the rules of `spec/mpi/chapters.yaml` (the MPI 5.0 document's chapters); callback
typedefs and predefined functions go to `callbacks.yaml`; `introduced` must be given for new
entries (`--introduced`, the list file's second column, or import-standard's `--versions`).
A `_c` twin is recorded on its base entry (see generator/mpi_spec.py for why); its
`introduced` defaults to 4.0, the first standard with large-count functions.

Output is canonical: entries sorted by name, one flow mapping per parameter, so
load -> dump reproduces a file byte for byte. YAML comments are not kept; use `note:`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

from .errors import SpecError
from .forum import (
    CALLBACKS_CHAPTER,
    CHAPTERS,
    CURATED_FIELDS,
    ENTRY_KEY_ORDER,
    FIRST_LARGE_COUNT_VERSION,
    PARAM_KEY_ORDER,
    ForumData,
    entry_of,
    load_chapters,
)
from .mpi_spec import load_mpi_entries, version_key
from .spec_check import differences, load_deviations

# --- canonical YAML ---------------------------------------------------------------------------


def _scalar(value: object) -> str:
    """A YAML scalar: identifiers plain when YAML reads them back as the same string."""
    if value is True:
        return "true"
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value) and yaml.safe_load(value) == value:
        return value
    return json.dumps(value)


def _quoted(value: str) -> str:
    return json.dumps(value)


def _param_line(param: dict) -> str:
    fields = []
    for key in PARAM_KEY_ORDER:
        if key not in param:
            continue
        value = param[key]
        if key in ("c_type",):
            text = _quoted(value)
        elif key == "length":
            text = "[" + ", ".join(_quoted(v) for v in value) + "]" if isinstance(value, list) else _quoted(value)
        else:
            text = _scalar(value)
        fields.append(f"{key}: {text}")
    return "    - {" + ", ".join(fields) + "}"


def dump_entry(name: str, entry: dict) -> str:
    unknown = set(entry) - set(ENTRY_KEY_ORDER)
    if unknown:
        raise ValueError(f"{name}: unknown keys {sorted(unknown)}")
    lines = [f"{name}:"]
    for key in ENTRY_KEY_ORDER:
        if key not in entry:
            continue
        value = entry[key]
        if key == "callback":
            lines.append("  callback: true")
        elif key == "implements":
            lines.append(f"  implements: {_scalar(value)}")
        elif key == "local":
            lines.append("  local: true")
        elif key == "implementations":
            lines.append("  implementations:")
            for impl, fields in value.items():
                lines.append(f"    {impl}:")
                lines.append(f"      reason: {_quoted(fields['reason'])}")
                if "params" in fields:
                    lines.append("      params: {" + ", ".join(f"{_scalar(k)}: {_quoted(v)}" for k, v in fields["params"].items()) + "}")
                if fields.get("skip"):
                    lines.append("      skip: true")
        elif key == "typed":
            fields = []
            for tkey, tvalue in value.items():
                if isinstance(tvalue, list):
                    fields.append(f"{tkey}: [" + ", ".join(_scalar(v) for v in tvalue) + "]")
                elif tkey == "reason":
                    fields.append(f"{tkey}: {_quoted(tvalue)}")
                else:
                    fields.append(f"{tkey}: {_scalar(tvalue)}")
            lines.append("  typed: {" + ", ".join(fields) + "}")
        elif key in CURATED_FIELDS:
            lines.append(f"  {key}: {_quoted(value)}")
        elif key == "returns":
            lines.append(f"  returns: {{kind: {_scalar(value['kind'])}, c_type: {_quoted(value['c_type'])}}}")
        elif key == "params":
            lines.append("  params: []" if not value else "  params:")
            lines.extend(_param_line(p) for p in value)
        elif key == "large_count":
            lines.append("  large_count:")
            lines.append(f"    introduced: {_quoted(value['introduced'])}")
            order = [p["name"] for p in entry["params"]]
            types = sorted(value["params"].items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
            lines.append("    params: {}" if not types else "    params:")
            lines.extend(f"      {_scalar(pname)}: {_quoted(c_type)}" for pname, c_type in types)
    return "\n".join(lines) + "\n"


CALLBACKS_HEADER = (
    "#\n"
    "# Why a file of its own: these are types (`typedef int MPI_X(...)`) and the predefined functions\n"
    "# passed where such a type is expected (MPI_COMM_DUP_FN, often a macro in mpi.h), not functions\n"
    "# a program calls, so the PMPI counter, the configure probe and the bindings must not see them.\n"
    "# They share the function entry shape (params, returns, large_count) so that loading, the\n"
    "# importer and spec-check treat them alike; `callback: true` marks a typedef and\n"
    "# `implements: <typedef>` a predefined function. The loader returns them apart\n"
    "# (generator/mpi_spec.py: load_mpi_callbacks).\n"
)


def dump_chapter(chapter: str, entries: dict[str, dict]) -> str:
    title = CHAPTERS[chapter] if chapter == CALLBACKS_CHAPTER else f"C functions of the chapter \"{CHAPTERS.get(chapter, chapter)}\""
    header = (
        f"# spec/mpi/{chapter}.yaml: MPI {title} (MPI 5.0 level).\n"
        "# Seeded by `python -m generator import-standard` from pympistandard's apis.json, then curated:\n"
        "# `introduced`, `deprecated`, `removed`, `note`, `implementations` and `large_count.introduced`\n"
        "# are ours, from the standard's text and the implementations' mpi.h (apis.json has no versions);\n"
        "# the rest is compared with apis.json by `make spec-check` (intended differences, each with its\n"
        "# reason: spec/mpi/deviations.yaml). Schema: spec/schema/mpi.schema.json. The importer rewrites\n"
        "# this file; comments are not kept (use `note:`).\n"
    )
    if chapter == CALLBACKS_CHAPTER:
        header += CALLBACKS_HEADER
    return header + "".join("\n" + dump_entry(name, entries[name]) for name in sorted(entries))


# --- import -----------------------------------------------------------------------------------


def _max_version(a: str, b: str) -> str:
    return a if version_key(a) >= version_key(b) else b


def import_functions(
    spec_dir: Path,
    requests: list[tuple[str, str | None]],
    *,
    large_count_introduced: str = FIRST_LARGE_COUNT_VERSION,
    force: bool = False,
    forum: ForumData | None = None,
) -> dict[Path, str]:
    """Import or refresh `requests` [(name, introduced or None)]; returns {file: new text} of changed files."""
    forum = forum or ForumData()
    existing = load_mpi_entries(spec_dir, spec_dir.parent)
    deviations = load_deviations(spec_dir, spec_dir.parent)
    chapters_of_spec = load_chapters(spec_dir)
    chapters: dict[str, dict[str, dict]] = {}
    for function in existing.values():
        chapters.setdefault(function.chapter, {})[function.name] = entry_of(function)
    touched: set[str] = set()
    problems: list[str] = []
    for name, introduced in requests:
        base = forum.twin_base(name)
        if base is not None:
            problems.append(f"{name}: large-count twins are recorded on their base entry; import {base}")
            continue
        if not forum.has(name):
            problems.append(f"{name}: not a C function in apis.json")
            continue
        new = forum.entry(name)
        if name in existing:
            chapter = existing[name].chapter
            old = chapters[chapter][name]
            keys = {key for key, _, _ in differences(existing[name], new)}
            if keys and keys <= set(deviations):
                continue  # a correction listed in deviations.yaml: keep it, even with --force
            if keys and not force:
                problems.append(
                    f"{existing[name].where}: {name} differs from apis.json where spec/mpi/deviations.yaml lists "
                    f"nothing ({', '.join(sorted(keys - set(deviations)))}); list it there or re-import with --force"
                )
                continue
            entry = {key: old[key] for key in CURATED_FIELDS if key in old}
            if introduced is not None:
                entry["introduced"] = introduced
            lc_introduced = old.get("large_count", {}).get("introduced")
        else:
            if introduced is None:
                problems.append(f"{name}: new entry needs an introduced version (apis.json has none): --introduced X.Y")
                continue
            chapter = forum.chapter(name, chapters_of_spec)
            entry = {"introduced": introduced}
            lc_introduced = None
        entry.update(new)
        if "large_count" in entry:
            entry["large_count"] = {
                "introduced": lc_introduced or _max_version(large_count_introduced, entry["introduced"]),
                "params": new["large_count"]["params"],
            }
        chapters.setdefault(chapter, {})[name] = entry
        touched.add(chapter)
    if problems:
        raise SpecError(None, "\n".join(problems))
    return _changed_files(spec_dir, chapters, touched)


def _changed_files(spec_dir: Path, chapters: dict[str, dict[str, dict]], touched: set[str]) -> dict[Path, str]:
    changed = {}
    for chapter in sorted(touched):
        path = spec_dir / "mpi" / f"{chapter}.yaml"
        text = dump_chapter(chapter, chapters[chapter])
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            changed[path] = text
    return changed


def import_standard(
    spec_dir: Path,
    versions: dict[str, str] | None = None,
    *,
    force: bool = False,
    forum: ForumData | None = None,
) -> dict[Path, str]:
    """Import or refresh every C function, callback typedef and predefined function of apis.json.

    `versions` gives `introduced` for entries the spec does not have yet; returns {file: new
    text} of the files that change (nothing when the spec is up to date)."""
    forum = forum or ForumData()
    versions = versions or {}
    names = forum.names() + forum.callback_names()
    unknown = sorted(set(versions) - set(names))
    if unknown:
        raise SpecError(None, f"versions given for names that are not in apis.json: {', '.join(unknown)}")
    return import_functions(spec_dir, [(name, versions.get(name)) for name in names], force=force, forum=forum)


def read_list(path: Path) -> list[tuple[str, str | None]]:
    """A list file: `MPI_Name [introduced]` per line; `#` starts a comment."""
    requests = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) > 2:
            raise SpecError(None, f"{path}:{number}: expected `MPI_Name [introduced]`")
        requests.append((words[0], words[1] if len(words) == 2 else None))
    return requests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m generator.import_mpi",
        description="Write or refresh spec/mpi/<chapter>.yaml entries from pympistandard's apis.json (MPI 5.0).",
    )
    parser.add_argument("names", nargs="*", help="MPI C function names (base names, not _c twins)")
    parser.add_argument("--list", type=Path, action="append", default=[], help="file of `MPI_Name [introduced]` lines")
    parser.add_argument("--introduced", help="introduced version for new entries named on the command line")
    parser.add_argument("--large-count-introduced", default=FIRST_LARGE_COUNT_VERSION,
                        help="introduced version of new _c twins (default %(default)s)")
    parser.add_argument("--force", action="store_true", help="overwrite differences from apis.json that spec/mpi/deviations.yaml does not list")
    parser.add_argument("--spec-dir", type=Path, default=Path(__file__).resolve().parent.parent / "spec")
    args = parser.parse_args(argv)
    requests = [(name, args.introduced) for name in args.names]
    try:
        for path in args.list:
            requests += [(name, version or args.introduced) for name, version in read_list(path)]
        if not requests:
            parser.error("no function names given")
        changed = import_functions(
            args.spec_dir, requests, large_count_introduced=args.large_count_introduced, force=args.force
        )
    except SpecError as err:
        print(err, file=sys.stderr)
        return 1
    for path, text in changed.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        shown = path.relative_to(args.spec_dir.parent) if path.is_relative_to(args.spec_dir.parent) else path
        print(f"wrote {shown}")
    if not changed:
        print("spec/mpi/ is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
