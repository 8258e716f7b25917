"""The typed C++ layer (`nampi::mpi`): one inline wrapper per MPI C function, decided from
`spec/mpi/` alone.

Each C parameter becomes one of (first rule that applies, by C type, direction and Forum kind):
  handle (MPI_Comm, ...)        in: strong handle by value; `MPI_X *` out: returned (an owner
                                `unique_X` for kinds the caller must free, see OWNED_HANDLES,
                                unless the entry's `typed.borrowed` says otherwise); `MPI_X *`
                                in/inout: `X&` (MPI_X_free and friends reset it)
  array sized by an in scalar   in/inout: `std::span`, whose size is that scalar argument (several
                                spans sharing it must agree); out: returned `std::vector` of that
                                size (the scalar stays a parameter when no span supplies it),
                                passed as a valid pointer even when empty
  array of unknown length       `std::span`, caller-provided ('*' in the Forum data)
  rows `T [][N]` sized by an    `std::span<const std::array<T, N>>`, whose size is that scalar
  in scalar (Group_range_incl)  (MPI_Group_range_incl's triplets)
  out string, MPI_MAX_* length  returned `std::string`, trimmed by the out STRING_LENGTH if any
  scalar `T *` out              returned (LOGICAL: bool); several outputs: a struct <name>_result
  scalar `T *` inout            `T&`
  status                        out: returned; inout: `MPI_Status&`; in: `const MPI_Status&`
  pointer-sized out (`void *`   returned `void*` (MPI writes a pointer: Alloc_mem, get_attr)
  of kind C_BUFFER/ATTRIBUTE)
  LOGICAL in                    bool
  anything else                 passed through with its C type ("raw": buffers, strings in,
                                callbacks, tool handles, argv arrays)
Callbacks whose typedef has `typed.callable` also get an overload taking a C++ callable
(runtime/include/nampi/detail/mpi/callables.hpp): one overload per such parameter taking a capture-free
callable, or, where the typedef names its `typed.state` parameter (extra_state), one overload
taking all of the function's callbacks at once, with captures allowed: the function's own
EXTRA_STATE parameter disappears, and nampi passes the callables' state object there instead
(runtime/include/nampi/detail/mpi/callable_state.hpp decides who owns it). A function whose entry says
`typed.skip`, or that has C varargs, gets no wrapper; the reason is recorded in the output.

Large count: the `_c` twin is mapped the same way. It becomes an overload of the same name if
its C++ parameter types differ from the base's (counting MPI_Aint, MPI_Offset and MPI_Count as
one type, as some implementations define them), otherwise a function `<name>_c`. It calls the
twin where the MPI has it (NAMPI_HAVE_<NAME>_C) and otherwise the base function, narrowing each
count with a check that throws nampi::mpi::count_error (naming the function and the value).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .mpi_spec import IMPLEMENTATION_MACROS, MpiFunction, split_c_type
from .typed_params import Field, Plan, map_params
from .typed_types import HANDLES, NS, Callbacks, cxx_name, element_of, ident, may_coincide


@dataclass(frozen=True)
class CallableArg:
    """A callable parameter of a callable overload: its template parameter and its adapter."""

    template_param: str  # F, or F1, F2, ... where the callables carry state
    adapter: str  # nampi::mpi::callable::<adapter>


@dataclass(frozen=True)
class Variant:
    """One C function the wrapper body can call: statements before, the call, after
    (typed_params.declare, call, assign; templates/typed_body.j2 spells them)."""

    c_name: str
    pre: tuple[dict, ...]
    args: tuple[str, ...]
    post: tuple[dict, ...]
    condition: str | None = None  # '#if' condition choosing this variant (large count)


@dataclass(frozen=True)
class Wrapper:
    c_name: str  # the C function whose spec entry this is (MPI_Send or MPI_Send_c)
    name: str  # C++ name in nampi::mpi
    doc: str
    source: str  # 'spec/mpi/pt2pt.yaml: MPI_Send'
    guard: str  # preprocessor condition
    template: str  # '' or 'template <typename F>'
    params: tuple[Field, ...]
    result_type: str
    result_struct: str | None  # struct name when several outputs
    fields: tuple[Field, ...]  # outputs, in C order
    returns: str | None  # return expression, or None for void
    variants: tuple[Variant, ...]  # one, or (twin, fallback) for large count
    checks: tuple[dict, ...] = ()  # static_asserts (callable overloads)
    error_code: bool = True  # False: the C function returns a value, not an error code
    raw: tuple[str, ...] = ()  # parameters passed through with their C type
    large_count: bool = False
    callables: tuple[CallableArg, ...] = ()  # callable overloads: their callable parameters, in order
    defines_struct: bool = True  # False where another overload already defines result_struct
    deprecated: bool = False  # the C function is deprecated: its call is compiled without that warning
    lazy: bool = True  # declared as a template (declaration_template); False beside a callable overload

    @property
    def declaration_template(self) -> str:
        """The template head the header declares it with: its own (callable overloads), else one
        unused parameter with a default. A non-template inline function is compiled by every unit
        that includes its chapter, called or not (and <nampi/nampi.hpp> includes the communicators
        chapter); a template only where it is called. Calls and &nampi::mpi::name with a target
        type read the same. Not beside a callable overload of the same name (lazy False): there a
        non-template is what makes a C function pointer choose the C overload."""
        if self.template or not self.lazy:
            return self.template
        return "template <typename Unused = void>"

    @property
    def adapter(self) -> str | None:
        """The adapter of a capture-free callable overload (one callable), else None."""
        return self.callables[0].adapter if len(self.callables) == 1 else None

    @property
    def signature(self) -> str:
        return ", ".join(f"{p.type} {p.name}" for p in self.params)

    def pointer_type(self, callables_in: str = "") -> str:
        """The type of &wrapper, for the compile test; each callable's type is the one named like
        its adapter in namespace `callables_in`."""
        types = {c.template_param: f"{callables_in}::{c.adapter}" for c in self.callables}
        return f"{self.result_type} (*)({', '.join(types.get(p.type, p.type) for p in self.params)})"

    def template_args(self, callables_in: str) -> str:
        """`<T1, T2>` instantiating a callable overload with the callables of `callables_in`, else ''."""
        return f"<{', '.join(f'{callables_in}::{c.adapter}' for c in self.callables)}>" if self.callables else ""


@dataclass(frozen=True)
class Skipped:
    name: str
    reason: str
    source: str


@dataclass(frozen=True)
class Unprovided:
    """A typed name none of whose overloads the configured MPI has: the header then declares
    a template of that name whose use is one compile-time error naming the C functions, not
    "no member named" (the MPI 5 ABI's mpi_abi.h lacks the Fortran converters, Open MPI 4.1
    the MPI-4 functions)."""

    name: str
    guard: str  # preprocessor condition: no overload of `name` exists
    c_names: tuple[str, ...]


def unprovided(wrappers: list[Wrapper]) -> list[Unprovided]:
    """One Unprovided per C++ name among `wrappers`, in order of first appearance."""
    by_name: dict[str, list[Wrapper]] = {}
    for w in wrappers:
        by_name.setdefault(w.name, []).append(w)
    out = []
    for name, ws in by_name.items():
        guard = " && ".join(dict.fromkeys(f"!({w.guard})" for w in ws))
        c_names = tuple(dict.fromkeys(w.c_name for w in ws))
        out.append(Unprovided(name, guard, c_names))
    return out


def fallback_possible(function: MpiFunction) -> bool:
    """Can the large-count overload call the base function when the MPI lacks the twin?"""
    if any(p.large_only for p in function.all_params):
        return False  # the twin has parameters the base function lacks
    base = {p.name: p for p in function.params}
    for pname, c_type in function.large_count_types:
        p = base[pname]
        pbase, stars, array = split_c_type(p.c_type)
        tbase, tstars, tarray = split_c_type(c_type)
        if element_of(pbase) not in ("int", "MPI_Aint", "MPI_Count") or element_of(tbase) not in ("int", "MPI_Aint", "MPI_Count"):
            return False  # a callback type: the twin's cannot be turned into the base's
        if array and p.direction != "in":
            return False
    return True


def _outputs(plan: Plan, struct: str) -> tuple[str, str | None, tuple[Field, ...], str | None]:
    """(result type, struct name or None, fields, return expression)."""
    fields = tuple(f for f, _ in plan.outputs)
    if not plan.outputs:
        return "void", None, fields, None
    if len(plan.outputs) == 1:
        f, value = plan.outputs[0]
        # `return std::move(local);` would prevent copy elision (-Wpessimizing-move).
        return f.type, None, fields, value.removeprefix("std::move(").removesuffix(")") if value.startswith("std::move(") else value
    values = ", ".join(v for _, v in plan.outputs)
    return f"{NS}::{struct}", struct, fields, f"{NS}::{struct}{{{values}}}"


def _guard(function: MpiFunction, symbol: str) -> str:
    have = f"defined(NAMPI_HAVE_{symbol.upper()})"
    skipped = [f"!defined({IMPLEMENTATION_MACROS[i.name]})" for i in function.implementations if i.skip]
    return " && ".join([have, *skipped])


def skip_reason(function: MpiFunction) -> str | None:
    if function.typed is not None and function.typed.skip:
        return f"typed.skip: {function.typed.reason}"
    if any(p.is_varargs for p in function.params):
        return "C varargs cannot be forwarded"
    return None


def _doc(function: MpiFunction, fields: tuple[Field, ...], c_name: str, large: bool) -> str:
    what = f"Calls {c_name}" + (" (64-bit counts; checked narrowing where the MPI lacks it)" if large else "")
    if fields:
        what += "; returns " + ", ".join(f.name for f in fields)
    return what + "."


def _callables_of(function: MpiFunction, plan: Plan, callbacks: Callbacks, callables: tuple[str, ...]) -> tuple[CallableArg, ...]:
    """The callable parameters of an overload, for the compile test."""
    by_name = {p.name: p.type for p in plan.params}
    return tuple(CallableArg(by_name[ident(c)], callbacks.adapters[split_c_type(function.param(c).c_type)[0]]) for c in callables)


def _wrapper(function: MpiFunction, callbacks: Callbacks, callables: tuple[str, ...]) -> list[Wrapper]:
    """The wrapper of `function`, and its large-count overload if it has a twin; with `callables`,
    the overload taking C++ callables for those callback parameters."""
    source = f"{function.source}: {function.name}"
    name = cxx_name(function.name)
    plan = map_params(function, function.params, callbacks, callables, None)
    # The Forum gives MPI_Status_f2c & co. the return kind ERROR_CLASS; they return MPI_SUCCESS
    # or an error like every other function, so they are checked the same way.
    error_code = function.return_kind in ("ERROR_CODE", "ERROR_CLASS") and function.return_type == "int"
    result_type, struct, fields, returns = _outputs(plan, f"{name}_result")
    if not error_code:
        # The C function returns its value (MPI_Wtime, handle conversions): no error code to check.
        rhandle = HANDLES.get(function.return_type)
        result_type = f"{NS}::{rhandle}" if rhandle else function.return_type
        returns = f"{result_type}({function.name}({', '.join(plan.args)}))" if rhandle else f"{function.name}({', '.join(plan.args)})"
    suffix = " (callable)" if callables else ""
    base = Wrapper(
        c_name=function.name,
        name=name,
        doc=_doc(function, fields, function.name, False) + suffix,
        source=source,
        guard=_guard(function, function.name),
        template=plan.template,
        params=tuple(plan.params),
        result_type=result_type,
        result_struct=struct,
        fields=fields,
        returns=returns,
        variants=(Variant(function.name, tuple(plan.pre), tuple(plan.args), tuple(plan.post)),),
        checks=tuple(plan.checks),
        error_code=error_code,
        raw=tuple(plan.raw),
        callables=_callables_of(function, plan, callbacks, callables),
        defines_struct=not callables,
        deprecated=function.deprecated is not None,
    )
    twin = function.twin()
    if twin is None:
        return [base]
    tplan = map_params(twin, twin.params, callbacks, callables, None)
    same = [may_coincide(p.type) for p in tplan.params] == [may_coincide(p.type) for p in plan.params]
    tname = f"{name}_c" if same else name
    tresult, tstruct, tfields, treturns = _outputs(tplan, f"{name}_c_result")
    variants = [Variant(twin.name, tuple(tplan.pre), tuple(tplan.args), tuple(tplan.post), f"defined(NAMPI_HAVE_{twin.name.upper()})")]
    guard = _guard(function, twin.name)
    if fallback_possible(function) and not callables:
        narrow = {pname: function.param(pname).c_type for pname, _ in function.large_count_types}
        fplan = map_params(twin, twin.params, callbacks, (), narrow)
        variants.append(Variant(function.name, tuple(fplan.pre), tuple(fplan.args), tuple(fplan.post), None))
        guard = f"({guard}) || ({_guard(function, function.name)})"
    large = Wrapper(
        c_name=twin.name,
        name=tname,
        doc=_doc(twin, tfields, twin.name, True) + suffix,
        source=f"{function.source}: {function.name} large_count",
        guard=guard,
        template=tplan.template,
        params=tuple(tplan.params),
        result_type=tresult,
        result_struct=tstruct,
        fields=tfields,
        returns=treturns,
        variants=tuple(variants),
        checks=tuple(tplan.checks),
        raw=tuple(tplan.raw),
        large_count=True,
        callables=_callables_of(twin, tplan, callbacks, callables),
        defines_struct=not callables,
        deprecated=function.deprecated is not None,
    )
    return [base, large]


def _callable_groups(function: MpiFunction, callbacks: Callbacks) -> list[tuple[str, ...]]:
    """The callable overloads of `function`, each as the callback parameters it takes callables
    for: one overload per capture-free callback, and one for all callbacks that carry state (they
    share the function's extra_state, so they come together)."""
    stateless, stateful = [], []
    for p in function.params:
        base, stars, array = split_c_type(p.c_type) if not p.is_varargs else ("", "", "")
        if stars == "*" and not array and callbacks.adapters.get(base) is not None:
            (stateful if base in callbacks.stateful else stateless).append(p.name)
    return [(name,) for name in stateless] + ([tuple(stateful)] if stateful else [])


def typed_plan(functions: dict[str, MpiFunction], callbacks: dict[str, MpiFunction]) -> tuple[dict[str, list[Wrapper]], list[Skipped]]:
    """({chapter: wrappers in name order}, skipped functions)."""
    adapters = Callbacks.from_spec(callbacks)
    chapters: dict[str, list[Wrapper]] = {}
    skipped: list[Skipped] = []
    for function in sorted(functions.values(), key=lambda f: f.name):
        reason = skip_reason(function)
        if reason is not None:
            skipped.append(Skipped(function.name, reason, f"{function.source}: {function.name}"))
            continue
        wrappers = _wrapper(function, adapters, ())
        groups = _callable_groups(function, adapters)
        if groups:
            wrappers = [replace(w, lazy=False) for w in wrappers]
        for group in groups:
            wrappers += _wrapper(function, adapters, group)
        chapters.setdefault(function.chapter, []).extend(wrappers)
    return dict(sorted(chapters.items())), skipped


TYPED_SOURCES = "spec/mpi/*.yaml, spec/mpi/callbacks.yaml"
HEADER = "nampi/mpi/{chapter}.hpp"  # one per chapter, under generated/include/


def render_typed(env, plan: tuple[dict[str, list[Wrapper]], list[Skipped]]) -> dict[str, str]:
    """{path under generated/: text} from typed_plan's result: chapter headers, umbrella, compile test."""
    chapters, skipped = plan
    out = {}
    for chapter, wrappers in chapters.items():
        out["include/" + HEADER.format(chapter=chapter)] = env.get_template("typed.hpp.j2").render(
            sources=TYPED_SOURCES, chapter=chapter, wrappers=wrappers, unprovided=unprovided(wrappers),
            skipped=[s for s in skipped if s.source.startswith(f"spec/mpi/{chapter}.yaml")],
        )
    out["include/nampi/mpi.hpp"] = env.get_template("typed_all.hpp.j2").render(sources=TYPED_SOURCES, chapters=list(chapters))
    out["tests/test_typed_signatures.cpp"] = env.get_template("typed_test.cpp.j2").render(
        sources=TYPED_SOURCES, wrappers=[w for ws in chapters.values() for w in ws])
    return out
