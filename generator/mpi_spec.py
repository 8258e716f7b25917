"""The standard's facts: load `spec/mpi/<chapter>.yaml` into `MpiFunction` dataclasses.

Each chapter file maps C function names to entries (see `spec/schema/mpi.schema.json`).
A large-count twin (`MPI_Send_c`) is not an entry of its own: it is recorded on its base entry
under `large_count` (the C types that differ), because the binding layer must pair the two
(it picks `_c` when a count does not fit `int`) and the Forum data describes them as one
procedure. `MpiFunction.twin()` expands it into a full `MpiFunction` for code that wants
every C symbol (the PMPI counter, the CMake probe list).

Callback typedefs (`callback: true`, e.g. MPI_User_function) and the predefined functions that
implement them (`implements: MPI_Comm_copy_attr_function`, e.g. MPI_COMM_DUP_FN) share the entry
shape, so they are loaded and checked the same way; `load_mpi_spec` leaves them out (they are
types and macros, not functions a program calls), `load_mpi_callbacks` returns them.
`spec/mpi/deviations.yaml` is not a chapter: it lists intended differences from apis.json.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import SpecError, Where
from .schema import load_schema, validate
from .yamlload import load_yaml, where_of

LARGE_COUNT_SUFFIX = "_c"
VARARGS = "..."
DEVIATIONS_FILE = "deviations.yaml"  # in spec/mpi/, read by spec-check; not a chapter
CHAPTERS_FILE = "chapters.yaml"  # in spec/mpi/: the chapters' titles and filing rules; not a chapter

_C_TYPE = re.compile(r"^(?P<base>(?:const )?[A-Za-z_][A-Za-z0-9_ ]*?)(?: (?P<stars>\**)(?P<array>(?:\[[A-Za-z0-9_]*\])*))?$")


# The macro by which each implementation's mpi.h identifies itself (keys of `implementations:`);
# decides `skip` only: prototypes are tested at configure time. SimGrid's SMPI defines no
# macro of its own name but the include guard of smpi.h, which its mpi.h includes.
IMPLEMENTATION_MACROS = {"mpich": "MPICH", "openmpi": "OPEN_MPI", "smpi": "SMPI_H"}

def split_c_type(c_type: str) -> tuple[str, str, str]:
    """'const int []' -> ('const int', '', '[]'); 'char **[]' -> ('char', '**', '[]')."""
    match = _C_TYPE.match(c_type)
    if not match:
        raise ValueError(f"not a C parameter type: {c_type!r}")
    return match["base"], match["stars"] or "", match["array"] or ""


def c_declaration(c_type: str, name: str) -> str:
    """Declare `name` with `c_type`: ('const int []', 'counts') -> 'const int counts[]'."""
    if c_type == VARARGS:
        return VARARGS
    base, stars, array = split_c_type(c_type)
    return f"{base} {stars}{name}{array}"


def twin_name(name: str) -> str:
    """The large-count twin's name: MPI_Send -> MPI_Send_c, MPI_CONVERSION_FN_NULL -> ..._C."""
    return name + (LARGE_COUNT_SUFFIX.upper() if name.isupper() else LARGE_COUNT_SUFFIX)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True)
class MpiParam:
    name: str
    kind: str  # the Forum's kind: BUFFER, POLYXFER_NUM_ELEM_NNI, COMMUNICATOR, ...
    c_type: str  # exact C type as an abstract declarator: 'const void *', 'const int []'
    direction: str  # in | out | inout
    length: str | tuple[str, ...] | None = None  # Forum length expression ('*' = see text)
    root_only: bool = False
    large_only: bool = False  # exists only in the _c twin
    where: Where | None = field(default=None, compare=False)  # its line in the YAML file

    @property
    def declaration(self) -> str:
        return c_declaration(self.c_type, self.name)

    @property
    def is_varargs(self) -> bool:
        return self.c_type == VARARGS


