"""What a call form's body holds (slots, checks and rule calls, the MPI call with its large-count
dispatch, the result) and the view of a binding that family.hpp.j2 fills in. Every function
returns plain data: decisions and argument lists; templates/call_body.j2 spells the statements."""

from __future__ import annotations

from .buffers import (
    blocked_buffers,
    one_element_buffers,
    partitioned_buffers,
    per_peer,
    per_rank,
    receives,
    typed_blocked_buffers,
    typed_buffers,
)
from .checks import check_struct_name, checks, tag_view
from .load import RECEIVER_ARGS, REQUEST_ARG
from .model import Binding, Form, FormParam
from .spelling import have_macro, param_id


def _slot(p: FormParam, returns_before_completion: bool, per_rank: bool = False, one_value_result: bool = False) -> dict:
    flags = ["true" if p.returned_if_omitted else "false"]
    if returns_before_completion:
        # Inputs moved in stay alive until the call completes; moved-in data comes back, except
        # where the call's result is itself one value (the `_single` reductions): there wait()
        # returns that value alone, and the value sent, a copy, is not wanted back.
        back = p.param.data and not one_value_result
        flags.append("nampi::detail::moved_input::" + ("hand_back" if back else "keep"))
    # A required buffer is never created: its Default tells a serialized one to split per rank.
    storage = "nampi::detail::serialized_per_rank" if per_rank else p.storage
    return {"name": p.name, "id": param_id(p.name), "storage": storage, "policy": _policy(p), "flags": flags}


def _policy(p: FormParam) -> str:
    """The resize policy a slot takes when the caller names none (nampi/detail/slot.hpp:
    policy_unless_given for one that a given count turns into grow_only)."""
    count = p.grows_only_if_given()
    if count is None:
        return f"nampi::{p.policy}"
    return f"nampi::detail::policy_unless_given<nampi::{p.policy}, {param_id(count)}, Args...>"


def _helper_call(p: FormParam, rule_call, datatype: str | None = None) -> dict:
    """A rule's helper and its arguments; a resize rule sees a buffer with a datatype in elements
    of that datatype (nampi::detail::typed, buffer_checks.hpp)."""
    target = f"nampi::detail::typed({p.name}, {datatype})" if datatype and rule_call is p.resize else p.name
    return {"helper": rule_call.rule.helper, "args": [target, "ctx", *rule_call.args]}


def _rule(p: FormParam, rule_call, datatype: str | None = None) -> dict:
    return {"kind": "rule", "param": p.name, **_helper_call(p, rule_call, datatype)}


def _serialized_rule(p: FormParam, rule_call) -> dict:
    """A parameter's serialized_default, chosen at compile time over its default (if any)."""
    ser = p.serialized_default
    return {
        "kind": "serialized_rule",
        "param": p.name,
        "serialized": {"helper": ser.rule.helper, "args": [p.name, "ctx", *ser.args]},
        "otherwise": _helper_call(p, rule_call) if rule_call is not None else None,
    }


def _value_checks(form: Form) -> list[dict]:
    """Run-time checks of the values the caller gives (parameters.yaml `check`), first: a rule
    may already call MPI with them (a probe with the tag). Computed values need none."""
    return [{"kind": "value_check", "param": p.name, "check": p.param.check} for p in form.params if p.param.check]


def _rules(binding: Binding, form: Form) -> list[dict]:
    """The value checks, then the rule calls in order; with serialized buffers allowed, a
    serialized_default takes its parameter's place in that order (first, for a parameter that
    has no default)."""
    datatype_of = {b: t for b, _, t, _ in typed_buffers(form)}
    if not binding.serialized:
        return _value_checks(form) + [_rule(p, r, datatype_of.get(p.name)) for p, r in form.rule_order]
    first = [_serialized_rule(p, None) for p in form.params if p.serialized_default and not p.default]
    rest = [
        _serialized_rule(p, r) if p.serialized_default and r is p.default else _rule(p, r, datatype_of.get(p.name))
        for p, r in form.rule_order
    ]
    return _value_checks(form) + first + rest


