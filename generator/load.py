"""Stage 1: load spec/parameters.yaml, spec/rules.yaml and spec/bindings/*.yaml,
validate them against their schemas, and build the model with every
cross-reference checked."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .contracts import check_block_builder, check_converters, check_helpers
from .errors import SpecError, Where
from .model import (
    ELEMENT_STORAGE,
    RECEIVERS,
    Binding,
    Form,
    FormParam,
    Parameter,
    Rule,
    RuleArg,
    order_rules,
    parse_rule_call,
)
from .schema import load_schema, validate
from .yamlload import load_yaml, where_of

# MPI arguments that are not parameters: the communicator and MPI constants.
COMM_ARG = "comm"
RECEIVER_ARGS = tuple(RECEIVERS)
# Fields of a parameter an MPI argument may name (<param>.<field>) besides `fields` ones: the
# base address MPI_Win_allocate writes, kept by the window it creates.
PARAM_FIELDS = {"new_win": ("base",)}
# The last argument of a nonblocking MPI function (added by the generator, never written in YAML).
REQUEST_ARG = "request"


@dataclass
class Spec:
    parameters: dict[str, Parameter]
    rules: dict[str, Rule]
    bindings: list[Binding]  # sorted by group, then name


def _load_checked(root: Path, rel: str, schema: str) -> object:
    data = load_yaml(root / rel, rel)
    validate(data, load_schema(root / "spec" / "schema" / schema), rel)
    return data


def load_parameters(root: Path) -> dict[str, Parameter]:
    rel = "spec/parameters.yaml"
    data = _load_checked(root, rel, "parameters.schema.json")
    result = {}
    for name in sorted(data):
        entry = data[name]
        result[name] = Parameter(
            name=name,
            doc=entry["doc"],
            to_mpi=entry["to_mpi"],
            array=bool(entry.get("array")),
            data=bool(entry.get("data")),
            storage=entry.get("storage"),
            omitted_storage=entry.get("omitted_storage"),
            factories=dict(entry["factories"]),
            where=where_of(data, name),
            mpi_calls=dict(sorted(entry.get("mpi_calls", {}).items())),
            blocking_mpi_calls=dict(sorted(entry.get("blocking_mpi_calls", {}).items())),
            nonblocking_mpi_calls=dict(sorted(entry.get("nonblocking_mpi_calls", {}).items())),
            takes=entry.get("takes"),
            check=entry.get("check"),
            role=entry.get("role"),
            header=entry.get("header"),
            mpi_handle=entry.get("mpi_handle"),
            braced_list=bool(entry.get("braced_list")),
        )
    factory_names = [f for p in result.values() for f in p.factories.values()]
    for p in result.values():
        for role, f in p.factories.items():
            if factory_names.count(f) > 1:
                raise SpecError(p.where, f"{p.name}: factory name '{f}' is used twice")
    triggers = [p for p in result.values() if p.role == "in_place"]
    if len(triggers) > 1:
        raise SpecError(triggers[1].where, f"{triggers[1].name}: role 'in_place' is {triggers[0].name}'s already (one parameter selects the in-place forms)")
    check_converters(root, result, data)
    return result


def in_place_trigger(parameters: dict[str, Parameter]) -> str | None:
    """The parameter whose presence selects a call's in-place form (parameters.yaml `role: in_place`)."""
    return next((p.name for p in parameters.values() if p.role == "in_place"), None)


