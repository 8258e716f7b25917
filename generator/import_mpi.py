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
function's name by the rules in `CHAPTER_RULES` (the MPI 5.0 document's chapters); callback
typedefs and predefined functions go to `callbacks.yaml`; `introduced` must be given for new
entries (`--introduced`, the list file's second column, or import-standard's `--versions`).
A `_c` twin is recorded on its base entry (see generator/mpi_spec.py for why); its
`introduced` defaults to 4.0, the first standard with large-count functions.

Output is canonical: entries sorted by name, one flow mapping per parameter, so
load -> dump reproduces a file byte for byte. YAML comments are not kept; use `note:`.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import re
import sys
from pathlib import Path

import yaml

from .errors import SpecError
from .mpi_spec import LARGE_COUNT_SUFFIX, VARARGS, MpiFunction, load_mpi_entries, version_key

FIRST_LARGE_COUNT_VERSION = "4.0"

# The MPI 5.0 document's chapters that hold C functions: file stem -> title.
CHAPTERS = {
    "pt2pt": "Point-to-Point Communication",
    "partitioned": "Partitioned Point-to-Point Communication",
    "datatypes": "Datatypes",
    "collectives": "Collective Communication",
    "communicators": "Groups, Contexts, Communicators, and Caching",
    "topologies": "Process Topologies",
    "environment": "MPI Environmental Management",
    "info": "The Info Object",
    "process": "Process Initialization, Creation, and Management",
    "rma": "One-Sided Communications",
    "external": "External Interfaces",
    "io": "I/O",
    "tools": "Tool Support",
    "deprecated": "Deprecated Interfaces",
    "language": "Language Bindings",
    "abi": "Application Binary Interface (ABI)",
    "callbacks": "callback function types and predefined functions of all chapters",
}
CALLBACKS_CHAPTER = "callbacks"

# First match wins. Derived from where the MPI 5.0 document defines each function; the
# order matters where a name fits several patterns (MPI_Comm_set_errhandler is environmental
# management, not communicators; MPI_Win_set_name is "naming objects" in chapter 7).
CHAPTER_RULES: tuple[tuple[str, str], ...] = (
    (r"^MPI_T_|^MPI_Pcontrol$", "tools"),
    (r"^MPI_Abi_|_(toint|fromint)$", "abi"),
    (r"_(c2f|f2c|c2f08|f082c|f082f|f2f08)$|^MPI_Type_create_f90_|^MPI_Type_match_size$", "language"),
    (r"^MPI_(Attr|Keyval)_", "deprecated"),
    (r"^MPI_(Comm|Session)_(attach|detach|flush|iflush)_buffer$|^MPI_Buffer_", "pt2pt"),
    (r"_(call|create|get|set)_errhandler$|^MPI_Errhandler_|^MPI_(Add|Remove)_error_|^MPI_Error_", "environment"),
    (r"^MPI_(Wtime|Wtick|Get_version|Get_library_version|Get_processor_name|Alloc_mem|Free_mem"
     r"|Get_hw_resource_info)$", "environment"),
    (r"^MPI_(Comm|Type|Win)_(create_keyval|free_keyval|get_attr|set_attr|delete_attr|get_name|set_name)$",
     "communicators"),
    (r"^MPI_File_|^MPI_Register_datarep$", "io"),
    (r"^MPI_Win_|^MPI_R?(?i:put|get|accumulate|get_accumulate)$|^MPI_(Fetch_and_op|Compare_and_swap)$", "rma"),
    (r"^MPI_(Psend_init|Precv_init|Pready|Pready_list|Pready_range|Parrived)$", "partitioned"),
    (r"^MPI_I?(?i:neighbor)_|^MPI_(Cart|Graph|Dist_graph)|^MPI_(Dims_create|Topo_test)$", "topologies"),
    (r"^MPI_I?(?i:allgatherv?|allreduce|alltoall[vw]?|barrier|bcast|exscan|gatherv?|reduce"
     r"|reduce_scatter(_block)?|scan|scatterv?)(_init)?$|^MPI_Reduce_local$|^MPI_Op_", "collectives"),
    (r"^MPI_Type_|^MPI_(Pack|Unpack)|^MPI_Get_(address|elements|elements_x)$|^MPI_Aint_(add|diff)$",
     "datatypes"),
    (r"^MPI_(Init|Init_thread|Finalize|Initialized|Finalized|Abort|Query_thread|Is_thread_main)$"
     r"|^MPI_Session_|^MPI_Group_from_session_pset$"
     r"|^MPI_Comm_(spawn|spawn_multiple|get_parent|accept|connect|disconnect|join)$"
     r"|^MPI_(Open_port|Close_port|Publish_name|Unpublish_name|Lookup_name)$", "process"),
    (r"^MPI_Info_", "info"),
    (r"^MPI_Grequest_|^MPI_Status_(set|get)_", "external"),
    (r"^MPI_(Comm|Group|Intercomm)_", "communicators"),
    (r"^MPI_(Send|Bsend|Ssend|Rsend|Recv)(_init)?$|^MPI_I(send|bsend|ssend|rsend|recv)$"
     r"|^MPI_I?(?i:sendrecv|sendrecv_replace)$"
     r"|^MPI_(Probe|Iprobe|Mprobe|Improbe|Mrecv|Imrecv|Get_count|Cancel|Test_cancelled|Start|Startall)$"
     r"|^MPI_(Wait|Test)(all|any|some)?$|^MPI_Request_", "pt2pt"),
)