def _mpi_arg(arg: str, form: Form, non_null_buffers: bool = False, pending: bool = False) -> str:
    if arg in RECEIVER_ARGS:
        return f"ctx.{arg}"
    if arg == REQUEST_ARG:
        return REQUEST_ARG
    if arg.startswith("MPI_") or arg.isdigit():
        return arg
    owner, _, field = arg.partition(".")
    if field and form.param(owner).param.to_mpi != "fields":
        # A field the owner's converter gives (new_win.base: nampi::detail::to_mpi_new_win_base).
        return f"nampi::detail::to_mpi_{form.param(owner).param.to_mpi}_{field}({owner})"
    if field:
        # A field of the slot's object (message.handle, message.status), passed by address.
        return f"&{owner}.get().{field}"
    to_mpi = form.param(arg).param.to_mpi
    if to_mpi == "lasting_pointer" and form.written(arg):
        # The same parameter where MPI writes it (get's origin_buf): writable as well.
        return f"nampi::detail::to_mpi_writable_pointer({arg})"
    if to_mpi == "element_bytes":
        return f"nampi::detail::to_mpi_element_bytes<{form.element}>({arg})"
    if to_mpi == "op":
        # The handle is a temporary: a user op lives until the MPI call returns.
        return f"nampi::detail::to_mpi_op<{form.element}>({arg}).get()"
    if to_mpi == "new_comm" and pending:
        # A nonblocking call's new communicator exists once it completes (idup): adopted then,
        # with nampi's own context started beside it on the communicator the call runs on.
        return f"nampi::detail::to_mpi_pending_new_comm({arg}, ctx.comm)"
    if to_mpi == "pointer" and non_null_buffers:
        return f"nampi::detail::to_mpi_non_null_pointer({arg})"
    if to_mpi == "value" and form.written(arg):
        # A scalar MPI writes (cart_rank's rank): its slot's address.
        return f"nampi::detail::to_mpi_pointer({arg})"
    return f"nampi::detail::to_mpi_{to_mpi}({arg})"


def _root(form: Form, root_only: bool) -> str | None:
    """The root parameter, for what MPI uses at the root only (None: used everywhere)."""
    if not root_only:
        return None
    return next((a for a in form.mpi_args if form.param(a) and form.param(a).param.role == "root"), None)


def _peers(binding: Binding, form: Form, arg: str) -> str:
    """How many peers an array or a buffer's blocks describe: the communicator's ranks, or the
    in- or out-neighbours the call asked its topology for (`neighbors`, neighbor_query)."""
    if binding.peers == "ranks":
        return "static_cast<std::size_t>(ctx.size)"
    return "static_cast<std::size_t>(neighbors.in)" if receives(form, arg) else "static_cast<std::size_t>(neighbors.out)"


def _peer_word(binding: Binding, form: Form, arg: str) -> str:
    """Who a per-peer entry is for, in messages: a rank, an in- or an out-neighbour."""
    if binding.peers == "ranks":
        return "rank"
    return "in-neighbour" if receives(form, arg) else "out-neighbour"


def _whole_peers(binding: Binding, form: Form, buffer: str, count: str) -> list[str]:
    """How many times count elements lie in the buffer, where not once: per rank (alltoall's,
    scatter's), per in- or out-neighbour (neighbor_alltoall's), or once where there is any
    out-neighbour (neighbor_allgather's send buffer: the same block to every one; with none MPI
    reads nothing)."""
    if binding.peers == "ranks":
        return ["ctx.size"] if per_rank(form, buffer, count) else []
    if receives(form, buffer):
        return ["neighbors.in"]
    return ["neighbors.out" if per_rank(form, buffer, count) else "std::min(neighbors.out, 1)"]