def load_rules(root: Path) -> dict[str, Rule]:
    rel = "spec/rules.yaml"
    data = _load_checked(root, rel, "rules.schema.json")
    rules = {
        name: Rule(
            name=name,
            doc=entry["doc"],
            helper=entry["helper"],
            args=tuple(RuleArg(a["name"], bool(a.get("literal", False))) for a in entry["args"]),
            mpi_calls=dict(sorted(entry["mpi_calls"].items())),
            root_only=bool(entry.get("root_only", False)),
            copies_argument=bool(entry.get("copies_argument", False)),
            per_rank=bool(entry.get("per_rank", False)),
            grows_only_if_given=entry.get("grows_only_if_given"),
            where=where_of(data, name),
            topology_calls={t: dict(sorted(c.items())) for t, c in sorted(entry.get("topology_calls", {}).items())},
        )
        for name, entry in sorted(data.items())
    }
    queries = {json.dumps(r.topology_calls, sort_keys=True): r for r in rules.values() if r.topology_calls}
    if len(queries) > 1:
        second = list(queries.values())[1]
        raise SpecError(where_of(data[second.name], "topology_calls"), f"{second.name}: topology_calls differ from another rule's: a call asks its topology once, so every rule that asks it lists the same calls")
    for rule in rules.values():
        if rule.grows_only_if_given and rule.grows_only_if_given not in [a.name for a in rule.args if not a.literal]:
            raise SpecError(where_of(data[rule.name], "grows_only_if_given"), f"{rule.name}: grows_only_if_given '{rule.grows_only_if_given}' is not one of its (non-literal) args")
    check_helpers(root, rules, data)
    return rules


def _storage(p: Parameter, fp: dict, element: str | None, where: Where, context: str) -> str:
    storage = fp.get("storage", p.storage)
    if storage is None:
        return "void"
    if storage in ELEMENT_STORAGE:
        if element is None:
            raise SpecError(where, f"{context}: creating '{p.name}' needs the call's 'element'")
        return ELEMENT_STORAGE[storage].format(e=element)
    return storage


def _allocates(p: Parameter, fp: dict, storage: str) -> bool:
    """Creating the parameter allocates: an array, unless this call stores one element
    (or a marker such as MPI_UNWEIGHTED stands in for it when omitted)."""
    kind = fp.get("storage", p.storage)
    return p.array and storage not in ("void", p.omitted_storage) and kind != "element"


# `element: template or <buffer>`: the call's T where given, else the buffer's element type.
TEMPLATE_OR = "template or "


def _element_cpp(element: str | None, params: dict, where: Where, context: str) -> tuple[str | None, bool]:
    """C++ element type of buffers the call creates, and whether it is the template T."""
    if element is None:
        return None, False
    if element == "template":
        return "T", True
    if element.startswith(TEMPLATE_OR):
        # call<T>(...) names the element type, else the buffer's (sendrecv<int>(send_buf(v), ...)).
        fallback = element.removeprefix(TEMPLATE_OR)
        if fallback not in params:
            raise SpecError(where, f"{context}: element '{fallback}' is not a parameter of this call")
        return f"nampi::detail::element_or_t<T, nampi::detail::slot_element_t<decltype({fallback})>>", True
    if element not in params:
        raise SpecError(where, f"{context}: element '{element}' is not a parameter of this call")
    return f"nampi::detail::slot_element_t<decltype({element})>", False


# The variants a binding entry can add: key -> the binding's name from the blocking one's.
VARIANTS = {"nonblocking": lambda name: "i" + name, "persistent": lambda name: name + "_init"}

# A partitioned entry (`partitioned: MPI_Psend_init` instead of `mpi:`) defines one binding,
# <name>_init, and nothing else: MPI has no blocking or nonblocking partitioned calls.
PARTITIONED = "partitioned"
PARTITIONED_NAME = lambda name: name + "_init"  # noqa: E731
PARTITIONED_EXCLUDES = ("mpi", "nonblocking", "persistent", "in_place")


def partition_side(fn) -> str:
    """"send" (MPI_Psend_init: pready*) or "recv" (MPI_Precv_init: parrived): whether MPI
    reads the partitioned buffer or writes it, as its C type says (`const void *` is read; the
    Forum marks both buffers IN, since neither is touched before MPI_Start)."""
    buffer = next(p for p in fn.params if p.kind == "BUFFER")
    return "send" if buffer.c_type.startswith("const ") else "recv"