CURATED_FIELDS = ("introduced", "deprecated", "removed", "note", "implementations", "typed", "local")
FORUM_MARKERS = ("callback", "implements")  # Forum fields of callback entries
ENTRY_KEY_ORDER = ("callback", "implements", *CURATED_FIELDS, "returns", "params", "large_count")
PARAM_KEY_ORDER = ("name", "kind", "c_type", "dir", "length", "root_only", "large_only")


def chapter_of(name: str) -> str:
    for pattern, chapter in CHAPTER_RULES:
        if re.search(pattern, name):
            return chapter
    raise SpecError(None, f"{name}: no chapter rule matches (add one to CHAPTER_RULES in generator/import_mpi.py)")


def _c_type(constant: bool, type_text: str, array: str) -> str:
    """pympistandard's (constant, 'char**', '[]') -> 'char **[]' (an abstract declarator)."""
    base = type_text.rstrip("*").strip()
    stars = "*" * (len(type_text.strip()) - len(type_text.strip().rstrip("*")))
    suffix = f" {stars}{array}" if stars or array else ""
    return f"{'const ' if constant else ''}{base}{suffix}"


class ForumData:
    """The Forum's apis.json (bundled with pympistandard), as spec entries."""

    def __init__(self) -> None:
        import pympistandard

        pympistandard.use_api_version(1, force_bundled=True)
        # pympistandard keeps functions, callback typedefs and predefined functions apart.
        self._tables = (pympistandard.PROCEDURES, pympistandard.CALLBACKS, pympistandard.PREDEFINED_FUNCTIONS)
        resource = importlib.resources.files("pympistandard.data").joinpath("apis.json")
        raw = json.loads(resource.read_text(encoding="utf-8"))
        self._raw = {desc["name"]: desc for desc in raw.values() if desc["attributes"]["c_expressible"]}

    def _is_function(self, name: str) -> bool:
        attributes = self._raw[name]["attributes"]
        return not attributes["callback"] and not attributes["predefined_function"]

    def names(self) -> list[str]:
        """Every C function name (base names; `_c` twins are not listed)."""
        return sorted(name for name in self._raw if self._is_function(name))

    def callback_names(self) -> list[str]:
        """Every callback typedef and predefined function name (base names)."""
        return sorted(name for name in self._raw if not self._is_function(name))

    def has(self, name: str) -> bool:
        return name in self._raw

    def twin_base(self, name: str) -> str | None:
        """'MPI_Send_c' -> 'MPI_Send' if that is a large-count twin in the Forum data."""
        if name.lower().endswith(LARGE_COUNT_SUFFIX):
            base = name[: -len(LARGE_COUNT_SUFFIX)]
            if base in self._raw and self._symbol(base).has_embiggenment():
                return base
        return None

    def _symbol(self, name: str):
        """pympistandard's object for `name` (its tables are keyed case-insensitively)."""
        return next(table[name] for table in self._tables if name.lower() in table)

    def chapter(self, name: str) -> str:
        return chapter_of(name) if self._is_function(name) else CALLBACKS_CHAPTER

    def entry(self, name: str) -> dict:
        """The Forum fields of `name` in spec shape: params, returns (if not int), large_count.params."""
        raw = self._raw[name]
        procedure = self._symbol(name)
        small = {p.name: p for p in procedure.express.iso_c.parameters}
        large = {p.name: p for p in procedure.express.embiggen.iso_c.parameters} if procedure.has_embiggenment() else {}
        params = []
        twin_types = {}
        for rawp in raw["parameters"]:
            if "c_parameter" in rawp["suppress"]:
                continue
            pname = rawp["name"]
            c_param = small.get(pname) or large[pname]
            param = {"name": pname, "kind": rawp["kind"], "c_type": self._param_c_type(c_param, rawp), "dir": rawp["param_direction"]}
            if rawp["length"] is not None:
                length = rawp["length"]
                param["length"] = [str(x) for x in length] if isinstance(length, list) else str(length)
            if rawp["root_only"]:
                param["root_only"] = True
            if rawp["large_only"]:
                param["large_only"] = True
            if pname in large:
                twin_type = self._param_c_type(large[pname], rawp)
                if twin_type != param["c_type"]:
                    twin_types[pname] = twin_type
            params.append(param)
        entry: dict = {}
        if raw["attributes"]["callback"]:
            entry["callback"] = True
        if raw["attributes"]["predefined_function"]:
            entry["implements"] = raw["attributes"]["predefined_function"]
        return_type = _c_type(False, procedure.express.iso_c.return_type, "")
        if raw["return_kind"] != "ERROR_CODE" or return_type != "int":
            entry["returns"] = {"kind": raw["return_kind"], "c_type": return_type}
        entry["params"] = params
        if procedure.has_embiggenment():
            if procedure.express.embiggen.iso_c.return_type != procedure.express.iso_c.return_type:
                raise SpecError(None, f"{name}: the _c twin's return type differs; the spec cannot record that yet")
            entry["large_count"] = {"params": twin_types}
        return entry

    @staticmethod
    def _param_c_type(c_param, rawp: dict) -> str:
        if rawp["kind"] == "VARARGS":
            return VARARGS
        return _c_type(c_param.constant, c_param.type, c_param.array)