def _fit_checks(binding: Binding, form: Form) -> list[tuple[set[str], dict]]:
    """Before the MPI call: the count elements of the datatype lie inside each buffer
    (nampi::detail::check_fits, buffer_checks.hpp), and each peer's block of a buffer read or
    written in blocks (check_blocks_fit, check_typed_blocks_fit): where nampi computed a size
    always, a size the caller gave unless NAMPI_TRUST_GIVEN_SIZES; each with the parameters it
    reads. A neighbourhood call counts its peers with the neighbour counts it asked first."""
    whole = [
        ({b, c, t}, {"kind": "fit_check", "call": binding.name, "root": _root(form, root_only),
                     "args": [b, c, t] + _whole_peers(binding, form, b, c)})
        for b, c, t, root_only in typed_buffers(form)
        if c and t
    ]
    untyped = [  # counted in the buffer's own elements (a window's size)
        ({b, c}, {"kind": "fit_check", "call": binding.name, "root": _root(form, root_only), "args": [b, c]})
        for b, c, t, root_only in typed_buffers(form)
        if c and not t
    ]
    partitioned = [
        ({b, n, c, t}, {"kind": "fit_check", "call": binding.name, "root": None, "args": [b, c, t, f"{n}.get()"]})
        for b, n, c, t in partitioned_buffers(form)
    ]
    single = [  # MPI takes one element (fetch_and_op): the buffer must hold one
        ({b}, {"kind": "fit_check", "call": binding.name, "root": None, "args": [b]}) for b in one_element_buffers(form)
    ]
    blocks = [  # one block per peer (alltoallv's, scatterv's send buffer): each inside it
        ({b, c, d, t}, {"kind": "blocks_check", "call": binding.name, "root": _root(form, root_only),
                        "args": [b, c, d, t, _peers(binding, form, b), f'"{_peer_word(binding, form, b)}"']})
        for b, c, d, t, root_only in blocked_buffers(form)
    ]
    typed_blocks = [  # one block and datatype per peer (alltoallw's buffers)
        ({b, c, d, t}, {"kind": "typed_blocks_check", "call": binding.name, "root": None,
                        "args": [b, c, d, t, _peers(binding, form, b), f'"{_peer_word(binding, form, b)}"']})
        for b, c, d, t in typed_blocked_buffers(form)
    ]
    return whole + untyped + single + partitioned + blocks + typed_blocks


def _checked_rules(binding: Binding, form: Form) -> list[dict]:
    """The rule calls, each fit check right after the last rule that computes what it reads: a
    check of local values then runs before the rules that communicate, so that one rank's
    usage error does not leave the others waiting inside a collective."""
    rules = _rules(binding, form)
    offset = len(rules) - len(form.rule_order)  # serialized_defaults without a default run first
    checks_at: dict[int, list[dict]] = {}
    for reads, check in _fit_checks(binding, form):
        at = max((offset + i + 1 for i, (p, _) in enumerate(form.rule_order) if p.name in reads), default=0)
        checks_at.setdefault(at, []).append(check)
    out = []
    for i in range(len(rules) + 1):
        out += checks_at.get(i, [])
        out += rules[i : i + 1]
    return out


def _statements(binding: Binding, form: Form) -> list[dict]:
    """What runs before the MPI call: a neighbourhood call first asks its topology for its
    neighbour counts (once: the rules that need them find them in the call's context), then the
    length checks of the arrays, then the rules with the fit checks among them."""
    query = [{"kind": "neighbor_query"}] if binding.peers == "neighbors" else []
    return query + _length_checks(binding, form) + _checked_rules(binding, form)


def _length_checks(binding: Binding, form: Form) -> list[dict]:
    """Arrays the caller gives with one entry per peer (rank, or in- or out-neighbour) hold that
    many (and are read no further), checked in every build before any MPI call."""
    return [
        {"kind": "length_check", "call": binding.name, "array": arg, "root": _root(form, m.root_only),
         "peers": _peers(binding, form, arg), "peer": _peer_word(binding, form, arg)}
        for arg, m in zip(form.mpi_args, form.mpi_params)
        if form.param(arg) and per_peer(m)
    ]


def _invocation(function: str, args: list[str]) -> dict:
    return {"function": function, "args": args}


# The twin's C types of counts and displacements arrays, as the element type large_count.hpp converts to.
LARGE_ARRAYS = {"const MPI_Count []": "MPI_Count", "const MPI_Aint []": "MPI_Aint"}


