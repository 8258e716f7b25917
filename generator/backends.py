"""Communicator backends (spec/backends.yaml): which bindings each communicator type has as
members. A binding is described once; a backend has it when it provides every MPI function the
binding may issue (its own and its rules'). The generated header lists, per backend that does
not provide everything, the call forms it has; the check struct of every other form says so."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .contracts import runtime_text
from .errors import SpecError, Where
from .model import Binding
from .schema import load_schema, validate
from .yamlload import load_yaml, where_of

REL = "spec/backends.yaml"


@dataclass(frozen=True)
class Backend:
    name: str
    doc: str
    communicator: str
    provides: frozenset | None  # the MPI functions it implements; None: all (MPI itself)
    where: Where | None
    tag_at_creation: str | None = None  # where its calls that take no tag take one instead


def load_backends(root: Path, mpi_functions: dict) -> list[Backend]:
    data = load_yaml(root / REL, REL)
    validate(data, load_schema(root / "spec" / "schema" / "backends.schema.json"), REL)
    out = []
    for name, entry in data.items():
        provides = entry["provides"]
        if provides == "all":
            provides = None
        else:
            if "function" not in entry:
                raise SpecError(where_of(data, name), f"{name}: a backend that lists its functions names the `function` template that holds them")
            _check_implemented(root, name, entry["function"], provides, mpi_functions)
            provides = frozenset(provides)
        out.append(Backend(name, entry["doc"], entry["communicator"], provides, where_of(data, name), entry.get("tag_at_creation")))
    return out


def _check_implemented(root: Path, name: str, template: str, provides, mpi_functions: dict) -> None:
    """Every listed function is MPI's and has its specialization `template<MPI_X>` (and the
    `_c` twin's where MPI has one) in the runtime."""
    namespace, _, short = template.rpartition("::")
    text = runtime_text(root)
    for i, function in enumerate(provides):
        where = where_of(provides, i)
        if function not in mpi_functions:
            raise SpecError(where, f"{name}: '{function}' is not an MPI function (spec/mpi/)")
        for f in (function, f"{function}_c"):
            if (f == function or f in mpi_functions) and not re.search(rf"struct {short}<{re.escape(f)}>", text):
                raise SpecError(
                    where,
                    f"{name}: '{function}' needs {template}<{f}> in runtime/include/nampi/ "
                    f"(a specialization in namespace {namespace}: the backend's version of the function)",
                )


def needed_functions(binding: Binding, mpi_functions: dict) -> set[str]:
    """Every MPI function a call of the binding may issue on its communicator: its own, what
    its parameters' conversions issue, and what the rules that may run issue (a rule runs
    when its parameter is omitted, asked back or serialized). A rule's function without a
    communicator parameter (MPI_Get_count, ...) is local: every backend has it."""
    needed = set()
    for form in binding.forms:
        for p in form.params:
            needed |= set(p.param.mpi_calls) | set(p.param.blocking_mpi_calls) | set(p.param.nonblocking_mpi_calls)
            for rule_call in (p.default, p.resize, p.serialized_default):
                if rule_call is not None:
                    needed |= set(rule_call.rule.mpi_calls)
                    for calls in rule_call.rule.topology_calls.values():
                        needed |= set(calls)
    for calls in binding.topology_calls.values():
        needed |= set(calls)
    return {binding.mpi} | {f for f in needed if f not in mpi_functions or _on_communicator(mpi_functions[f])}


def _on_communicator(function) -> bool:
    return any(p.kind == "COMMUNICATOR" for p in function.all_params)


def provided_bindings(backend: Backend, bindings: list[Binding], mpi_functions: dict) -> list[Binding]:
    if backend.provides is None:
        return list(bindings)
    return [b for b in bindings if needed_functions(b, mpi_functions) <= backend.provides]


def backends_view(backends: list[Backend], bindings: list[Binding], mpi_functions: dict, tag_of) -> list[dict]:
    """The backends that do not provide everything, each with the call tags it has."""
    return [
        {
            "name": b.name,
            "doc": b.doc,
            "communicator": b.communicator,
            "tags": [tag_of(binding, form) for binding in provided_bindings(b, bindings, mpi_functions) for form in binding.forms],
        }
        for b in backends
        if b.provides is not None
    ]


def tag_checks(backends: list[Backend], binding: Binding, form, mpi_functions: dict, tag: str, label: str) -> list[dict]:
    """A tag given to a call that takes none, on a communicator type whose calls take their tag
    where it is made (a range's collectives; the type says so: nampi/detail/check_call.hpp tag_at_creation):
    one message saying where it goes. The generic check becomes check_call_but, which lets this
    tag pass there, so there is no second message."""
    if any(p.name == "tag" for p in form.params):
        return []
    needed = needed_functions(binding, mpi_functions)
    return [
        {
            "cond": "!nampi::detail::tag_at_creation<Comm> || !nampi::detail::has_param<nampi::param_id::tag, Args...>",
            "msg": f"nampi: {label}: a {b.communicator}'s call takes no tag: give it to the range "
            f"({b.tag_at_creation}), whose calls each have tags of their own",
        }
        for b in backends
        if b.tag_at_creation and (b.provides is None or needed <= b.provides)
    ]


def lacking_check(backends: list[Backend], binding: Binding, mpi_functions: dict, tag: str, label: str) -> dict | None:
    """The check struct's condition that the communicator type has the call, with a message
    naming the types that do not; None where every backend has it."""
    needed = needed_functions(binding, mpi_functions)
    lacking = [b for b in backends if b.provides is not None and not needed <= b.provides]
    if not lacking:
        return None
    missing = sorted(set().union(*(needed - b.provides for b in lacking)))
    return {
        "cond": f"nampi::detail::when_called<nampi::detail::provides<Comm, nampi::call::{tag}>, Args...>",
        "msg": f"nampi: {label}: not a call of {' or '.join(b.communicator for b in lacking)} "
        f"(its backend lacks {', '.join(missing)}: spec/backends.yaml)",
    }
