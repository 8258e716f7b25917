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
(runtime/include/nampi/mpi/callables.hpp): one overload per such parameter taking a capture-free
callable, or, where the typedef names its `typed.state` parameter (extra_state), one overload
taking all of the function's callbacks at once, with captures allowed: the function's own
EXTRA_STATE parameter disappears, and nampi passes the callables' state object there instead
(runtime/include/nampi/mpi/callable_state.hpp decides who owns it). A function whose entry says
`typed.skip`, or that has C varargs, gets no wrapper; the reason is recorded in the output.

Large count: the `_c` twin is mapped the same way. It becomes an overload of the same name if
its C++ parameter types differ from the base's (counting MPI_Aint, MPI_Offset and MPI_Count as
one type, as some implementations define them), otherwise a function `<name>_c`. It calls the
twin where the MPI has it (NAMPI_HAVE_<NAME>_C) and otherwise the base function, narrowing each
count with a check that throws nampi::mpi::count_error (naming the function and the value).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from .mpi_spec import MpiFunction, MpiParam, split_c_type
from .pmpi import IMPLEMENTATION_MACROS

NS = "nampi::mpi"

# C handle type -> strong handle type name in nampi::mpi (runtime/include/nampi/mpi/handles.hpp).
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
            and HANDLES.get(_elem(base)) in OWNED_HANDLES and p.name not in borrowed)


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


def _ident(name: str) -> str:
    return name + "_" if name in CPP_KEYWORDS else name


@dataclass(frozen=True)
class Field:
    type: str
    name: str


@dataclass(frozen=True)
class CallableArg:
    """A callable parameter of a callable overload: its template parameter and its adapter."""

    template_param: str  # F, or F1, F2, ... where the callables carry state
    adapter: str  # nampi::mpi::callable::<adapter>


@dataclass(frozen=True)
class Variant:
    """One C function the wrapper body can call: statements before, the call, after."""

    c_name: str
    pre: tuple[str, ...]
    args: tuple[str, ...]
    post: tuple[str, ...]
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
    checks: tuple[str, ...] = ()  # static_asserts (callable overloads)
    error_code: bool = True  # False: the C function returns a value, not an error code
    raw: tuple[str, ...] = ()  # parameters passed through with their C type
    large_count: bool = False
    callables: tuple[CallableArg, ...] = ()  # callable overloads: their callable parameters, in order
    defines_struct: bool = True  # False where another overload already defines result_struct

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

    @property
    def body(self) -> tuple[str, ...]:
        """The statements of the wrapper: checks, then each variant (under #if when there are
        several), then the return."""
        lines = list(self.checks)
        if not self.error_code:
            return (*lines, f"return {self.returns};")
        several = len(self.variants) > 1
        for index, v in enumerate(self.variants):
            if several:
                lines.append(f"#if {v.condition}" if index == 0 else ("#else" if v.condition is None else f"#elif {v.condition}"))
            lines.extend(v.pre)
            lines.append(f"nampi::detail::call_mpi(\"{v.c_name}\", {v.c_name}{''.join(', ' + a for a in v.args)});")
            lines.extend(v.post)
        if several:
            lines.append("#endif")
        if self.returns is not None:
            lines.append(f"return {self.returns};")
        return tuple(lines)


@dataclass(frozen=True)
class Skipped:
    name: str
    reason: str
    source: str


@dataclass
class _Plan:
    """Accumulates one function's mapping, parameter by parameter."""

    fn: str  # C function name, for messages
    params: list[Field] = field(default_factory=list)
    pre: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    post: list[str] = field(default_factory=list)
    outputs: list[tuple[Field, str]] = field(default_factory=list)  # (field, value expression)
    raw: list[str] = field(default_factory=list)
    template: str = ""
    checks: list[str] = field(default_factory=list)


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


def _elem(base: str) -> str:
    return base.removeprefix("const ").strip()


def _row_width(p: MpiParam) -> int | None:
    """N of an in array of rows `int [][N]` whose Forum length is [count, "N"], else None."""
    base, stars, array = split_c_type(p.c_type)
    match = _ROWS.match(array)
    if (match and not stars and _elem(base) == "int" and p.direction == "in" and isinstance(p.length, (list, tuple))
            and len(p.length) == 2 and p.length[1] == match[1]):
        return int(match[1])
    return None


