"""Render the PMPI call counter and the CMake list of MPI functions from `spec/mpi/`.

Outputs (paths relative to generated/):
  pmpi/nampi_pmpi_counter.h         C API of the counter, plus nampi_pmpi::snapshot() for C++
  pmpi/nampi_pmpi_counter.c         `int MPI_X(...) { ++count; return PMPI_X(...); }` for every
                                    wrappable function and `_c` twin, each guarded by NAMPI_HAVE_*
  cmake/nampi_mpi_functions.cmake   every C function name (twins included) for the configure probe,
                                    and the implementation prototypes the configure step tests

Where an implementation's mpi.h declares a function unlike the standard, the spec says so
(`implementations:` of the entry). A `params` override is a prototype that mpi.h may declare:
versions of one implementation can differ (MPICH 4.0 declares MPI_Pready_list without const,
MPICH 5.0 with), so the implementation's macro cannot decide. The configure step compiles the
prototype against the linked mpi.h and defines NAMPI_DECLARES_<FUNCTION>_AS_<IMPLEMENTATION>
where it matches; the wrapper takes the first matching prototype, else the standard's. A
`skip` leaves the function unwrapped wherever the implementation's macro is defined. All
decisions are made here; the templates only loop and fill in.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from .mpi_spec import IMPLEMENTATION_MACROS, MpiFunction, all_c_functions, c_declaration
from .typed_types import constructors

MPI_SOURCES = "spec/mpi/*.yaml"  # named in the banner of every output



@dataclass(frozen=True)
class Prototype:
    """An implementation's own declaration of a function, tested at configure time."""

    macro: str  # defined in nampi/config.h if mpi.h declares it: NAMPI_DECLARES_MPI_X_AS_OPENMPI
    function: str  # tested only if the MPI has the function at all
    declaration: str  # 'int MPI_X(int length, int array_of_partitions[], MPI_Request request)'


@dataclass(frozen=True)
class Variant:
    """An implementation's own prototype of a wrapped function."""

    condition: str  # 'defined(NAMPI_DECLARES_MPI_X_AS_OPENMPI)'
    parameters: str
    reason: str


@dataclass(frozen=True)
class Wrapper:
    """One counted function, ready for the template."""

    index: int  # position in nampi_pmpi_names (sorted by name, strcmp order)
    name: str
    return_type: str
    parameters: str  # C parameter list: 'const void *buf, int count' or 'void'
    arguments: str  # forwarding arguments: 'buf, count'
    source: str  # 'spec/mpi/pt2pt.yaml: MPI_Send' (twins: '... MPI_Send large_count')
    guard: str  # the preprocessor line around the wrapper: '#ifdef NAMPI_HAVE_MPI_SEND'
    variants: tuple[Variant, ...] = ()  # implementation prototypes, else `parameters`


@dataclass(frozen=True)
class Skipped:
    name: str
    reason: str


def skip_reason(function: MpiFunction) -> str | None:
    """Why `function` gets no counting wrapper, or None if it gets one.

    Only functions that return an int error code are wrapped: the others (MPI_Wtime,
    MPI_Wtick, handle conversions such as MPI_Comm_c2f/MPI_Comm_toint, MPI_Aint_add) may be
    macros or inline functions in an implementation's mpi.h, so defining them can fail to
    compile, and their calls are not interesting to count. Varargs (MPI_Pcontrol) cannot be
    forwarded portably.
    """
    if function.return_kind != "ERROR_CODE" or function.return_type != "int":
        return f"returns {function.return_type} ({function.return_kind}), not an int error code"
    if any(p.is_varargs for p in function.params):
        return "C varargs cannot be forwarded"
    return None


def _parameters(function: MpiFunction, c_types: dict[str, str]) -> str:
    params = function.params
    if not params:
        return "void"
    return ", ".join(c_declaration(c_types.get(p.name, p.c_type), p.name) for p in params)


def _prototype_macro(function: MpiFunction, implementation: str) -> str:
    return f"NAMPI_DECLARES_{function.name.upper()}_AS_{implementation.upper()}"


def _prototypes(function: MpiFunction) -> list[Prototype]:
    return [
        Prototype(
            _prototype_macro(function, i.name),
            function.name,
            f"{function.return_type} {function.name}({_parameters(function, dict(i.c_types))})",
        )
        for i in function.implementations
        if i.c_types
    ]


def _wrapper(index: int, function: MpiFunction) -> Wrapper:
    source = f"{function.source}: {function.base} large_count" if function.base else f"{function.source}: {function.name}"
    have = f"NAMPI_HAVE_{function.name.upper()}"
    skipped = [f"!defined({IMPLEMENTATION_MACROS[i.name]})" for i in function.implementations if i.skip]
    guard = f"#if defined({have}) && {' && '.join(skipped)}" if skipped else f"#ifdef {have}"
    variants = tuple(
        Variant(f"defined({_prototype_macro(function, i.name)})", _parameters(function, dict(i.c_types)), i.reason)
        for i in function.implementations
        if i.c_types
    )
    return Wrapper(
        index=index,
        name=function.name,
        return_type=function.return_type,
        parameters=_parameters(function, {}),
        arguments=", ".join(p.name for p in function.params),
        source=source,
        guard=guard,
        variants=variants,
    )


def pmpi_plan(functions: dict[str, MpiFunction]) -> tuple[list[Wrapper], list[Skipped], list[str]]:
    """(wrappers, skipped, every C function name), all sorted by name."""
    symbols = all_c_functions(functions)
    wrapped = [f for f in symbols if skip_reason(f) is None]
    wrappers = [_wrapper(i, f) for i, f in enumerate(wrapped)]
    skipped = [Skipped(f.name, reason) for f in symbols if (reason := skip_reason(f)) is not None]
    return wrappers, skipped, [f.name for f in symbols]


def prototype_plan(functions: dict[str, MpiFunction]) -> list[Prototype]:
    """The implementation prototypes of wrapped functions, for the configure step; sorted by macro."""
    wrapped = [f for f in all_c_functions(functions) if skip_reason(f) is None]
    return sorted((p for f in wrapped for p in _prototypes(f)), key=lambda p: p.macro)


def render_pmpi(env: jinja2.Environment, functions: dict[str, MpiFunction]) -> dict[str, str]:
    """{path relative to generated/: text} for the PMPI counter and the CMake function list."""
    wrappers, skipped, names = pmpi_plan(functions)
    prototypes = prototype_plan(functions)
    # What the test main's leak check counts against MPI_Type_free and MPI_Op_free.
    made = {"datatype": constructors(functions, "MPI_Datatype"), "op": constructors(functions, "MPI_Op")}
    outputs = {
        "pmpi/nampi_pmpi_counter.h": ("pmpi_counter.h.j2", {"wrappers": wrappers}),
        "pmpi/nampi_pmpi_counter.c": ("pmpi_counter.c.j2", {"wrappers": wrappers, "skipped": skipped, "made": made}),
        "cmake/nampi_mpi_functions.cmake": ("mpi_functions.cmake.j2", {"names": names, "prototypes": prototypes}),
    }
    result = {}
    for path, (template, context) in outputs.items():
        result[path] = env.get_template(template).render(sources=MPI_SOURCES, **context)
    return result