@dataclass(frozen=True)
class Implementation:
    """A curated departure of one MPI implementation's mpi.h from the standard (base function)."""

    name: str  # mpich | openmpi
    reason: str
    c_types: tuple[tuple[str, str], ...] = ()  # (param, c_type) as that mpi.h declares them
    skip: bool = False  # no generated code for this implementation


@dataclass(frozen=True)
class Typed:
    """Curated decisions for the typed C++ layer that the Forum data cannot make (`typed:`)."""

    reason: str
    skip: bool = False  # no typed wrapper
    borrowed: tuple[str, ...] = ()  # out handles returned without ownership
    callable: str | None = None  # callback typedefs: adapter nampi::mpi::callable::<name>
    state: str | None = None  # with callable: the typedef's extra_state parameter (captures allowed)
    raw: bool = False  # callback typedefs: stays a C function pointer (reason says why)
    where: Where | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MpiFunction:
    name: str
    introduced: str
    all_params: tuple[MpiParam, ...]  # Forum order, including large_only ones (twin only)
    chapter: str  # file stem of spec/mpi/<chapter>.yaml
    where: Where  # the entry's key in its YAML file
    return_kind: str = "ERROR_CODE"
    return_type: str = "int"
    deprecated: str | None = None
    removed: str | None = None
    note: str | None = None
    large_count: str | None = None  # name of the _c twin, if any
    large_count_introduced: str | None = None
    large_count_types: tuple[tuple[str, str], ...] = ()  # (param, c_type) that differ in the twin
    large_count_where: tuple[tuple[str, Where], ...] = field(default=(), compare=False)  # their lines
    base: str | None = None  # for an expanded twin: the base function's name
    callback: bool = False  # a callback typedef, not a function
    implements: str | None = None  # a predefined function of this callback typedef
    implementations: tuple[Implementation, ...] = ()  # sorted by name
    typed: Typed | None = None
    # Curated: a local procedure (the standard's term): it only reads this process's state and never
    # waits for another, so a rule that calls it does not make a nonblocking call block.
    local: bool = False

    @property
    def nonconst_params(self) -> frozenset[str]:
        """Parameters some implementation's mpi.h declares without the standard's const
        (`implementations:`): their arguments lose const at the call."""
        return frozenset(name for impl in self.implementations for name, c_type in impl.c_types
                         if not c_type.startswith("const "))

    @property
    def is_callback(self) -> bool:
        """A callback typedef or a predefined function: a type, not a function to call."""
        return self.callback or self.implements is not None

    @property
    def params(self) -> tuple[MpiParam, ...]:
        """The parameters of this C function, in order."""
        return tuple(p for p in self.all_params if not p.large_only)

    @property
    def source(self) -> str:
        """Where this function is written down, for generated comments: 'spec/mpi/pt2pt.yaml'."""
        return self.where.file

    def twin(self) -> MpiFunction | None:
        """The large-count twin `<name>_c` as a function of its own, or None."""
        if self.large_count is None:
            return None
        types = dict(self.large_count_types)
        return replace(
            self,
            name=self.large_count,
            introduced=self.large_count_introduced or self.introduced,
            all_params=tuple(
                replace(p, c_type=types.get(p.name, p.c_type), large_only=False) for p in self.all_params
            ),
            large_count=None,
            large_count_introduced=None,
            large_count_types=(),
            large_count_where=(),
            base=self.name,
            implementations=(),  # overrides describe the base function only
        )

    def param(self, name: str) -> MpiParam | None:
        return next((p for p in self.all_params if p.name == name), None)


def _param(raw: dict, where: Where | None) -> MpiParam:
    length = raw.get("length")
    return MpiParam(
        name=raw["name"],
        kind=raw["kind"],
        c_type=raw["c_type"],
        direction=raw["dir"],
        length=tuple(length) if isinstance(length, list) else length,
        root_only=bool(raw.get("root_only", False)),
        large_only=bool(raw.get("large_only", False)),
        where=where,
    )


def _check_version_order(entry: dict, name: str, first: str, later: str, where: Where) -> None:
    if first in entry and later in entry and version_key(entry[later]) <= version_key(entry[first]):
        raise SpecError(where_of(entry, later) or where, f"{name}.{later}: {entry[later]} is not after {first} {entry[first]}")