def _sized_by(function: MpiFunction, params: tuple[MpiParam, ...]) -> dict[str, str]:
    """Array parameter -> the in scalar parameter that is its length ('count'), where the data says so."""
    by_name = {p.name: p for p in params}
    result = {}
    for p in params:
        rows = _row_width(p) is not None
        count = p.length[0] if rows else p.length
        if not isinstance(count, str) or count == "*" or count not in by_name:
            continue
        base, stars, array = split_c_type(p.c_type)
        length = by_name[count]
        lbase, lstars, larray = split_c_type(length.c_type)
        if ((array == "[]" and not stars and _elem(base) in ARRAY_ELEMENTS) or rows) and length.direction == "in" and not lstars and not larray:
            result[p.name] = count
    return result


def _string_length(params: tuple[MpiParam, ...]) -> MpiParam | None:
    """The single out STRING_LENGTH parameter (resultlen), if there is exactly one."""
    found = [p for p in params if p.kind == "STRING_LENGTH" and p.direction == "out" and p.c_type == "int *"]
    return found[0] if len(found) == 1 else None


def _map_params(function: MpiFunction, params: tuple[MpiParam, ...], callbacks: Callbacks,
                callables: tuple[str, ...], narrow: dict[str, str] | None) -> _Plan:
    """Map every parameter. `callables`: the callback parameters taking a C++ callable (see
    _callable_groups). `narrow` (fallback of a large-count overload): param -> the base function's
    C type, to convert to with a check."""
    plan = _Plan(function.name)
    stateful = _stateful_plan(function, params, callbacks, callables, plan)
    fn = function.name
    sized_by = _sized_by(function, params)
    suppliers: dict[str, str] = {}  # length param -> the first in/inout array giving it
    for p in params:
        if p.name in sized_by and p.direction in ("in", "inout") and sized_by[p.name] not in suppliers:
            suppliers[sized_by[p.name]] = p.name
    string_len = _string_length(params)
    max_strings = [p for p in params if p.kind == "STRING" and p.direction == "out" and p.c_type == "char *"
                   and isinstance(p.length, str) and p.length.startswith("MPI_MAX_")]
    consumed_len = string_len.name if string_len is not None and len(max_strings) == 1 else None
    impl_nonconst = {pname for impl in function.implementations for pname, t in impl.c_types if not t.startswith("const ")}

    def narrowed(p: MpiParam, expr: str) -> str:
        if narrow is None or p.name not in narrow:
            return expr
        base, stars, array = split_c_type(narrow[p.name])
        if not stars and not array:
            return f"{NS}::detail::narrow<{_elem(base)}>(\"{fn}\", \"{p.name}\", {expr})"
        raise AssertionError("caller checks fallback_possible first")

    # Lengths taken from spans are computed first: out vectors sized by them may come earlier.
    for length, supplier in suppliers.items():
        elem = _elem(split_c_type(next(p for p in params if p.name == length).c_type)[0])
        plan.pre.append(f"const {elem} {_ident(length)} = {NS}::detail::length_of<{elem}>(\"{fn}\", \"{supplier}\", {_ident(supplier)}.size());")

    for p in params:
        name = _ident(p.name)
        base, stars, array = split_c_type(p.c_type)
        elem = _elem(base)
        is_const = base.startswith("const ")
        handle = HANDLES.get(elem)
        differs = narrow is not None and p.name in narrow
        target = split_c_type(narrow[p.name]) if differs else None

        # ---- lengths taken from spans
        if p.name in suppliers:
            plan.args.append(narrowed(p, name))
            continue
        if p.name == consumed_len:
            plan.pre.append(f"int {name} = 0;")
            plan.args.append(f"&{name}")
            continue
        if stateful is not None and p.name in stateful:
            # A callable is a parameter; the function's extra_state is not (nampi's state goes there).
            if p.name in callables:
                plan.params.append(Field(f"F{callables.index(p.name) + 1}", name))
            plan.args.append(stateful[p.name])
            continue
        if p.name in callables:
            adapter = callbacks.adapters[elem]
            plan.template = "template <typename F>"
            plan.params.append(Field("F", name))
            plan.checks.append(
                f"static_assert({NS}::callable::{adapter}::accepts<F>, \"{NS}::{cxx_name(function.base or fn)}: parameter '{p.name}' "
                f"must be a capture-free callable, see {NS}::callable::{adapter}\");"
            )
            plan.checks.append(f"(void){name};  // only its type matters: F is stateless")
            plan.args.append(f"{NS}::callable::{adapter}::pointer<F>()")
            continue

        # ---- handles
        if handle and not array and stars == "":
            plan.params.append(Field(f"{NS}::{handle}", name))
            plan.args.append(f"{name}.get()")
            continue
        if handle and not array and stars == "*":
            if p.direction == "out":
                plan.pre.append(f"{elem} {name} = {NS}::{handle}().get();")
                plan.args.append(f"&{name}")
                if returns_new_handle(function, p):
                    plan.outputs.append((Field(f"{NS}::unique_{handle}", name), f"{NS}::unique_{handle}({NS}::detail::adopt_new, {NS}::{handle}({name}))"))
                else:
                    plan.outputs.append((Field(f"{NS}::{handle}", name), f"{NS}::{handle}({name})"))
            else:
                plan.params.append(Field(f"{NS}::{handle}&", name))
                plan.args.append(f"{name}.address()")
            continue

        # ---- arrays of handles, counts, displacements, statuses
        if array == "[]" and not stars and elem in ARRAY_ELEMENTS:
            cxx_elem = f"{NS}::{handle}" if handle else elem
            if handle:
                as_c = lambda e: f"{NS}::detail::c_handles({e})"  # noqa: E731
            elif elem == "MPI_Status":  # an empty span is MPI_STATUSES_IGNORE
                as_c = lambda e: f"{NS}::detail::statuses({e})"  # noqa: E731
            else:
                as_c = lambda e: f"{e}.data()"  # noqa: E731
            if p.direction == "out" and p.name in sized_by:
                length = _ident(sized_by[p.name])
                assert not differs, "fallback_possible() excludes out arrays"
                plan.pre.append(f"std::vector<{cxx_elem}> {name}(static_cast<std::size_t>({length}));")
                if handle or elem == "MPI_Status":
                    plan.args.append(as_c(f"std::span({name})"))
                else:  # never null: Open MPI's MPI_Graph_get rejects a null array of length 0
                    plan.args.append(f"{NS}::detail::out_array({name})")
                plan.outputs.append((Field(f"std::vector<{cxx_elem}>", name), f"std::move({name})"))
                continue
            span = f"std::span<const {cxx_elem}>" if is_const else f"std::span<{cxx_elem}>"
            plan.params.append(Field(span, name))
            if p.name in sized_by and suppliers.get(sized_by[p.name]) != p.name:
                first = suppliers.get(sized_by[p.name])
                if first is not None:
                    plan.pre.append(f"{NS}::detail::check_same_length(\"{fn}\", \"{p.name}\", {name}.size(), \"{first}\", {_ident(first)}.size());")
            if differs:
                tbase, _, _ = split_c_type(narrow[p.name])
                arg = f"{NS}::detail::narrow_each<{_elem(tbase)}>(\"{fn}\", \"{p.name}\", {name}).data()"
            else:
                arg = as_c(name)
            if p.name in impl_nonconst:  # an implementation declares it without const
                arg = f"const_cast<{elem}*>({arg})"
            plan.args.append(arg)
            continue

        # ---- rows of a fixed width: MPI reads them (C declares them without const)
        width = _row_width(p)
        if width is not None and p.name in sized_by:
            plan.params.append(Field(f"std::span<const std::array<{elem}, {width}>>", name))
            plan.args.append(f"{NS}::detail::c_rows({name})")
            continue

        # ---- strings MPI writes, of a known maximum length
        if p in max_strings and len(max_strings) == 1:
            plan.pre.append(f"char {name}[{p.length}] = {{}};")
            plan.args.append(name)
            length = _ident(consumed_len) if consumed_len else f"{p.length}"
            value = f"{NS}::detail::written_string({name}, {length})"
            plan.outputs.append((Field("std::string", name), value))
            continue

        # ---- statuses
        if elem == "MPI_Status" and stars == "*" and not array:
            if p.direction == "out":
                plan.pre.append(f"MPI_Status {name}{{}};")
                plan.args.append(f"&{name}")
                plan.outputs.append((Field("MPI_Status", name), name))
            else:
                plan.params.append(Field("const MPI_Status&" if is_const else "MPI_Status&", name))
                plan.args.append(f"&{name}" if is_const else f"&{name}")
            continue

        # ---- pointers MPI writes through a `void *`
        if p.c_type == "void *" and p.direction == "out" and p.kind in POINTER_OUT_KINDS:
            plan.pre.append(f"void* {name} = nullptr;")
            plan.args.append(f"&{name}")
            plan.outputs.append((Field("void*", name), name))
            continue

        # ---- scalars
        scalar = elem in SCALARS or elem.startswith("MPI_T_")  # MPI_T_*: tool handles and enums
        if scalar and not array and stars == "*" and not is_const and p.direction in ("out", "inout"):
            logical = p.kind in LOGICAL_KINDS and elem == "int"
            if p.direction == "out":
                plan.pre.append(f"{elem} {name}{{}};")
                if differs:
                    tbase = _elem(target[0])
                    plan.pre.append(f"{tbase} {name}_narrow{{}};")
                    plan.args.append(f"&{name}_narrow")
                    plan.post.append(f"{name} = {name}_narrow;")
                else:
                    plan.args.append(f"&{name}")
                plan.outputs.append((Field("bool" if logical else elem, name), f"{name} != 0" if logical else name))
            else:
                plan.params.append(Field(f"{elem}&", name))
                if differs:
                    tbase = _elem(target[0])
                    plan.pre.append(f"{tbase} {name}_narrow = {NS}::detail::narrow<{tbase}>(\"{fn}\", \"{p.name}\", {name});")
                    plan.args.append(f"&{name}_narrow")
                    plan.post.append(f"{name} = {name}_narrow;")
                else:
                    plan.args.append(f"&{name}")
            continue
        if not array and not stars and p.kind == "LOGICAL" and elem == "int" and p.direction == "in":
            plan.params.append(Field("bool", name))
            plan.args.append(f"{name} ? 1 : 0")
            continue
        if not array and not stars and p.direction == "in" and p.c_type != "...":
            plan.params.append(Field(elem, name))  # `const int` by value is just int
            plan.args.append(narrowed(p, name))
            continue

        # ---- everything else: the C type, unchanged
        assert not differs, f"{fn}.{p.name}: fallback_possible() admits only counts"
        plan.params.append(Field(_raw_type(p.c_type), name))
        arg = name
        if p.name in impl_nonconst and is_const:
            arg = f"const_cast<{elem}{stars or '*'}>({name})"
        plan.args.append(arg)
        plan.raw.append(p.name)
    return plan


