"""The generated misuse tests: for every binding that writes into a caller's buffer, cases that
give that buffer one element too few, a per-rank array one entry short, a given count or
displacements one element past the send buffer, and an asked-back array longer than needed (built as a release with AddressSanitizer: an unchecked size would overflow),
and, where one datatype serves two buffers, a compile-fail case with differing element types.

Each case starts from the binding's test fixture (spec/bindings/: setup, args, expect, peer) and
runs on a duplicate of its communicator, which absorbs the messages a rank that throws leaves
unmatched. A case whose check can only run at the root, while the other ranks would wait for it,
runs on one rank only."""

from __future__ import annotations

from .buffers import blocked_buffers, per_peer, per_rank, typed_buffers
from .checks import element_checks
from .spelling import factory_call, form_label, have_macro
from .model import Binding, Form

# The element type a compile-fail case gives the second buffer: no fixture uses it.
OTHER_ELEMENT = "nampi_misuse::other_element"


def _fixture(binding: Binding, form: Form) -> dict:
    return form.test if form.test is not None else binding.regular.test


def _comm_decl(test: dict) -> str:
    """The fixture's communicator, duplicated (a topology fixture makes a new one anyway)."""
    if "comm" in test:
        return f"auto comm = {test['comm']};"
    return "auto comm = nampi_misuse::duplicate_world();"


def _peer(test: dict) -> str:
    """The fixture's peer code (plain MPI on MPI_COMM_WORLD), on the case's communicator."""
    return test.get("peer", "").replace("MPI_COMM_WORLD", "comm.mpi_communicator()")


def _required_args(form: Form, test: dict, skip: set[str]) -> list[str]:
    """The fixture's required arguments (given by their factories), but those in `skip`."""
    out = []
    for p in form.params:
        if p.name in skip or not (p.required or p.required_at_root):
            continue
        factories = p.param.factories
        factory = factories.get("in") or factories.get("inout") or factories["out"]
        out.append(f"{factory_call(factory)}({test['args'][p.name]})")
    return out


def _call(binding: Binding, args: list[str], test: dict) -> str:
    """An expression that issues the call and, for a nonblocking or persistent one, completes it."""
    call = binding.call_expression(test, args)
    if binding.variant == "nonblocking":
        return f"{call}.wait()"
    if binding.variant == "persistent":
        return f"[&] {{ auto persistent = {call}; persistent.start(); return persistent.wait(); }}()"
    return call


def _base(binding: Binding, form: Form, kind: str) -> dict:
    test = _fixture(binding, form)
    return {
        "name": f"{form_label(binding, form)}: {kind}",
        "comm_decl": _comm_decl(test),
        "min_ranks": test.get("min_ranks", 1),
        "setup": test.get("setup", ""),
        "active": test.get("active", "true"),
        "peer": _peer(test),
        "expect": test.get("expect"),
        "one_rank": False,
        "cleanup": test.get("cleanup", ""),
    }


def too_small_buffer(binding: Binding, form: Form) -> dict | None:
    """The receive buffer (created if omitted, sized by a resize rule) given with one element
    fewer than the call delivers and no_resize: a usage_error wherever it receives something."""
    test = _fixture(binding, form)
    p = form.primary
    if p is None or p.resize is None or not p.returned_if_omitted or "out" not in p.param.factories:
        return None
    if not p.allocates:
        return None  # one value (a _single call): there is no element fewer to give
    if not test.get("expect") or binding.variant == "partitioned":
        return None
    sized_by = [form.param(a) for a in p.resize.param_args()]
    if sized_by and all(q is not None and q.required for q in sized_by):
        # Sized only by what the caller must give (a file read's recv_count): the caller's value,
        # whose check these release builds drop (NDEBUG; README "Memory safety").
        return None
    case = _base(binding, form, f"'{p.name}' one element too few")
    args = _required_args(form, test, {p.name})
    small = f"{p.param.factories['out']}<nampi::no_resize>(small)"
    # A buffer only the root receives into is refused there only, while the other ranks' part
    # of the call may wait for the root (Open MPI's ireduce on 3 ranks does): on one rank.
    root_only = any(r for b, _, _, r in typed_buffers(form) if b == p.name)
    case.update(
        {
            "kind": "too_small",
            "misuse": _call(binding, args + [small], test),
            "message": f"'{p.name}' holds",
            "one_rank": root_only,
        }
    )
    return case