def _entry_bindings(name: str, entry, where: Where) -> list[tuple[str, str, Where]]:
    """(binding name, variant, where) of every binding an entry defines."""
    if PARTITIONED in entry:
        for key in PARTITIONED_EXCLUDES:
            if key in entry:
                raise SpecError(
                    where_of(entry, key),
                    f"{name}: a partitioned call ({entry[PARTITIONED]}) has only its persistent form; remove '{key}'",
                )
        return [(PARTITIONED_NAME(name), PARTITIONED, where_of(entry, PARTITIONED))]
    if "mpi" not in entry:
        raise SpecError(where, f"{name}: needs 'mpi' (the blocking MPI function) or 'partitioned'")
    out = [(name, "blocking", where)]
    for variant, variant_name in VARIANTS.items():
        if variant in entry:
            named = entry.get(f"{variant}_name", variant_name(name))
            out.append((named, variant, where_of(entry, variant)))
    if "nonblocking_name" in entry and "nonblocking" not in entry:
        raise SpecError(where_of(entry, "nonblocking_name"), f"{name}: nonblocking_name without nonblocking")
    return out


def _variant_args(args: list[str], params: list[FormParam], mpi_function, blocking_function, where: Where,
                  context: str) -> list[str]:
    """The arguments of a nonblocking or persistent MPI function, read from the two signatures in
    spec/mpi: each of its parameters takes the blocking function's argument of the same name; a
    parameter the blocking function lacks is the request (nampi's) or an info (MPI_INFO_NULL:
    nampi passes no hints yet); the status the blocking function has and the variant lacks is
    filled by MPI_Wait or MPI_Test. A partitioned call has no blocking function: its mpi_args
    are its own but the info and the request, which go where its signature has them."""
    if mpi_function is None or blocking_function is None:
        status = {p.name for p in params if p.param.to_mpi == "status"}
        out = [a for a in args if a not in status]
        kinds = [q.kind for q in mpi_function.params] if mpi_function is not None else []
        if "INFO" in kinds:
            out.insert(kinds.index("INFO"), "MPI_INFO_NULL")
        return out + [REQUEST_ARG]
    by_name = dict(zip((q.name for q in blocking_function.params), args))
    out = []
    for q in mpi_function.params:
        if q.name in by_name:
            out.append(by_name[q.name])
        elif q.kind == "REQUEST":
            out.append(REQUEST_ARG)
        elif q.kind == "INFO":
            out.append("MPI_INFO_NULL")
        else:
            raise SpecError(where, f"{context}: {mpi_function.name}'s parameter '{q.name}' is not one of "
                                   f"{blocking_function.name}'s, nor a request or an info: nampi cannot tell its argument")
    if REQUEST_ARG not in out:
        raise SpecError(where, f"{context}: {mpi_function.name} returns no request: it is not a nonblocking or persistent form")
    return out


def _check_mpi_args_used(entry, params: list[FormParam], signature, context: str) -> None:
    """A parameter passed twice must fill two MPI arguments of one kind (a `_single` call's
    send_type is its receive type too); for arguments of different kinds (the counts as the
    displacements) it is a mistake. `signature`: the MPI function mpi_args are written for. And
    each declared parameter is used: by an MPI argument (itself or one of its fields), by a rule
    of another parameter, or by its role (the in-place marker selects the form, a layout
    parameter describes another's memory)."""
    mpi_args = entry["mpi_args"]
    described = [] if signature is None else list(signature.params)
    if len(described) != len(mpi_args):  # a partitioned call's mpi_args leave its info and request out
        described = [q for q in described if q.kind not in ("REQUEST", "INFO")]
    kinds = [q.kind for q in described]
    seen: dict[str, int] = {}
    for i, arg in enumerate(mpi_args):
        if arg.startswith("MPI_") or arg.isdigit():
            continue
        if arg in seen:
            first = seen[arg]
            if len(kinds) != len(mpi_args) or kinds[first] != kinds[i]:
                what = (f" ({signature.name}'s {described[first].name} and {described[i].name} differ in kind)"
                        if len(kinds) == len(mpi_args) else "")
                raise SpecError(where_of(mpi_args, i), f"{context}: '{arg}' is in mpi_args twice, as arguments {first + 1} "
                                                      f"and {i + 1}{what}: give each its own parameter")
        else:
            seen[arg] = i
    used = {a.partition(".")[0] for a in mpi_args}
    for p in params:
        for rule_call in (p.default, p.resize, p.serialized_default):
            if rule_call is not None:
                used.update(rule_call.param_args())
    for p in params:
        if p.name not in used and not p.param.role:
            raise SpecError(p.where, f"{context}: parameter '{p.name}' is declared but no MPI argument and no rule uses it")


