"""The MPI Forum's machine-readable standard (apis.json, from `pympistandard`) and the shape of
a spec/mpi/ entry: which fields come from the Forum and which are curated, the chapter of each
function, and a loaded function back as an entry. Read by the importer (import_mpi.py) and by
spec-check (spec_check.py), which compares the spec with the Forum data.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
import json
from pathlib import Path
import re

from .errors import SpecError
from .mpi_spec import CHAPTERS_FILE, LARGE_COUNT_SUFFIX, VARARGS, MpiFunction
from .yamlload import load_yaml, where_of

FIRST_LARGE_COUNT_VERSION = "4.0"

CALLBACKS_CHAPTER = "callbacks"


@dataclass(frozen=True)
class Chapters:
    """spec/mpi/chapters.yaml: each chapter's title, and the rules that file a new function."""

    titles: dict[str, str]
    rules: tuple[tuple[re.Pattern, str], ...]
    source: str

    def of(self, name: str) -> str:
        """The chapter of function `name`: the first rule whose pattern matches it."""
        for pattern, chapter in self.rules:
            if pattern.search(name):
                return chapter
        raise SpecError(None, f"{name}: no chapter rule matches (add one to {self.source})")


def load_chapters(spec_dir: Path, display_root: Path | None = None) -> Chapters:
    """Read and check spec/mpi/chapters.yaml: a rule's chapter has a title and its pattern is a
    regular expression (file:line otherwise)."""
    path = spec_dir / "mpi" / CHAPTERS_FILE
    root = display_root or spec_dir.parent
    display = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    data = load_yaml(path, display)
    if not isinstance(data, dict) or not isinstance(data.get("titles"), dict) or not isinstance(data.get("rules"), list):
        raise SpecError(None, f"{display}: expected a mapping `titles` and a list `rules`")
    titles = {str(k): str(v) for k, v in data["titles"].items()}
    rules = []
    for i, rule in enumerate(data["rules"]):
        where = where_of(data["rules"], i)
        if not isinstance(rule, dict) or set(rule) != {"pattern", "chapter"}:
            raise SpecError(where, "a rule is {pattern: <regular expression>, chapter: <a chapter of titles>}")
        if rule["chapter"] not in titles:
            raise SpecError(where, f"chapter '{rule['chapter']}' has no title under `titles`")
        try:
            rules.append((re.compile(str(rule["pattern"])), rule["chapter"]))
        except re.error as err:
            raise SpecError(where, f"pattern {rule['pattern']!r} is not a regular expression: {err}") from None
    return Chapters(titles, tuple(rules), display)


# The checkout's chapters: the titles the coverage table and the reference pages show, and the
# rules chapter_of uses where it is given none.
CHECKOUT_CHAPTERS = load_chapters(Path(__file__).resolve().parents[1] / "spec")
CHAPTERS = CHECKOUT_CHAPTERS.titles

CURATED_FIELDS = ("introduced", "deprecated", "removed", "note", "implementations", "typed", "local")
FORUM_MARKERS = ("callback", "implements")  # Forum fields of callback entries
ENTRY_KEY_ORDER = ("callback", "implements", *CURATED_FIELDS, "returns", "params", "large_count")
PARAM_KEY_ORDER = ("name", "kind", "c_type", "dir", "length", "root_only", "large_only")


def chapter_of(name: str, chapters: Chapters | None = None) -> str:
    """The chapter of function `name` by `chapters`' rules (the checkout's by default)."""
    return (chapters or CHECKOUT_CHAPTERS).of(name)


def _c_type(constant: bool, type_text: str, array: str) -> str:
    """pympistandard's (constant, 'char**', '[]') -> 'char **[]' (an abstract declarator)."""
    base = type_text.rstrip("*").strip()
    stars = "*" * (len(type_text.strip()) - len(type_text.strip().rstrip("*")))
    suffix = f" {stars}{array}" if stars or array else ""
    return f"{'const ' if constant else ''}{base}{suffix}"


class ForumData:
    """The Forum's apis.json, as spec entries: the one bundled with pympistandard, or `apis`
    (another standard's data file, `import-standard --apis FILE`)."""

    def __init__(self, apis: Path | None = None) -> None:
        import pympistandard

        if apis is not None and not apis.is_file():
            raise SpecError(None, f"{apis}: no such file (--apis takes the MPI Forum's apis.json)")
        # The same file for pympistandard's symbols and for the raw attributes read below.
        if apis is not None:
            pympistandard.use_api_version(1, given_path=str(apis))
        else:
            pympistandard.use_api_version(1, force_bundled=True)
        # pympistandard keeps functions, callback typedefs and predefined functions apart.
        self._tables = (pympistandard.PROCEDURES, pympistandard.CALLBACKS, pympistandard.PREDEFINED_FUNCTIONS)
        text = apis.read_text(encoding="utf-8") if apis else \
            importlib.resources.files("pympistandard.data").joinpath("apis.json").read_text(encoding="utf-8")
        raw = json.loads(text)
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

    def chapter(self, name: str, chapters: Chapters | None = None) -> str:
        return chapter_of(name, chapters) if self._is_function(name) else CALLBACKS_CHAPTER

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