def short_arrays(binding: Binding, form: Form) -> list[dict]:
    """Each per-rank (or per-neighbour) array the fixture gives, one entry short: a usage_error before any MPI
    call. An array MPI reads at the root only is checked there only, while the others may wait
    for the root: such a case runs on one rank."""
    if binding.variant == "partitioned" or binding.serialized_per_rank:
        return []
    test = _fixture(binding, form)
    out = []
    for arg, m in zip(form.mpi_args, form.mpi_params):
        p = form.param(arg)
        if p is None or not per_peer(m) or "in" not in p.param.factories:
            continue
        source = test.get("args", {}) if (p.required or p.required_at_root) else test.get("given") or {}
        if arg not in source:
            continue
        case = _base(binding, form, f"'{arg}' one entry short")
        args = _required_args(form, test, {arg}) + [f"{factory_call(p.param.factories['in'])}(nampi_misuse::one_short({source[arg]}))"]
        case.update(
            {
                "kind": "short_array",
                "misuse": _call(binding, args, test),
                "message": f"{binding.name}: '{arg}' holds",
                "one_rank": m.root_only,
            }
        )
        out.append(case)
    return out


def _everyone_calls(test: dict) -> bool:
    """Every rank of the fixture makes the call (no peer code in plain MPI that a rank which
    throws would leave waiting)."""
    return test.get("active", "true") == "true" and not test.get("peer")


def given_one_past(binding: Binding, form: Form) -> list[dict]:
    """Sizes the caller gives that reach one element past the send buffer the fixture gives: a
    count (counts x ranks for a per-rank count), or, for a buffer read in blocks (alltoallv,
    scatterv), the displacements with one rank's block moved one element past the end. Each
    is a usage_error before any MPI call, in every build (unless NAMPI_TRUST_GIVEN_SIZES).
    Only fixtures where every rank calls (so every rank throws); a root-only value runs on one
    rank. A neighbourhood call's count per neighbour is left out (the fixture's neighbour counts
    are not known here); its single counts and blocks are in."""
    if binding.variant == "partitioned" or binding.serialized_per_rank:
        return []
    test = _fixture(binding, form)
    if not _everyone_calls(test):
        return []
    args = test.get("args", {})
    read_only = {a for a, m in zip(form.mpi_args, form.mpi_params) if m.c_type.startswith("const")}
    out = []
    for b, c, t, root_only in typed_buffers(form):
        pb, pc = form.param(b), form.param(c) if c else None
        if pc is None or pb is None or not pb.required or b not in args or "in" not in pc.param.factories:
            continue
        if b not in read_only:
            continue  # a buffer some ranks receive into (bcast's) is sized, not checked, there
        if binding.peers != "ranks" and per_rank(form, b, c):
            continue
        value = f"nampi_misuse::one_past({args[b]}, {'size' if per_rank(form, b, c) else '1'})"
        case = _base(binding, form, f"'{c}' given one element past '{b}'")
        call_args = _required_args(form, test, {c}) + [f"{factory_call(pc.param.factories['in'])}({value})"]
        case.update({"kind": "one_past", "misuse": _call(binding, call_args, test),
                     "message": f"but '{b}' holds", "one_rank": root_only})
        out.append(case)
    for b, c, d, t, root_only in blocked_buffers(form):
        pd = form.param(d)
        if b not in args or c not in args or pd is None or "in" not in pd.param.factories:
            continue
        value = f"nampi_misuse::displs_one_past({args[c]}, {args[b]})"
        case = _base(binding, form, f"'{d}' given one element past '{b}'")
        call_args = _required_args(form, test, {d}) + [f"{factory_call(pd.param.factories['in'])}({value})"]
        case.update({"kind": "one_past", "misuse": _call(binding, call_args, test),
                     "message": f"in '{b}'", "one_rank": root_only})
        out.append(case)
    return out