def _in_chunks(binding: Binding, form: Form, args: list[str], i: int) -> dict:
    """The large-count fallback of an element-wise reduction: the int function on chunks of
    the buffers (nampi::detail::in_chunks), each buffer advanced to the chunk."""
    chunked = list(args)
    chunked[i] = "nampi_chunk"
    for k, arg in enumerate(form.mpi_args):
        p = form.param(arg)
        if p is not None and p.param.to_mpi == "pointer":
            chunked[k] = f"nampi::detail::advanced({args[k]}, nampi_offset)"
    return {"kind": "chunks", "count": form.mpi_args[i], "datatype": args[i + 1], "call": _invocation(binding.mpi, chunked)}


# The slot that owns an emulated nonblocking or persistent call's blocks (large_count_alltoallw.hpp).
EMULATION_SLOT = "nampi_emulation"


def _reduce_local(binding: Binding, form: Form, args: list[str], i: int) -> dict:
    """The large-count fallback of a reduction one call must carry: its count as one element of
    a derived datatype, its op wrapped in one that reduces that element in pieces
    (large_count_reduction.hpp); a nonblocking or persistent call's result keeps both."""
    op = next(k for k, a in enumerate(form.mpi_args) if form.param(a) and form.param(a).param.to_mpi == "op")
    reduced = list(args)
    reduced[i], reduced[i + 1], reduced[op] = "nampi_reduction.count()", "nampi_reduction.type()", "nampi_reduction.op()"
    return {
        "kind": "reduce_local",
        "made": [f"nampi::detail::to_mpi_large_count({form.mpi_args[i]})", args[i + 1], args[op]],
        "held_by": EMULATION_SLOT if binding.returns_before_completion else None,
        "call": _invocation(binding.mpi, reduced),
    }


def _alltoallw_emulation(binding: Binding, form: Form, large: list[str]) -> dict:
    """The twin's emulation with one MPI_Alltoallw (large_count_alltoallw.hpp): the blocks built
    from the twin's arguments up to the communicator, issued blocking, nonblocking (kept in the
    result's emulation slot) or persistent (with the info argument)."""
    at = form.mpi_args.index("comm")
    extra = [EMULATION_SLOT, *large[at + 1 :]] if binding.returns_before_completion else []
    return {"kind": "alltoallw", "base": binding.base, "block_args": large[:at], "extra": extra}


def _without_const(arg: str, mpi_param, form: Form) -> str:
    """An argument some implementation's mpi.h declares without the standard's const (SMPI's
    MPI_Compare_and_swap: compare_addr): MPI only reads it, so the call casts const away."""
    if mpi_param.name not in form.mpi_nonconst or not mpi_param.c_type.startswith("const "):
        return arg
    return f"nampi::detail::without_const({arg})"