STATE = "callable_state"  # the local holding the callables' state in a stateful callable overload


def _stateful_plan(function: MpiFunction, params: tuple[MpiParam, ...], callbacks: Callbacks,
                   callables: tuple[str, ...], plan: _Plan) -> dict[str, str] | None:
    """For an overload whose callables carry state: template parameters F1..Fn, their checks, the
    state object made from them before the call and handed over after it (callable_state.hpp), and
    the argument of each parameter it replaces (the callbacks and the function's extra_state).
    None for other overloads."""
    by_name = {p.name: p for p in params}
    if not callables or split_c_type(by_name[callables[0]].c_type)[0] not in callbacks.stateful:
        return None
    extra = [p for p in params if p.kind == "EXTRA_STATE" and p.c_type == "void *" and p.direction == "in"]
    assert len(extra) == 1, f"{function.name}: a stateful callable overload needs exactly one extra_state parameter"
    adapters = [f"{NS}::callable::{callbacks.adapters[split_c_type(by_name[c].c_type)[0]]}" for c in callables]
    names = [_ident(c) for c in callables]
    plan.template = "template <" + ", ".join(f"typename F{i}" for i in range(1, len(callables) + 1)) + ">"
    for i, (c, adapter) in enumerate(zip(callables, adapters), start=1):
        plan.checks.append(
            f"static_assert({adapter}::accepts<F{i}>, \"{NS}::{cxx_name(function.base or function.name)}: parameter '{c}' "
            f"is not accepted by {adapter} (see there for the callable's signature)\");"
        )
    plan.pre.append(f"auto {STATE} = {NS}::callable::make_state<{', '.join(adapters)}>({', '.join(f'std::move({n})' for n in names)});")
    plan.post.append(f"{NS}::callable::hand_over(std::move({STATE}));")
    args = {c: f"{STATE}->template c_function<{i}>()" for i, c in enumerate(callables)}
    args[extra[0].name] = f"{STATE}->extra_state()"
    return args


