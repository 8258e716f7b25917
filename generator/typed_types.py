"""How the C types of spec/mpi/ appear in nampi::mpi: strong handles and which of them the
caller owns, the array elements a span may carry, callback adapters, and C++ spellings."""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

from .mpi_spec import MpiFunction, MpiParam, split_c_type


NS = "nampi::mpi"


# C handle type -> strong handle type name in nampi::mpi (runtime/include/nampi/detail/mpi/handles.hpp).
HANDLES = {
    "MPI_Comm": "comm",
    "MPI_Group": "group",
    "MPI_Datatype": "datatype",
    "MPI_Op": "op",
    "MPI_Info": "info",
    "MPI_Win": "win",
    "MPI_File": "file",
    "MPI_Session": "session",
    "MPI_Request": "request",
    "MPI_Message": "message",
    "MPI_Errhandler": "errhandler",
}


# New handles of these kinds must be freed by the caller: they are returned as owners. Requests
# and messages are not: completion (MPI_Wait, MPI_Mrecv) consumes them, and an owner freeing an
# active request at scope exit would hide a buffer-lifetime bug.
OWNED_HANDLES = {"comm", "group", "datatype", "op", "info", "win", "file", "session", "errhandler"}


# Element types a std::span / std::vector may carry (arrays of anything else stay raw).
ARRAY_ELEMENTS = {"int", "MPI_Aint", "MPI_Count", "MPI_Offset", "MPI_Status", *HANDLES}


# Kinds of `void *` out parameters through which MPI returns a pointer (the C type hides the `*`).
POINTER_OUT_KINDS = {"C_BUFFER", "C_BUFFER2", "ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10"}


LOGICAL_KINDS = {"LOGICAL", "LOGICAL_OPTIONAL"}


# Scalar C types an out pointer returns by value (MPI_Fint * is a Fortran status array: raw).
SCALARS = {"int", "MPI_Aint", "MPI_Count", "MPI_Offset", "double"}


CPP_KEYWORDS = set(keyword.kwlist) | {"new", "delete", "class", "template", "register", "default", "union", "operator"}


def returns_new_handle(function: MpiFunction, p: MpiParam) -> bool:
    """`p` is an `MPI_X *` out parameter through which `function` returns a new handle the
    caller must free (an owned kind, not marked `typed.borrowed` in the spec)."""
    if p.is_varargs:
        return False
    base, stars, array = split_c_type(p.c_type)
    borrowed = function.typed.borrowed if function.typed else ()
    return (p.direction == "out" and stars == "*" and not array
            and HANDLES.get(element_of(base)) in OWNED_HANDLES and p.name not in borrowed)


def constructors(functions: dict[str, MpiFunction], c_handle: str) -> list[str]:
    """The C functions (large-count twins included, sorted) that return a new `c_handle`
    (e.g. MPI_Datatype) the caller must free: what a leak check counts against the frees."""
    names = []
    for f in functions.values():
        if any(not p.is_varargs and split_c_type(p.c_type)[0] == c_handle and returns_new_handle(f, p) for p in f.params):
            names += [f.name] + ([f.large_count] if f.large_count else [])
    return sorted(names)


def cxx_name(c_name: str) -> str:
    """MPI_Comm_split -> comm_split; MPI_T_cvar_read -> t_cvar_read."""
    return c_name.removeprefix("MPI_").lower()


def ident(name: str) -> str:
    return name + "_" if name in CPP_KEYWORDS else name


@dataclass(frozen=True)
class Callbacks:
    """Callback typedef name (twins included) -> adapter in nampi::mpi::callable, or None; and the
    typedefs whose callables may carry state (their `typed.state`)."""

    adapters: dict[str, str | None]
    stateful: frozenset[str] = frozenset()

    @classmethod
    def from_spec(cls, callbacks: dict[str, MpiFunction]) -> Callbacks:
        adapters: dict[str, str | None] = {}
        stateful: set[str] = set()
        for name, cb in callbacks.items():
            if not cb.callback:
                continue
            adapter = cb.typed.callable if cb.typed else None
            adapters[name] = adapter
            names = [name]
            if cb.large_count:
                # The twin's adapter is the base's with `_c` (callables.hpp: user_function_c).
                adapters[cb.large_count] = adapter + "_c" if adapter else None
                names.append(cb.large_count)
            if adapter and cb.typed.state:
                stateful.update(names)
        return cls(adapters, frozenset(stateful))


_ROWS = re.compile(r"^\[\]\[(\d+)\]$")  # `[][3]`: an array of rows of a fixed width


def element_of(base: str) -> str:
    return base.removeprefix("const ").strip()


def row_width(p: MpiParam) -> int | None:
    """N of an in array of rows `int [][N]` whose Forum length is [count, "N"], else None."""
    base, stars, array = split_c_type(p.c_type)
    match = _ROWS.match(array)
    if (match and not stars and element_of(base) == "int" and p.direction == "in" and isinstance(p.length, (list, tuple))
            and len(p.length) == 2 and p.length[1] == match[1]):
        return int(match[1])
    return None


def raw_type(c_type: str) -> str:
    """A C parameter type as a C++ parameter type: 'const int []' -> 'const int*'; 'int [][3]' -> 'int (*)[3]'."""
    base, stars, array = split_c_type(c_type)
    if not array:
        return f"{base}{stars}" if stars else base
    dims = array[2:]  # after the first []
    if dims:  # 'int [][3]': a pointer to arrays, spelled so that a name can follow
        return f"std::type_identity_t<{base}{stars} (*){dims}>"
    return f"{base}{stars}*"


def may_coincide(cxx_type: str) -> str:
    """The type with MPI_Aint and MPI_Offset written as MPI_Count: an implementation may define them
    as one integer type (MPICH 4.0: all `long`), so an overload must not differ only there."""
    return re.sub(r"\bMPI_(Aint|Offset)\b", "MPI_Count", cxx_type)