def _mpi_call(binding: Binding, form: Form) -> dict:
    """The MPI call of a form (templates/call_body.j2 `mpi_call`). A binding whose function has
    a large-count twin checks its scalar counts (large_count.hpp): the int function if all fit
    an int, else the twin where the MPI has it (int arrays converted to its types), else the int
    function with each count as one element of a derived datatype. Reductions (builtin ops
    need builtin types) follow `large_count_fallback`: the blocking `chunks` run in chunks, the
    others reduce one derived element with a wrapper op (`reduce_local`); a reduction without
    the key and a large count beside int counts arrays have no emulation: a usage_error.
    Counts or displacements arrays the caller gives as MPI_Count / MPI_Aint take the twin
    (decided at compile time); if the MPI lacks it, a binding marked `large_count_fallback:
    alltoallw` emulates it, and any other call is a compile error."""
    args = [_mpi_arg(a, form, binding.non_null_buffers, binding.returns_before_completion) for a in form.mpi_args]
    args = [_without_const(arg, m, form) for arg, m in zip(args, form.mpi_params)] if form.mpi_params else args
    types = binding.large_types
    given = [i for i, t in enumerate(types) if form.param(form.mpi_args[i])]
    scalars = [i for i in given if types[i] == "MPI_Count"]
    arrays = [i for i in given if types[i] in LARGE_ARRAYS]
    plain = _invocation(binding.mpi, args)
    if not scalars and not arrays:
        return {"plain": plain, "scalars": [], "arrays": []}
    small, large, emulated = list(args), list(args), list(args)
    for i in arrays:
        large[i] = f"nampi::detail::to_mpi_large_array<{LARGE_ARRAYS[types[i]]}>({form.mpi_args[i]}).data()"
    as_types = []
    for i in scalars:
        count = form.mpi_args[i]
        small[i] = f"nampi::detail::to_mpi_count({count})"
        large[i] = f"nampi::detail::to_mpi_large_count({count})"
        t = i + 1  # MPI's convention: a count, then its datatype
        as_types.append({"count": count, "datatype": args[t]})
        emulated[i], emulated[t] = f"{count}_as_type.count()", f"{count}_as_type.type()"
    fallback = {"kind": "as_types", "counts": as_types, "call": _invocation(binding.mpi, emulated)}
    if binding.large_count_chunks and len(scalars) == 1 and not arrays:
        fallback = _in_chunks(binding, form, args, scalars[0])
    elif binding.large_count_reduce_local and len(scalars) == 1 and not arrays:
        fallback = _reduce_local(binding, form, args, scalars[0])
    elif arrays or any(p.param.to_mpi == "op" for p in form.params):
        # Not the emulation of large_count_alltoallw even where the binding has one: a count
        # is large on some ranks only, and every rank must run the same collective.
        how = "an emulation that needs every rank to pass its counts and displacements as MPI_Count and MPI_Aint"
        fallback = {
            "kind": "unsupported",
            "args": [binding.name, binding.large_twin, " or ".join(form.mpi_args[i] for i in scalars)]
            + ([how] if binding.large_count_alltoallw else []),
        }
    without_twin = None
    if arrays:
        without_twin = (
            _alltoallw_emulation(binding, form, large)
            if binding.large_count_alltoallw
            else {
                "kind": "needs_twin",
                "message": f"nampi: {binding.name}: counts or displacements given as MPI_Count or MPI_Aint "
                f"need {binding.large_twin}, which the installed MPI does not provide",
            }
        )
    return {
        "plain": _invocation(binding.mpi, small),
        "twin": _invocation(binding.large_twin, large),
        "twin_macro": have_macro(binding.large_twin),
        "scalars": [form.mpi_args[i] for i in scalars],
        "arrays": [form.mpi_args[i] for i in arrays],
        "without_twin": without_twin,
        "fallback": fallback,
    }


def body(binding: Binding, form: Form) -> dict:
    primary = form.primary.name if form.primary else None
    others = [p.name for p in form.params if p.name != primary]
    return {
        "slots": [
            _slot(p, binding.returns_before_completion, p.name in binding.serialized_per_rank, form.primary is not None and form.primary.one_value)
            for p in form.params
        ],
        "statements": _statements(binding, form),
        "mpi_call": _mpi_call(binding, form),
        "result": [primary or "nampi::detail::no_primary"] + others,
        "start": _start_nonblocking(binding, form, primary, others) if binding.returns_before_completion else None,
    }


STARTERS = {"nonblocking": "start_nonblocking", "persistent": "init_persistent", "partitioned": "init_partitioned"}


def _starter_targs(binding: Binding) -> list[str]:
    """Template arguments of the starter before the argument list: a partitioned call's side
    decides which partition operations its result has (partitioned.hpp)."""
    if binding.variant == "partitioned":
        return [f"nampi::partition_side::{binding.partition_side}"]
    return []


def _request_targ(binding: Binding) -> list[str]:
    """A nonblocking call's request type comes from its communicator's call context (an
    MPI_Request, or a range communicator's range_request); persistent and partitioned calls
    run on MPI communicators only."""
    return ["nampi::detail::request_of<decltype(ctx)>"] if binding.variant == "nonblocking" else []