def _raw_type(c_type: str) -> str:
    """A C parameter type as a C++ parameter type: 'const int []' -> 'const int*'; 'int [][3]' -> 'int (*)[3]'."""
    base, stars, array = split_c_type(c_type)
    if not array:
        return f"{base}{stars}" if stars else base
    dims = array[2:]  # after the first []
    if dims:  # 'int [][3]': a pointer to arrays, spelled so that a name can follow
        return f"std::type_identity_t<{base}{stars} (*){dims}>"
    return f"{base}{stars}*"


def _may_coincide(cxx_type: str) -> str:
    """The type with MPI_Aint and MPI_Offset written as MPI_Count: an implementation may define them
    as one integer type (MPICH 4.0: all `long`), so an overload must not differ only there."""
    return re.sub(r"\bMPI_(Aint|Offset)\b", "MPI_Count", cxx_type)


def fallback_possible(function: MpiFunction) -> bool:
    """Can the large-count overload call the base function when the MPI lacks the twin?"""
    if any(p.large_only for p in function.all_params):
        return False  # the twin has parameters the base function lacks
    base = {p.name: p for p in function.params}
    for pname, c_type in function.large_count_types:
        p = base[pname]
        pbase, stars, array = split_c_type(p.c_type)
        tbase, tstars, tarray = split_c_type(c_type)
        if _elem(pbase) not in ("int", "MPI_Aint", "MPI_Count") or _elem(tbase) not in ("int", "MPI_Aint", "MPI_Count"):
            return False  # a callback type: the twin's cannot be turned into the base's
        if array and p.direction != "in":
            return False
    return True