def _constraint(entry, key: str, params: list[FormParam], context: str) -> tuple[str, ...]:
    """The parameter names of a form constraint (`either`, `all_or_none`), checked."""
    names = entry.get(key, [])
    by_name = {p.name: p for p in params}
    for i, name in enumerate(names):
        where = where_of(names, i)
        p = by_name.get(name)
        if p is None:
            raise SpecError(where, f"{context}.{key}: '{name}' is not a parameter of this call")
        if p.required or p.required_at_root:
            raise SpecError(where, f"{context}.{key}: '{name}' is required; {key} lists parameters a caller may omit")
        if key == "either" and "in" not in p.param.factories:
            raise SpecError(where, f"{context}.{key}: '{name}' cannot be given (it has no 'in' factory)")
        if key == "either" and p.default is None:
            raise SpecError(where, f"{context}.{key}: '{name}' has no default rule to compute it from the other")
    return tuple(names)


def _check_serialized_defaults(params: list[FormParam], context: str) -> None:
    """A serialized_default runs where the parameter's default would (or first, without one):
    what it reads must be given, or computed before that point, i.e. read by the default too."""
    by_name = {p.name: p for p in params}
    for p in params:
        if p.serialized_default is None:
            continue
        for dep in p.serialized_default.param_args():
            if dep not in by_name:
                raise SpecError(p.where, f"{context}.{p.name}: rule argument '{dep}' is not a parameter of this call")
            before = p.default.param_args() if p.default else []
            if by_name[dep].default is not None and dep not in before:
                raise SpecError(
                    p.where,
                    f"{context}.{p.name}: serialized_default reads '{dep}', which is computed, but the default does not read it",
                )


def _check_topology(test: dict | None, test_where: Where, rule_order, context: str) -> None:
    """A test of a call whose rules issue topology-dependent calls names its topology."""
    if test is None:
        return
    for p, rule_call in rule_order:
        if rule_call.rule.topology_calls and "topology" not in test:
            raise SpecError(
                test_where,
                f"{context}: test.topology is needed: rule '{rule_call.rule.name}' (of '{p.name}') issues MPI calls "
                f"that depend on the communicator's topology (one of {', '.join(rule_call.rule.topology_calls)})",
            )