def _start_nonblocking(binding: Binding, form: Form, primary: str | None, others: list[str]) -> dict:
    """Moves the slots into the result (nonblocking.hpp, persistent.hpp), which runs the MPI call
    on them there; the status slot, which the MPI call does not take, is filled by MPI_Wait or MPI_Test."""
    names = [primary] + others
    used = {a.partition(".")[0] for a in form.mpi_args}
    emulation = []
    if binding.emulation_state and binding.large_twin:  # a slot more: what the emulated twin keeps
        emulation = [f"nampi::detail::emulation_slot<!provided::have_{binding.large_twin}, {binding.emulation_state}>{{}}"]
    status = next((i for i, n in enumerate(names) if n and form.param(n).param.to_mpi == "status"), None)
    status_index = "nampi::detail::no_status" if status is None else str(status)
    return {
        "starter": STARTERS[binding.variant],
        "name": binding.name,
        "targs": _starter_targs(binding) + ["nampi::detail::type_list<std::remove_cvref_t<Args>...>", status_index] + _request_targ(binding),
        "lambda_params": [f"auto& {n}" if n in used else "auto&" for n in names]
        + [f"[[maybe_unused]] auto& {EMULATION_SLOT}"] * len(emulation),
        "request": REQUEST_ARG,
        "moved": [f"std::move({n})" if n else "nampi::detail::no_primary" for n in names] + emulation,
    }


def out_of_line(form: Form) -> str | None:
    """C++ condition (over Args) under which the call body is compiled out of line (None: never).

    A call that communicates or allocates for what it computes costs far more than a function
    call; running it out of line keeps it from taking registers in the caller's loops (a
    9-argument MPI call inlined into a loop forces a frame pointer and spills there). A call
    with everything given stays inline and compiles to the bare MPI call.
    """
    conditions = []
    for p in form.params:
        pid = param_id(p.name)
        if p.resize and p.resize.rule.mpi_calls:
            return "true"
        if p.default and p.default.rule.mpi_calls:  # (creating it implies computing it)
            conditions.append(f"nampi::detail::computes<{pid}, std::remove_cvref_t<Args>...>")
        elif p.allocates:
            conditions.append(f"nampi::detail::creates<{pid}, std::remove_cvref_t<Args>...>()")
    return " || ".join(conditions) or None


def binding_view(binding: Binding) -> dict:
    forms = []
    for form in binding.forms:
        forms.append(
            {
                "kind": form.kind,
                "check_struct": check_struct_name(binding, form),
                **tag_view(binding, form),
                "impl": f"{binding.name}_{form.kind}",
                "out_of_line": out_of_line(form),
                "checks": checks(binding, form),
                "body": body(binding, form),
            }
        )
    template_head = (
        "template <typename T = nampi::detail::unspecified_element, typename... Args>"
        if binding.regular.element_template
        else "template <typename... Args>"
    )
    element_t = binding.regular.element_template
    return {
        "name": binding.name,
        "member": binding.member,
        "have_macro": have_macro(binding.mpi),
        "impl_template_head": "template <typename T, typename... Args>" if element_t else "template <typename... Args>",
        "impl_targs": "<T>" if element_t else "",
        "mpi": binding.mpi,
        "source": binding.source,
        "doc": binding.doc,
        "template_head": template_head,
        "in_place_trigger": param_id(binding.in_place_trigger) if binding.in_place else None,
        "serialized_via": binding.serialized_via,
        "collective": binding.collective,
        "forms": forms,
        "params": [
            {"name": p.name, "doc": p.param.doc, "how": describe_param(p)} for p in binding.regular.params
        ],
    }


def describe_param(p: FormParam) -> str:
    parts = []
    if p.required:
        parts.append("required")
    if p.required_at_root:
        parts.append("required at the root")
    if p.default:
        parts.append(f"default: {p.default.text}")
    if p.serialized_default:
        parts.append(f"with a serialized buffer: {p.serialized_default.text}")
    if p.returned_if_omitted:
        parts.append("created and returned if omitted")
    if p.resize:
        parts.append(f"sized by {p.resize.text}")
    return "; ".join(parts) or "optional"