def _outputs(plan: _Plan, struct: str) -> tuple[str, str | None, tuple[Field, ...], str | None]:
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


def _callables_of(function: MpiFunction, plan: _Plan, callbacks: Callbacks, callables: tuple[str, ...]) -> tuple[CallableArg, ...]:
    """The callable parameters of an overload, for the compile test."""
    by_name = {p.name: p.type for p in plan.params}
    return tuple(CallableArg(by_name[_ident(c)], callbacks.adapters[split_c_type(function.param(c).c_type)[0]]) for c in callables)


def _wrapper(function: MpiFunction, callbacks: Callbacks, callables: tuple[str, ...]) -> list[Wrapper]:
    """The wrapper of `function`, and its large-count overload if it has a twin; with `callables`,
    the overload taking C++ callables for those callback parameters."""
    source = f"{function.source}: {function.name}"
    name = cxx_name(function.name)
    plan = _map_params(function, function.params, callbacks, callables, None)
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
    )
    twin = function.twin()
    if twin is None:
        return [base]
    tplan = _map_params(twin, twin.params, callbacks, callables, None)
    same = [_may_coincide(p.type) for p in tplan.params] == [_may_coincide(p.type) for p in plan.params]
    tname = f"{name}_c" if same else name
    tresult, tstruct, tfields, treturns = _outputs(tplan, f"{name}_c_result")
    variants = [Variant(twin.name, tuple(tplan.pre), tuple(tplan.args), tuple(tplan.post), f"defined(NAMPI_HAVE_{twin.name.upper()})")]
    guard = _guard(function, twin.name)
    if fallback_possible(function) and not callables:
        narrow = {pname: function.param(pname).c_type for pname, _ in function.large_count_types}
        fplan = _map_params(twin, twin.params, callbacks, (), narrow)
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
        for group in _callable_groups(function, adapters):
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
            sources=TYPED_SOURCES, chapter=chapter, wrappers=wrappers,
            skipped=[s for s in skipped if s.source.startswith(f"spec/mpi/{chapter}.yaml")],
        )
    out["include/nampi/mpi.hpp"] = env.get_template("typed_all.hpp.j2").render(sources=TYPED_SOURCES, chapters=list(chapters))
    out["tests/test_typed_signatures.cpp"] = env.get_template("typed_test.cpp.j2").render(
        sources=TYPED_SOURCES, wrappers=[w for ws in chapters.values() for w in ws])
    return out