def _load_form(
    kind, entry, parameters, rules, mpi_function, context, test, variant="blocking", test_where=None, fallback_test=None,
    blocking_function=None, variant_where=None,
) -> Form:
    """One form of a binding; `fallback_test` is the test an in-place form without its own uses."""
    where = entry.where
    raw_params = entry["params"]
    element, element_template = _element_cpp(entry.get("element"), raw_params, where, context)
    params = []
    for name, fp in raw_params.items():
        pwhere = where_of(raw_params, name)
        if name not in parameters:
            raise SpecError(pwhere, f"{context}: unknown parameter '{name}'")
        p = parameters[name]
        rule_calls = {
            key: parse_rule_call(fp[key], rules, where_of(fp, key), f"{context}.{name}")
            for key in ("default", "resize")
            if key in fp
        }
        required = fp.get("required")
        if required == "at_root":
            if "default" in rule_calls:
                raise SpecError(pwhere, f"{context}.{name}: a parameter required at the root cannot have a default")
            # Omitted off the root is fine; at the root the rule reports it.
            rule_calls["default"] = parse_rule_call("required_at_root(root)", rules, pwhere, f"{context}.{name}")
        if required is True and "default" in rule_calls:
            raise SpecError(pwhere, f"{context}.{name}: a required parameter cannot have a default")
        serialized_default = None
        if "serialized_default" in fp:
            serialized_default = parse_rule_call(
                fp["serialized_default"], rules, where_of(fp, "serialized_default"), f"{context}.{name}"
            )
        creates = "default" in rule_calls or serialized_default or fp.get("returned") or (not required and p.storage)
        storage = _storage(p, fp, element, pwhere, f"{context}.{name}") if creates else "void"
        if p.omitted_storage and not required and not fp.get("returned"):
            storage = p.omitted_storage
        params.append(
            FormParam(
                name=name,
                param=p,
                required=required is True,
                required_at_root=required == "at_root",
                default=rule_calls.get("default"),
                resize=rule_calls.get("resize"),
                returned_if_omitted=bool(fp.get("returned")),
                storage=storage,
                allocates=_allocates(p, fp, storage),
                policy=fp.get("policy", "no_resize"),
                where=pwhere,
                serialized_default=serialized_default,
                one_value=fp.get("storage", p.storage) == "element",
            )
        )
    _check_serialized_defaults(params, context)
    either = _constraint(entry, "either", params, context)
    all_or_none = _constraint(entry, "all_or_none", params, context)
    not_given = _constraint(entry, "not_given", params, context)
    rule_order = order_rules(params, where, context, either)
    _check_topology(test if test is not None else fallback_test, test_where or where, rule_order, context)
    by_name = {p.name: p for p in params}
    _check_mpi_args_used(entry, params, blocking_function or mpi_function, context)
    args = []
    for i, arg in enumerate(entry["mpi_args"]):
        owner, _, field = arg.partition(".")
        fields = owner in by_name and by_name[owner].param.to_mpi == "fields"
        own_field = owner in by_name and field in PARAM_FIELDS.get(by_name[owner].param.to_mpi, ())
        if (arg in by_name and not fields) or (field and fields) or own_field:
            args.append(arg)
        elif arg in RECEIVER_ARGS or arg.startswith("MPI_") or arg.isdigit():
            args.append(arg)
        elif fields:
            raise SpecError(where_of(entry["mpi_args"], i), f"{context}: '{owner}' is passed as its fields: write {owner}.<field>")
        else:
            raise SpecError(where_of(entry["mpi_args"], i), f"{context}: MPI argument '{arg}' is not a parameter of this call")
    # A parameter the caller may give as an input elsewhere (an `in` factory) has a resize rule
    # only where MPI writes it (cart_coords' coords); the call then refuses it as an input.
    # mpi_args are the blocking function's: read their directions there (a variant's differ by the status).
    signature = blocking_function or mpi_function
    written = {a for a, m in zip(args, signature.params if signature is not None else ()) if m.direction == "out"}
    for p in params:
        if p.resize is not None and "in" in p.param.factories and p.name not in written:
            raise SpecError(p.where, f"{context}.{p.name}: only buffers the call writes can have a resize rule")
    if variant != "blocking":
        args = _variant_args(args, params, mpi_function, blocking_function, variant_where or where, context)
    if mpi_function is not None and len(args) != len(mpi_function.params):
        raise SpecError(
            entry["mpi_args"].where,
            f"{context}: {mpi_function.name} takes {len(mpi_function.params)} arguments, mpi_args lists {len(args)}",
        )
    primary = None
    if "primary" in entry:
        primary = next((p for p in params if p.name == entry["primary"]), None)
        if primary is None:
            raise SpecError(where_of(entry, "primary"), f"{context}: primary '{entry['primary']}' is not a parameter")
    else:
        primary = next((p for p in params if p.returned_if_omitted), None)
    if element is None and any(p.param.to_mpi == "op" for p in params):
        raise SpecError(where, f"{context}: a call with an op needs 'element' (the type the op combines)")
    mpi_params = tuple(mpi_function.params) if mpi_function is not None else ()
    nonconst = mpi_function.nonconst_params if mpi_function is not None else frozenset()
    return Form(
        kind, params, rule_order, args, primary, element, element_template, test, where, either, all_or_none,
        mpi_params=mpi_params, not_given=not_given, mpi_nonconst=nonconst,
        element_buffer=None if entry.get("element", "template") == "template" else entry["element"].removeprefix(TEMPLATE_OR),
    )