def entry_of(function: MpiFunction) -> dict:
    """A loaded function back in spec shape (the inverse of mpi_spec's loading)."""
    entry: dict = {}
    if function.callback:
        entry["callback"] = True
    if function.implements:
        entry["implements"] = function.implements
    for key in ("introduced", "deprecated", "removed", "note"):
        if getattr(function, key) is not None:
            entry[key] = getattr(function, key)
    if function.implementations:
        entry["implementations"] = {impl.name: _implementation(impl) for impl in function.implementations}
    if function.typed is not None:
        entry["typed"] = _typed_entry(function.typed)
    if function.local:
        entry["local"] = True
    if function.return_kind != "ERROR_CODE" or function.return_type != "int":
        entry["returns"] = {"kind": function.return_kind, "c_type": function.return_type}
    params = []
    for p in function.all_params:
        param = {"name": p.name, "kind": p.kind, "c_type": p.c_type, "dir": p.direction}
        if p.length is not None:
            param["length"] = list(p.length) if isinstance(p.length, tuple) else p.length
        if p.root_only:
            param["root_only"] = True
        if p.large_only:
            param["large_only"] = True
        params.append(param)
    entry["params"] = params
    if function.large_count is not None:
        entry["large_count"] = {"introduced": function.large_count_introduced, "params": dict(function.large_count_types)}
    return entry


def _implementation(impl) -> dict:
    result: dict = {"reason": impl.reason}
    if impl.c_types:
        result["params"] = dict(impl.c_types)
    if impl.skip:
        result["skip"] = True
    return result


def _typed_entry(typed) -> dict:
    result: dict = {}
    if typed.skip:
        result["skip"] = True
    if typed.borrowed:
        result["borrowed"] = list(typed.borrowed)
    if typed.callable:
        result["callable"] = typed.callable
    if typed.state:
        result["state"] = typed.state
    if typed.raw:
        result["raw"] = True
    result["reason"] = typed.reason
    return result


def forum_part(entry: dict) -> dict:
    """Only the fields that come from apis.json (what spec-check compares)."""
    part = {key: entry[key] for key in (*FORUM_MARKERS, "returns", "params") if key in entry}
    if "large_count" in entry:
        part["large_count"] = {"params": dict(entry["large_count"]["params"])}
    return part


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
    from .spec_check import differences, load_deviations

    forum = forum or ForumData()
    existing = load_mpi_entries(spec_dir, spec_dir.parent)
    deviations = load_deviations(spec_dir, spec_dir.parent)
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
            chapter = forum.chapter(name)
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