def _function(name: str, entry: dict, chapter: str, where: Where) -> MpiFunction:
    """Build one MpiFunction from a schema-valid entry, checking what the schema cannot."""
    all_params = [_param(raw, where_of(entry["params"], i)) for i, raw in enumerate(entry["params"])]
    seen: set[str] = set()
    for index, param in enumerate(all_params):
        if param.name in seen:
            raise SpecError(where_of(entry["params"], index), f"{name}: duplicate parameter '{param.name}'")
        seen.add(param.name)
        try:
            if param.c_type != VARARGS:
                split_c_type(param.c_type)
        except ValueError as err:
            raise SpecError(where_of(entry["params"], index), f"{name}.{param.name}: {err}") from None
    _check_version_order(entry, name, "introduced", "deprecated", where)
    _check_version_order(entry, name, "introduced", "removed", where)
    _check_version_order(entry, name, "deprecated", "removed", where)

    large = entry.get("large_count")
    large_only = [p.name for p in all_params if p.large_only]
    if large_only and large is None:
        raise SpecError(where, f"{name}: parameter '{large_only[0]}' is large_only but there is no large_count twin")
    if large is not None:
        for pname in large["params"]:
            if pname not in seen:
                raise SpecError(where_of(large["params"], pname), f"{name}.large_count.params: unknown parameter '{pname}'")
        if version_key(large["introduced"]) < version_key(entry["introduced"]):
            raise SpecError(where_of(large, "introduced"), f"{name}.large_count.introduced: {large['introduced']} is before the function's {entry['introduced']}")

    implementations = []
    for impl, raw in sorted(entry.get("implementations", {}).items()):
        for pname, c_type in raw.get("params", {}).items():
            if pname not in seen:
                raise SpecError(where_of(raw["params"], pname), f"{name}.implementations.{impl}.params: unknown parameter '{pname}'")
            try:
                split_c_type(c_type)
            except ValueError as err:
                raise SpecError(where_of(raw["params"], pname), f"{name}.implementations.{impl}.params.{pname}: {err}") from None
        implementations.append(Implementation(impl, raw["reason"], tuple(raw.get("params", {}).items()), bool(raw.get("skip", False))))

    typed = _typed(name, entry, all_params, where)
    returns = entry.get("returns", {"kind": "ERROR_CODE", "c_type": "int"})
    return MpiFunction(
        name=name,
        introduced=entry["introduced"],
        all_params=tuple(all_params),
        chapter=chapter,
        where=where,
        return_kind=returns["kind"],
        return_type=returns["c_type"],
        deprecated=entry.get("deprecated"),
        removed=entry.get("removed"),
        note=entry.get("note"),
        local=bool(entry.get("local", False)),
        large_count=twin_name(name) if large is not None else None,
        large_count_introduced=large["introduced"] if large is not None else None,
        large_count_types=tuple(large["params"].items()) if large is not None else (),
        large_count_where=tuple((k, where_of(large["params"], k)) for k in large["params"]) if large is not None else (),
        callback=bool(entry.get("callback", False)),
        implements=entry.get("implements"),
        implementations=tuple(implementations),
        typed=typed,
    )