def _load_binding(name, base, variant, entry, group, rel, parameters, rules, mpi_functions, where) -> Binding:
    """The binding `name`: the blocking call (variant "blocking"), or a variant of it with the
    same parameters and rules that calls the MPI function entry[variant] instead."""
    key = "mpi" if variant == "blocking" else variant
    mpi = entry[key]
    if mpi_functions and mpi not in mpi_functions:
        raise SpecError(where_of(entry, key), f"{name}: '{mpi}' is not in spec/mpi/")
    fn = mpi_functions.get(mpi) if mpi_functions else None
    blocking_fn = mpi_functions.get(entry["mpi"]) if mpi_functions and variant != "blocking" and "mpi" in entry else None
    regular = _load_form(
        "regular", entry, parameters, rules, fn, name, entry["test"], variant, where_of(entry, "test"),
        blocking_function=blocking_fn, variant_where=where_of(entry, key),
    )
    in_place, trigger = None, None
    if "in_place" in entry:
        ip = entry["in_place"]
        in_place = _load_form(
            "in_place", ip, parameters, rules, fn, f"{name}.in_place", ip.get("test"), variant,
            where_of(ip, "test") if "test" in ip else where_of(entry, "test"), entry["test"],
            blocking_function=blocking_fn, variant_where=where_of(entry, key),
        )
        trigger = in_place_trigger(parameters)
        if trigger is None:
            raise SpecError(ip.where, f"{name}.in_place: no parameter has role 'in_place' in spec/parameters.yaml")
        if in_place.param(trigger) is None:
            raise SpecError(ip.where, f"{name}.in_place: the in-place form must take '{trigger}'")
        if regular.param(trigger) is not None:
            raise SpecError(ip.where, f"{name}: the regular form must not take '{trigger}'")
    doc = entry["doc"] + VARIANT_DOCS[variant]
    side = partition_side(fn) if variant == PARTITIONED else None
    serialized = _serialized(entry, regular, in_place, variant, name)
    per_rank = tuple(entry.get("serialized_per_rank", ()))
    for n in per_rank:
        if n not in entry.get("serialized", ()):
            raise SpecError(where_of(entry, "serialized_per_rank"), f"{name}.serialized_per_rank: '{n}' is not in serialized")
    if not serialized:
        per_rank = ()
    via = entry.get("serialized_via") if variant in ("blocking", "nonblocking") else None
    if via and variant == "nonblocking":
        via = "i" + via
    twin = fn.twin() if fn else None
    return Binding(
        name, group, rel, mpi, doc, regular, in_place, trigger, where, variant, base, side,
        serialized=serialized,
        serialized_via=via,
        serialized_per_rank=per_rank,
        non_null_buffers=bool(entry.get("non_null_buffers", False)),
        collective=bool(entry.get("collective", False)),
        peers=entry.get("peers", "ranks"),
        topology_calls=next((r.topology_calls for r in rules.values() if r.topology_calls), {}) if entry.get("peers") == "neighbors" else {},
        large_twin=twin.name if twin else None,
        large_types=_large_types(fn, twin),
        large_count_chunks=entry.get("large_count_fallback") == "chunks" and variant == "blocking",
        large_count_reduce_local=_reduce_local(entry.get("large_count_fallback"), variant),
        large_count_alltoallw=entry.get("large_count_fallback") == "alltoallw" and variant != PARTITIONED,
        receiver=next((a for a in entry["mpi_args"] if a in RECEIVER_ARGS), COMM_ARG),
        member_name=_member_name(entry, name, variant),
    )


def _member_name(entry, name: str, variant: str) -> str | None:
    """`member: sync` names the C++ member of binding file_sync (and isync of file_isync, unless
    nonblocking_name names that one)."""
    if "member" not in entry:
        return None
    if variant == "blocking":
        return entry["member"]
    if variant == "nonblocking" and "nonblocking_name" not in entry:
        return "i" + entry["member"]
    return None


