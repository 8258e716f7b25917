"""One typed wrapper's parameters: each C parameter of an MPI function mapped to its C++
parameter, the statements before and after the call, the MPI call's argument and the outputs
returned (the Plan typed.py turns into a wrapper)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .mpi_spec import MpiFunction, MpiParam, split_c_type
from .typed_types import (
    ARRAY_ELEMENTS,
    HANDLES,
    LOGICAL_KINDS,
    NS,
    POINTER_OUT_KINDS,
    SCALARS,
    Callbacks,
    cxx_name,
    element_of,
    ident,
    raw_type,
    returns_new_handle,
    row_width,
)


# Statements before and after the MPI call, as data (templates/typed_body.j2 spells them).
def declare(type_: str, name: str, init: str | None = None, style: str = "assign") -> dict:
    """A local: `type name{};` without init, `type name = init;`, or `type name(init);` (construct)."""
    return {"kind": "declare", "type": type_, "name": name, "init": init, "style": style}


def call(function: str, *args: str) -> dict:
    return {"kind": "call", "function": function, "args": list(args)}


def assign(target: str, value: str) -> dict:
    return {"kind": "assign", "target": target, "value": value}


def static_check(condition: str, message: str) -> dict:
    return {"kind": "static_assert", "condition": condition, "message": message}


def _narrow(to: str, expr: str, fn: str, what: str, into: str = "without_c") -> str:
    """`expr` narrowed to `to` (nampi/detail/narrow.hpp, nampi::mpi::count_error if it does not fit)."""
    return f'nampi::detail::narrow<{to}, {NS}::count_error>({expr}, "{fn}", "{what}", {NS}::detail::{into})'


@dataclass(frozen=True)
class Field:
    type: str
    name: str


@dataclass
class Plan:
    """Accumulates one function's mapping, parameter by parameter."""

    fn: str  # C function name, for messages
    params: list[Field] = field(default_factory=list)
    pre: list[dict] = field(default_factory=list)  # statements (declare, call, assign)
    args: list[str] = field(default_factory=list)
    post: list[dict] = field(default_factory=list)
    outputs: list[tuple[Field, str]] = field(default_factory=list)  # (field, value expression)
    raw: list[str] = field(default_factory=list)
    template: str = ""
    checks: list[dict] = field(default_factory=list)  # static_assert, unused


def _sized_by(function: MpiFunction, params: tuple[MpiParam, ...]) -> dict[str, str]:
    """Array parameter -> the in scalar parameter that is its length ('count'), where the data says so."""
    by_name = {p.name: p for p in params}
    result = {}
    for p in params:
        rows = row_width(p) is not None
        count = p.length[0] if rows else p.length
        if not isinstance(count, str) or count == "*" or count not in by_name:
            continue
        base, stars, array = split_c_type(p.c_type)
        length = by_name[count]
        lbase, lstars, larray = split_c_type(length.c_type)
        if ((array == "[]" and not stars and element_of(base) in ARRAY_ELEMENTS) or rows) and length.direction == "in" and not lstars and not larray:
            result[p.name] = count
    return result


def _string_length(params: tuple[MpiParam, ...]) -> MpiParam | None:
    """The single out STRING_LENGTH parameter (resultlen), if there is exactly one."""
    found = [p for p in params if p.kind == "STRING_LENGTH" and p.direction == "out" and p.c_type == "int *"]
    return found[0] if len(found) == 1 else None


