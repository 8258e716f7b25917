"""The MPI Forum's machine-readable standard (apis.json, from `pympistandard`) and the shape of
a spec/mpi/ entry: which fields come from the Forum and which are curated, the chapter of each
function, and a loaded function back as an entry. Read by the importer (import_mpi.py) and by
spec-check (spec_check.py), which compares the spec with the Forum data.
"""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path
import re

from .errors import SpecError
from .mpi_spec import LARGE_COUNT_SUFFIX, VARARGS, MpiFunction

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
    raise SpecError(None, f"{name}: no chapter rule matches (add one to CHAPTER_RULES in generator/forum.py)")


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
        pympistandard.use_api_version(1, given_path=str(apis)) if apis else pympistandard.use_api_version(1, force_bundled=True)
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