def _reduce_local(fallback: str | None, variant: str) -> bool:
    """Whether a large count takes a derived datatype and a wrapper op (large_count_reduction.hpp):
    `reduce_local` in every form, and the nonblocking and persistent forms of `chunks` (one
    request cannot stand for several calls)."""
    if variant == PARTITIONED:
        return False
    return fallback == "reduce_local" or (fallback == "chunks" and variant != "blocking")


def _large_types(fn, twin) -> tuple[str, ...]:
    """Per MPI argument, the twin's C type where it differs from the int function's, else "":
    MPI_Neighbor_alltoallw takes MPI_Aint displacements in both forms, and such an array must
    not select the twin."""
    if twin is None:
        return ()
    return tuple(t.c_type if i >= len(fn.params) or t.c_type != fn.params[i].c_type else "" for i, t in enumerate(twin.params))


def _serialized(entry, regular: Form, in_place: Form | None, variant: str, name: str) -> tuple[str, ...]:
    """The buffers of `serialized`, checked. Only blocking and nonblocking calls take them: a
    persistent call would send the bytes of its first start() again at every later one."""
    names = tuple(entry.get("serialized", ()))
    forms = [regular] + ([in_place] if in_place else [])
    for n in names:
        if not any(f.param(n) is not None and f.param(n).param.data for f in forms):
            raise SpecError(where_of(entry, "serialized"), f"{name}.serialized: '{n}' is not a data buffer of the call")
    return names if variant in ("blocking", "nonblocking") else ()


VARIANT_DOCS = {
    "blocking": "",
    "nonblocking": " Nonblocking: returns at once a result that owns the call's buffers; wait() or test() gives what the blocking call returns.",
    "persistent": " Persistent: sets the call up once (inference included); start() runs it, wait() returns a view of the result, valid until the next start.",
    "partitioned": " Partitioned and persistent: sets the call up once (inference included); start() runs it, then the parts are marked ready (send: pready, pready_range, pready_list) or polled (receive: parrived), and wait() completes it.",
}


def load_bindings(root: Path, parameters, rules, mpi_functions: dict) -> tuple[list[Binding], list[Path]]:
    bindings, files = [], sorted((root / "spec" / "bindings").glob("*.yaml"))
    schema = load_schema(root / "spec" / "schema" / "bindings.schema.json")
    seen: dict[str, Where] = {}
    for path in files:
        rel = path.relative_to(root).as_posix()
        data = load_yaml(path, rel)
        validate(data, schema, rel)
        for name, entry in data.items():
            where = where_of(data, name)
            check_block_builder(root, name, name, entry)
            if name in seen:
                raise SpecError(where, f"binding '{name}' is already defined at {seen[name]}")
            seen[name] = where  # also for a partitioned entry: its name names the test program
            for bname, variant, bwhere in _entry_bindings(name, entry, where):
                if bname != name:
                    if bname in seen:
                        raise SpecError(bwhere, f"binding '{bname}' is already defined at {seen[bname]}")
                    seen[bname] = bwhere
                bindings.append(
                    _load_binding(bname, name, variant, entry, path.stem, rel, parameters, rules, mpi_functions, bwhere)
                )
    receivers: dict[str, Binding] = {}
    for b in bindings:  # one receiver per file: a file's calls are members of one class
        first = receivers.setdefault(b.group, b)
        if b.receiver != first.receiver:
            raise SpecError(
                b.where, f"{b.name}: runs on '{b.receiver}', but {first.name} in the same file runs on '{first.receiver}'"
            )
    names = {b.name for b in bindings}
    for b in bindings:
        if b.serialized_via and b.serialized_via not in names:
            raise SpecError(b.where, f"{b.name}.serialized_via: no binding '{b.serialized_via}'")
    bindings.sort(key=lambda b: (b.group, b.name))
    return bindings, files