def map_params(function: MpiFunction, params: tuple[MpiParam, ...], callbacks: Callbacks,
                callables: tuple[str, ...], narrow: dict[str, str] | None) -> Plan:
    """Map every parameter. `callables`: the callback parameters taking a C++ callable (see
    _callable_groups). `narrow` (fallback of a large-count overload): param -> the base function's
    C type, to convert to with a check."""
    plan = Plan(function.name)
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
    impl_nonconst = function.nonconst_params

    def narrowed(p: MpiParam, expr: str) -> str:
        if narrow is None or p.name not in narrow:
            return expr
        base, stars, array = split_c_type(narrow[p.name])
        if not stars and not array:
            return _narrow(element_of(base), expr, fn, p.name)
        raise AssertionError("caller checks fallback_possible first")

    # Lengths taken from spans are computed first: out vectors sized by them may come earlier.
    for length, supplier in suppliers.items():
        elem = element_of(split_c_type(next(p for p in params if p.name == length).c_type)[0])
        plan.pre.append(declare(f"const {elem}", ident(length), _narrow(elem, f"{ident(supplier)}.size()", fn, f"{supplier}.size()", "length_argument")))

    for p in params:
        name = ident(p.name)
        base, stars, array = split_c_type(p.c_type)
        elem = element_of(base)
        is_const = base.startswith("const ")
        handle = HANDLES.get(elem)
        differs = narrow is not None and p.name in narrow
        target = split_c_type(narrow[p.name]) if differs else None

        # ---- lengths taken from spans
        if p.name in suppliers:
            plan.args.append(narrowed(p, name))
            continue
        if p.name == consumed_len:
            plan.pre.append(declare("int", name, "0"))
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
                static_check(
                    f"{NS}::callable::{adapter}::accepts<F>",
                    f"{NS}::{cxx_name(function.base or fn)}: parameter '{p.name}' must be a capture-free callable, "
                    f"see {NS}::callable::{adapter}",
                )
            )
            plan.checks.append({"kind": "unused", "name": name, "why": "only its type matters: F is stateless"})
            plan.args.append(f"{NS}::callable::{adapter}::pointer<F>()")
            continue

        # ---- handles
        if handle and not array and stars == "":
            plan.params.append(Field(f"{NS}::{handle}", name))
            plan.args.append(f"{name}.get()")
            continue
        if handle and not array and stars == "*":
            if p.direction == "out":
                plan.pre.append(declare(elem, name, f"{NS}::{handle}().get()"))
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
                length = ident(sized_by[p.name])
                assert not differs, "fallback_possible() excludes out arrays"
                plan.pre.append(declare(f"std::vector<{cxx_elem}>", name, f"static_cast<std::size_t>({length})", "construct"))
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
                    plan.pre.append(call(f"{NS}::detail::check_same_length", f'"{fn}"', f'"{p.name}"', f"{name}.size()", f'"{first}"', f"{ident(first)}.size()"))
            if differs:
                tbase, _, _ = split_c_type(narrow[p.name])
                arg = f"{NS}::detail::narrow_each<{element_of(tbase)}>(\"{fn}\", \"{p.name}\", {name}).data()"
            else:
                arg = as_c(name)
            if p.name in impl_nonconst:  # an implementation declares it without const
                arg = f"const_cast<{elem}*>({arg})"
            plan.args.append(arg)
            continue

        # ---- rows of a fixed width: MPI reads them (C declares them without const)
        width = row_width(p)
        if width is not None and p.name in sized_by:
            plan.params.append(Field(f"std::span<const std::array<{elem}, {width}>>", name))
            plan.args.append(f"{NS}::detail::c_rows({name})")
            continue

        # ---- strings MPI writes, of a known maximum length
        if p in max_strings and len(max_strings) == 1:
            plan.pre.append(declare("char", f"{name}[{p.length}]", "{}"))
            plan.args.append(name)
            length = ident(consumed_len) if consumed_len else f"{p.length}"
            value = f"{NS}::detail::written_string({name}, {length})"
            plan.outputs.append((Field("std::string", name), value))
            continue

        # ---- statuses
        if elem == "MPI_Status" and stars == "*" and not array:
            if p.direction == "out":
                plan.pre.append(declare("MPI_Status", name))
                plan.args.append(f"&{name}")
                plan.outputs.append((Field("MPI_Status", name), name))
            else:
                plan.params.append(Field("const MPI_Status&" if is_const else "MPI_Status&", name))
                if is_const and p.name in impl_nonconst:  # an implementation declares it without const
                    plan.args.append(f"const_cast<MPI_Status*>(&{name})")
                else:
                    plan.args.append(f"&{name}")
            continue

        # ---- pointers MPI writes through a `void *`
        if p.c_type == "void *" and p.direction == "out" and p.kind in POINTER_OUT_KINDS:
            plan.pre.append(declare("void*", name, "nullptr"))
            plan.args.append(f"&{name}")
            plan.outputs.append((Field("void*", name), name))
            continue

        # ---- scalars
        scalar = elem in SCALARS or elem.startswith("MPI_T_")  # MPI_T_*: tool handles and enums
        if scalar and not array and stars == "*" and not is_const and p.direction in ("out", "inout"):
            logical = p.kind in LOGICAL_KINDS and elem == "int"
            if p.direction == "out":
                plan.pre.append(declare(elem, name))
                if differs:
                    tbase = element_of(target[0])
                    plan.pre.append(declare(tbase, f"{name}_narrow"))
                    plan.args.append(f"&{name}_narrow")
                    plan.post.append(assign(name, f"{name}_narrow"))
                else:
                    plan.args.append(f"&{name}")
                plan.outputs.append((Field("bool" if logical else elem, name), f"{name} != 0" if logical else name))
            else:
                plan.params.append(Field(f"{elem}&", name))
                if differs:
                    tbase = element_of(target[0])
                    plan.pre.append(declare(tbase, f"{name}_narrow", _narrow(tbase, name, fn, p.name)))
                    plan.args.append(f"&{name}_narrow")
                    plan.post.append(assign(name, f"{name}_narrow"))
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
        plan.params.append(Field(raw_type(p.c_type), name))
        arg = name
        if p.name in impl_nonconst and is_const:
            arg = f"const_cast<{elem}{stars or '*'}>({name})"
        plan.args.append(arg)
        plan.raw.append(p.name)
    return plan


STATE = "callable_state"  # the local holding the callables' state in a stateful callable overload


def _stateful_plan(function: MpiFunction, params: tuple[MpiParam, ...], callbacks: Callbacks,
                   callables: tuple[str, ...], plan: Plan) -> dict[str, str] | None:
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
    names = [ident(c) for c in callables]
    plan.template = "template <" + ", ".join(f"typename F{i}" for i in range(1, len(callables) + 1)) + ">"
    for i, (c, adapter) in enumerate(zip(callables, adapters), start=1):
        plan.checks.append(
            static_check(
                f"{adapter}::accepts<F{i}>",
                f"{NS}::{cxx_name(function.base or function.name)}: parameter '{c}' is not accepted by {adapter} "
                "(see there for the callable's signature)",
            )
        )
    plan.pre.append(declare("auto", STATE, f"{NS}::callable::make_state<{', '.join(adapters)}>({', '.join(f'std::move({n})' for n in names)})"))
    plan.post.append(call(f"{NS}::callable::hand_over", f"std::move({STATE})"))
    args = {c: f"{STATE}->template c_function<{i}>()" for i, c in enumerate(callables)}
    args[extra[0].name] = f"{STATE}->extra_state()"
    return args