def given_recv_one_past(binding: Binding, form: Form) -> list[dict]:
    """A receive count the caller gives that reaches past the receive buffer the caller gives
    (no_resize, as large as the fixture's result): one element more than fits (per rank for a
    per-rank count), a usage_error before any MPI call on every rank. Only fixtures where every
    rank calls and receives (not a root-only buffer), and counts of the receive buffer alone (a
    count both buffers share, allreduce's, is one_past's case of the send buffer)."""
    if binding.peers != "ranks" or binding.variant == "partitioned" or binding.serialized_per_rank:
        return []
    test = _fixture(binding, form)
    p = form.primary
    if not _everyone_calls(test) or not test.get("expect") or p is None or "out" not in p.param.factories:
        return []
    if not p.allocates or p.resize is None:
        return []
    out = []
    buffers = typed_buffers(form)
    for b, c, t, root_only in buffers:
        pc = form.param(c) if c else None
        if b != p.name or root_only or pc is None or pc.required or "in" not in pc.param.factories:
            continue
        if sum(1 for _, other, _, _ in buffers if other == c) > 1:
            continue
        value = f"nampi_misuse::one_past(exact, {'size' if per_rank(form, b, c) else '1'})"
        case = _base(binding, form, f"'{c}' given one element past '{b}'")
        call_args = _required_args(form, test, {c, b}) + [
            f"{p.param.factories['out']}<nampi::no_resize>(exact)",
            f"{factory_call(pc.param.factories['in'])}({value})",
        ]
        case.update({"kind": "recv_one_past", "misuse": _call(binding, call_args, test), "message": f"'{b}' holds"})
        out.append(case)
    return out


def long_asked_back(binding: Binding, form: Form) -> list[dict]:
    """Each per-rank array the call computes, asked back into a container longer than needed
    (no_resize): the call reads and writes only the entries it needs, the rest stays untouched."""
    if binding.variant == "partitioned":
        return []
    test = _fixture(binding, form)
    out = []
    for arg, m in zip(form.mpi_args, form.mpi_params):
        p = form.param(arg)
        if p is None or not per_peer(m) or "out" not in p.param.factories or p not in form.inferable:
            continue
        if not p.param.storage or not test.get("expect"):
            continue
        case = _base(binding, form, f"'{arg}' asked back into a longer container")
        args = _required_args(form, test, set()) + [f"{p.param.factories['out']}<nampi::no_resize>(longer)"]
        case.update(
            {
                "kind": "long_out",
                "storage": p.param.storage,
                "misuse": _call(binding, args, test),
                "extract": "result.extract_" + form.primary.name + "()" if form.primary else None,
            }
        )
        out.append(case)
    return out


def element_type_cases(binding: Binding, form: Form) -> list[dict]:
    """Compile-fail cases: a second buffer of another element type where one datatype serves
    both (the first message of the form's element checks that concerns a shared datatype)."""
    test = _fixture(binding, form)
    label = form_label(binding, form)
    shared = [c for c in element_checks(form, label) if "serves both" in c["msg"]]
    out = []
    for b, _, t, _ in typed_buffers(form):
        p = form.param(b)
        if p is None or p.required or "out" not in p.param.factories:
            continue
        msg = next((c["msg"] for c in shared if f"'{b}' holds another" in c["msg"]), None)
        if msg is None:
            continue
        args = _required_args(form, test, {b}) + [f"{p.param.factories['out']}(other)"]
        out.append(
            {
                "file": f"{binding.name}{'_in_place' if form.kind == 'in_place' else ''}_{b}_other_element",
                "message": msg,
                "setup": test.get("setup", ""),
                "comm_decl": _comm_decl(test).replace("nampi_misuse::duplicate_world()", "nampi::Communicator()"),
                "call": binding.call_expression(test, args),
                "source": binding.source,
                "binding": binding.name,
            }
        )
    return out


def misuse_view(bindings: list[Binding]) -> dict:
    """The runtime misuse cases of one group's bindings (one test program)."""
    out = []
    for binding in bindings:
        cases = []
        for form in binding.forms:
            cases += [c for c in [too_small_buffer(binding, form)] if c]
            cases += short_arrays(binding, form)
            cases += long_asked_back(binding, form)
            cases += given_one_past(binding, form)
            cases += given_recv_one_past(binding, form)
        if cases:
            out.append({"name": binding.name, "have_macro": have_macro(binding.mpi), "mpi": binding.mpi, "cases": cases})
    return {"bindings": out}


def counts(bindings: list[Binding]) -> dict[str, int]:
    """How many cases of each kind the bindings get (the generated docs report them)."""
    kinds = {"too_small": 0, "short_array": 0, "one_past": 0, "recv_one_past": 0, "long_out": 0, "element_types": 0}
    for b in misuse_view(bindings)["bindings"]:
        for c in b["cases"]:
            kinds[c["kind"]] += 1
    for binding in bindings:
        for form in binding.forms:
            kinds["element_types"] += len(element_type_cases(binding, form))
    return kinds