def _typed(name: str, entry: dict, params: list[MpiParam], where: Where) -> Typed | None:
    """The entry's `typed:` override, checked against its parameters."""
    raw = entry.get("typed")
    if raw is None:
        return None
    at = where_of(entry, "typed") or where
    is_callback = bool(entry.get("callback"))
    if "callable" in raw and not is_callback:
        raise SpecError(at, f"{name}.typed.callable: only a callback typedef (callback: true) can have a callable adapter")
    if "raw" in raw and not is_callback:
        raise SpecError(at, f"{name}.typed.raw: only a callback typedef (callback: true) is kept as a C function pointer")
    if ("skip" in raw or "borrowed" in raw) and is_callback:
        raise SpecError(at, f"{name}.typed: a callback typedef takes only 'callable' or 'raw'")
    by_name = {p.name: p for p in params}
    if "state" in raw:
        param = by_name.get(raw["state"])
        if param is None or param.kind != "EXTRA_STATE" or param.c_type != "void *":
            found = f"it is {param.kind} '{param.c_type}'" if param is not None else "no such parameter"
            raise SpecError(where_of(raw, "state") or at, f"{name}.typed.state: '{raw['state']}' is not the typedef's `void *` EXTRA_STATE parameter ({found})")
    for index, pname in enumerate(raw.get("borrowed", [])):
        param = by_name.get(pname)
        if param is None:
            raise SpecError(where_of(raw["borrowed"], index), f"{name}.typed.borrowed: unknown parameter '{pname}'")
        if param.direction != "out" or not param.c_type.startswith("MPI_") or not param.c_type.endswith(" *"):
            raise SpecError(where_of(raw["borrowed"], index), f"{name}.typed.borrowed: '{pname}' is not an out handle (it is {param.direction} '{param.c_type}')")
    return Typed(
        reason=raw["reason"],
        skip=bool(raw.get("skip", False)),
        borrowed=tuple(raw.get("borrowed", ())),
        callable=raw.get("callable"),
        state=raw.get("state"),
        raw=bool(raw.get("raw", False)),
        where=at,
    )


def load_mpi_file(path: Path, display_name: str, schema: dict) -> dict[str, MpiFunction]:
    data = load_yaml(path, display_name)
    if data is None:
        raise SpecError(Where(display_name, 1), "empty file (expected a mapping of MPI function names)")
    validate(data, schema, display_name)
    chapter = path.stem
    return {name: _function(name, entry, chapter, where_of(data, name)) for name, entry in data.items()}


def load_mpi_entries(spec_dir: Path, display_root: Path) -> dict[str, MpiFunction]:
    """Load and validate every `spec_dir/mpi/*.yaml` (functions and callbacks); names sorted.

    SpecError on any problem."""
    schema = load_schema(spec_dir / "schema" / "mpi.schema.json")
    functions: dict[str, MpiFunction] = {}
    symbols: dict[str, MpiFunction] = {}  # every C symbol, twins included -> defining entry
    for path in sorted((spec_dir / "mpi").glob("*.yaml")):
        if path.name in (DEVIATIONS_FILE, CHAPTERS_FILE):
            continue
        display = path.relative_to(display_root).as_posix() if path.is_relative_to(display_root) else path.name
        for name, function in load_mpi_file(path, display, schema).items():
            for symbol in filter(None, (name, function.large_count)):
                if symbol in symbols:
                    first = symbols[symbol]
                    raise SpecError(function.where, f"{symbol} is already defined at {first.where}")
                symbols[symbol] = function
            functions[name] = function
    for function in functions.values():
        target = functions.get(function.implements) if function.implements else None
        if function.implements and (target is None or not target.callback):
            raise SpecError(function.where, f"{function.name}.implements: '{function.implements}' is not a callback typedef of the spec")
    return dict(sorted(functions.items()))


def load_mpi_spec(spec_dir: Path, display_root: Path) -> dict[str, MpiFunction]:
    """The C functions of `spec_dir/mpi/` (no callbacks), names sorted; SpecError on any problem."""
    return {n: f for n, f in load_mpi_entries(spec_dir, display_root).items() if not f.is_callback}


def load_mpi_callbacks(spec_dir: Path, display_root: Path) -> dict[str, MpiFunction]:
    """The callback typedefs and predefined functions of `spec_dir/mpi/`, names sorted."""
    return {n: f for n, f in load_mpi_entries(spec_dir, display_root).items() if f.is_callback}


def all_c_functions(functions: dict[str, MpiFunction]) -> list[MpiFunction]:
    """Every C function of the spec, `_c` twins expanded, sorted by name."""
    result = []
    for function in functions.values():
        result.append(function)
        twin = function.twin()
        if twin is not None:
            result.append(twin)
    return sorted(result, key=lambda f: f.name)
