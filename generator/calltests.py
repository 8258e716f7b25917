"""The generated call-count tests: for every binding form and every subset of
its inferable parameters that the caller gives, one doctest case asserting the
exact multiset of MPI calls (from rules.yaml) and the received data.

Compiled by default is a core of those cases that grows linearly with the
parameters (see core_givens); the rest only with NAMPI_TEST_EVERY_COMBINATION."""

from __future__ import annotations

import re

from .cpp import describe_param
from .spelling import factory_call, have_macro
from .errors import SpecError
from .model import Binding, Form, FormParam, subsets


# The `topology` of a test fixture, as the reference pages name it.
TOPOLOGY_NAMES = {"cart": "cartesian", "graph": "graph", "dist_graph": "distributed graph"}


def _factory_for_given(p: FormParam, form: Form) -> tuple[str, str]:
    """The role and factory a test uses to give parameter p (an output where MPI writes it)."""
    factories = p.param.factories
    for role in (("out",) if form.written(p.name) and "out" in factories else ("in", "inout", "out")):
        if role in factories:
            return role, factories[role]
    raise AssertionError(p.name)


def _arg(p: FormParam, form: Form, test: dict, binding: Binding) -> tuple[str, str, list[str]]:
    """(role, C++ argument, declarations) for giving p in a test."""
    role, factory = _factory_for_given(p, form)
    always = p.required or p.required_at_root
    if role == "in" or (always and p.name in test.get("args", {})):
        source = test.get("args", {}) if always else test.get("given", {})
        if p.name not in source:
            key = "args" if always else "given"
            raise SpecError(form.where, f"{binding.name}: test.{key} lacks an expression for '{p.name}'")
        return role, f"{factory_call(factory)}({source[p.name]})", []
    if p.returned_if_omitted and len(returned_params(form)) > 1:
        return role, f"{factory}<nampi::resize_to_fit>({p.name}_result)", []
    if form.primary is not None and p.name == form.primary.name:
        return role, f"{factory}<nampi::resize_to_fit>(result)", []
    storage = f"{p.name}_storage"
    return role, f"{factory}<nampi::resize_to_fit>({storage})", [f"{p.storage} {storage}{{}};"]


def returned_params(form: Form) -> list[FormParam]:
    """The parameters a call returns when omitted. With several (cart_shift's rank_source and
    rank_dest), a test holds each in `<name>_result`, given (`*_out(<name>_result)`) or taken
    from the result object, and its check reads those."""
    return [p for p in form.params if p.returned_if_omitted]


def _several_statement(binding: Binding, form: Form, call: str, given: tuple) -> str:
    """The statement of a test of a call with several returned values: the omitted ones come
    back in the result (one: the value itself), the given ones were written in place."""
    if binding.variant != "blocking":
        raise SpecError(form.where, f"{binding.name}: several returned parameters are tested for blocking calls only")
    omitted = [p.name for p in returned_params(form) if p.name not in given]
    if not omitted:
        return f"{call};"
    if len(omitted) == 1:
        return f"{omitted[0]}_result = {call};"
    moved = " ".join(f"{n}_result = returned.extract_{n}();" for n in omitted)
    return f"{{ auto returned = {call}; {moved} }}"


# What a test does between start() and wait() of a partitioned call: a send marks every
# partition ready with one MPI_Pready_range (else wait() would never return); a receive
# just waits.
def _partitions_ready(binding: Binding, test: dict) -> tuple[str, list[str]]:
    """(C++ statement, MPI calls) run between start() and wait()."""
    if binding.variant != "partitioned" or binding.partition_side != "send":
        return "", []
    partitions = test.get("args", {}).get("partitions")
    if partitions is None:
        raise SpecError(binding.where, f"{binding.name}: test.args lacks an expression for 'partitions'")
    return f"persistent.pready_range(0, ({partitions}) - 1); ", ["MPI_Pready_range"]


def _completed(binding: Binding, calls: dict[str, int], test: dict, released: bool = True) -> dict[str, int]:
    """The calls of a test: it completes a nonblocking call with wait() (one MPI_Wait), and
    starts a persistent or partitioned one once, (marks its partitions ready,) waits, and (if
    `released`) destroys it (MPI_Request_free)."""
    persistent = binding.variant in ("persistent", "partitioned")
    extra = {"blocking": [], "nonblocking": ["MPI_Wait"]}.get(binding.variant, ["MPI_Start", "MPI_Wait"])
    extra = extra + _partitions_ready(binding, test)[1]
    if persistent and released:
        extra.append("MPI_Request_free")
    out = dict(calls)
    for fn in extra:
        out[fn] = out.get(fn, 0) + 1
    return dict(sorted(out.items()))


def _statement(binding: Binding, call: str, prefix: str, test: dict) -> str:
    """The C++ statement of a test that issues `call` and completes it."""
    if binding.variant == "nonblocking":
        return f"{prefix}{call}.wait();"
    if binding.variant in ("persistent", "partitioned"):
        ready = _partitions_ready(binding, test)[0]
        return f"{{ auto persistent = {call}; persistent.start(); {ready}{prefix}persistent.wait(); }}"
    return f"{prefix}{call};"


def _returned_statement(binding: Binding, call: str, test: dict) -> str:
    """`returned` = what the call gives back (a persistent call stays alive: `returned` views it)."""
    if binding.variant == "nonblocking":
        return f"auto returned = {call}.wait();"
    if binding.variant in ("persistent", "partitioned"):
        ready = _partitions_ready(binding, test)[0]
        return f"auto persistent = {call}; persistent.start(); {ready}auto returned = persistent.wait();"
    return f"auto returned = {call};"


def linked_pairs(form: Form) -> list[tuple[str, str]]:
    """Pairs of inferable parameters one of whose rules (default or resize) reads the other."""
    inferable = {p.name for p in form.inferable}
    pairs = set()
    for p in form.inferable:
        for rule in (p.default, p.resize):
            for dep in rule.param_args() if rule is not None else []:
                if dep in inferable and dep != p.name:
                    pairs.add(tuple(sorted((p.name, dep))))
    return sorted(pairs)


def core_givens(form: Form, givens: list[tuple]) -> set[tuple]:
    """Of the accepted subsets `givens` (smallest first), a few that together give and omit
    every parameter and show every pair of linked_pairs in all four given/omitted states:
    the first (all omitted) and the last (all given), then greedily the subset that meets
    the most goals still open. Unmeetable goals (the form's constraints) are skipped."""
    if not givens:
        return set()
    names = [p.name for p in form.inferable]
    goals = {((n, state),) for n in names for state in (True, False)}
    goals |= {((a, sa), (b, sb)) for a, b in linked_pairs(form) for sa in (True, False) for sb in (True, False)}

    def met(goal: tuple, given: tuple) -> bool:
        return all((name in given) == state for name, state in goal)

    chosen = [givens[0], givens[-1]]
    open_goals = {g for g in goals if not any(met(g, c) for c in chosen)}
    while open_goals:
        best = max(givens, key=lambda g: sum(met(goal, g) for goal in open_goals))
        meets = {goal for goal in open_goals if met(goal, best)}
        if not meets:
            break
        chosen.append(best)
        open_goals -= meets
    return set(chosen)


# cases() of a form, computed once per run (the test, the doc and the variants table read them).
_cases_of: dict[int, tuple[Form, list[dict]]] = {}


def cases(binding: Binding, form: Form) -> list[dict]:
    """Every accepted subset's case; `core` marks those compiled by default (core_givens)."""
    known = _cases_of.get(id(form))
    if known is not None and known[0] is form:
        return known[1]
    out = _cases(binding, form)
    _cases_of[id(form)] = (form, out)
    return out


def _cases(binding: Binding, form: Form) -> list[dict]:
    test = form.test if form.test is not None else binding.regular.test
    inferable = [p.name for p in form.inferable]
    out = []
    givens = [g for g in subsets(inferable) if form.accepts(set(g))]  # else a compile error
    core = core_givens(form, givens)
    for given in givens:
        args, decls, computed = [], [], set()
        primary_given = False
        returns = form.primary is not None and form.primary.returned_if_omitted
        for p in form.params:
            if p.required or p.required_at_root or p.name in given:
                role, arg, d = _arg(p, form, test, binding)
                args.append(arg)
                decls += d
                if role != "in":
                    computed.add(p.name)
                if form.primary is not None and p.name == form.primary.name:
                    primary_given = True
            else:
                computed.add(p.name)
        calls = _completed(binding, form.expected_calls(binding.mpi, computed, test.get("topology"), binding.variant == "blocking", binding.topology_calls), test)
        several = len(returned_params(form)) > 1
        if several:
            decls = [f"{p.storage} {p.name}_result{{}};" for p in returned_params(form)] + decls
            returns = primary_given = False
        prefix = "result = " if (returns and not primary_given) else ""
        call = binding.call_expression(test, args)
        omitted = [n for n in inferable if n not in given]
        name = f"{binding.name}{' in place' if form.kind == 'in_place' else ''}: given {{{', '.join(given)}}}, omitted {{{', '.join(omitted)}}}"
        out.append(
            {
                "name": name,
                "given": given,
                "core": given in core,
                # 0: the first and last combination (every build), 1: the rest of the core
                # (NAMPI_TEST_COMBINATIONS >= 1, the default), 2: the others (>= 2)
                "level": 0 if given == givens[0] else 1 if given == givens[-1] else 2 if given in core else 3,
                "args": ", ".join(args),
                "decls": decls,
                "calls": calls,
                # `result` exists where the call writes into it (the primary given as
                # `result`) or returns into it; a primary given as the test's own variable
                # (an in-place value) is checked by the test's own check.
                "declare_result": primary_given and any(a.endswith("(result)") for a in args),
                "assign_result": returns and not primary_given,
                "statement": _several_statement(binding, form, call, given) if several else _statement(binding, call, prefix, test),
            }
        )
    return out


def requested_back_case(binding: Binding, form: Form) -> dict | None:
    """One case that asks back (`*_out()`) every parameter the call can compute,
    and checks each against the value the fixture gives by hand."""
    test = form.test if form.test is not None else binding.regular.test
    primary = form.primary.name if form.primary else None
    outs = [p for p in form.inferable if "out" in p.param.factories and p.name != primary]
    if not outs:
        return None
    # Of two parameters computed from each other, one is given: the first one not asked back.
    given = set()
    if form.either:
        candidates = [n for n in form.either if n not in {p.name for p in outs}]
        if not candidates:
            raise SpecError(form.where, f"{binding.name}: either {list(form.either)}: both are asked back, none given")
        given.add(candidates[0])
    if not form.accepts(given, {p.name for p in outs}):
        raise SpecError(form.where, f"{binding.name}: the requested-back test case gives {sorted(given)}, which the form rejects")
    args, computed = [], set()
    for p in form.params:
        if p.required or p.required_at_root or p.name in given:
            role, arg, _ = _arg(p, form, test, binding)
            args.append(arg)
            if role != "in":
                computed.add(p.name)
        elif p in outs:
            args.append(f"{p.param.factories['out']}()")
            computed.add(p.name)
        else:
            computed.add(p.name)
    primary_returned = form.primary is not None and form.primary.returned_if_omitted
    count = len(outs) + (1 if primary_returned else 0)
    root = next((v for n, v in test.get("given", {}).items() if form.param(n) and form.param(n).param.role == "root"), "0")

    def access(name: str) -> str:
        return f"returned.extract_{name}()" if count > 1 else "returned"

    checks = []
    for p in outs:
        given = test.get("given", {}).get(p.name)
        if given is None:
            continue
        check = f"CHECK({access(p.name)} == ({given}));"
        checks.append(f"if (rank == {root}) {check}" if p.default.rule.root_only else check)
    return {
        "name": f"{binding.name}{' in place' if form.kind == 'in_place' else ''}: requested back {{{', '.join(p.name for p in outs)}}}",
        "args": ", ".join(args),
        "calls": _completed(binding, form.expected_calls(binding.mpi, computed, test.get("topology"), binding.variant == "blocking", binding.topology_calls), test, released=False),
        "statement": _returned_statement(binding, binding.call_expression(test, args), test),
        "value_checks": checks,
        # What the check reads: `result` (the primary), or each returned value in `<name>_result`.
        "results": [(f"{p.name}_result", access(p.name)) for p in returned_params(form)]
        if len(returned_params(form)) > 1
        else [("result", access(primary))] if primary_returned else [],
    }


# What a case the template's case_body reads has when its kind says nothing of it.
CASE_DEFAULTS = {"decls": [], "declare_result": False, "assign_result": False, "value_checks": [], "results": []}


def _range_cases(all_cases: list[dict], requested_back: dict | None) -> list[dict]:
    """The cases also run on range communicators: everything omitted (every rule runs, through
    the range's own calls), everything given, and the requested-back case."""
    return ([all_cases[0], all_cases[-1]] if len(all_cases) > 1 else all_cases) + ([requested_back] if requested_back else [])


def _with_defaults(case: dict | None) -> dict | None:
    return {**CASE_DEFAULTS, **case} if case else None


def test_view(binding: Binding, on_range: bool = False) -> dict:
    """on_range: the binding is a call of range communicators (spec/backends.yaml) and its
    fixture runs on the world: its first, last and requested-back cases run on ranges too."""
    forms = []
    for form in binding.forms:
        test = form.test if form.test is not None else binding.regular.test
        forms.append(
            {
                # The communicator the call runs on: MPI_COMM_WORLD, or the fixture's (e.g. one with a topology).
                "comm_decl": f"auto comm = {test['comm']};" if "comm" in test else "nampi::Communicator comm;",
                "min_ranks": test.get("min_ranks", 1),
                "setup": test.get("setup", ""),
                "active": test.get("active", "true"),
                "peer": test.get("peer", ""),
                "expect": test.get("expect"),
                "result_type": test.get("result_type", "std::remove_cvref_t<decltype(expected)>"),
                "template_args": test.get("template_args", ""),
                "check": test.get("check", "CHECK(result == expected);" if test.get("expect") else ""),
                "returns": form.primary is not None,
                "cases": [{**CASE_DEFAULTS, **c} for c in cases(binding, form)],
                "requested_back": _with_defaults(requested_back_case(binding, form)),
            }
        )
        forms[-1]["range_cases"] = _range_cases(forms[-1]["cases"], forms[-1]["requested_back"])
    return {
        "on_range": on_range and all("comm" not in (f.test or binding.regular.test or {}) for f in binding.forms),
        "name": binding.name,
        "source": binding.source,
        "forms": forms,
        "have_macro": have_macro(binding.mpi),
        "mpi": binding.mpi,
        # tests/CMakeLists.txt labels the test (make test-sanitize runs that label).
        "nonblocking": binding.returns_before_completion,
    }


def _calls_text(calls: dict[str, int]) -> str:
    return ", ".join(f"{n} × `{fn}`" for fn, n in calls.items()) or "none"


def _cost_rows(all_cases: list[dict], inferable: list[str], form: Form) -> list[dict]:
    """One row per parameter, not per subset: the MPI calls with everything given (the largest
    accepted subset), what omitting each parameter alone adds to them, and with everything
    omitted (the smallest). A parameter that cannot be omitted alone (either / all_or_none)
    says so."""
    if not all_cases:
        return []
    by_given = {frozenset(c["given"]): c["calls"] for c in all_cases}
    full, least = all_cases[-1], all_cases[0]
    base = full["calls"]
    rows = [{"case": "everything given" if len(full["given"]) == len(inferable) else
             "given: " + ", ".join(f"`{n}`" for n in full["given"]), "calls": _calls_text(base)}]
    for name in inferable:
        if name not in full["given"]:
            continue
        calls = by_given.get(frozenset(full["given"]) - {name})
        if calls is None:
            partners = [n for n in (form.all_or_none if name in form.all_or_none else form.either) if n != name]
            rule = "all or none" if name in form.all_or_none else "give one of them"
            rows.append({"case": f"`{name}` omitted", "calls": "only with " + ", ".join(f"`{n}`" for n in partners) + f" ({rule})"})
            continue
        added = {fn: calls.get(fn, 0) - base.get(fn, 0) for fn in {**base, **calls}}
        parts = [f"{'+' if n > 0 else '−'}{abs(n)} × `{fn}`" for fn, n in sorted(added.items()) if n]
        rows.append({"case": f"`{name}` omitted", "calls": ", ".join(parts) or "no extra call"})
    if least is not full:
        rows.append({"case": "everything omitted" if not least["given"] else
                     "omitted all but " + ", ".join(f"`{n}`" for n in least["given"]), "calls": _calls_text(least["calls"])})
    return rows


def _factories_taken(p: FormParam, form: Form) -> list[str]:
    """The factories a form takes p by: an output MPI writes only by its out factory."""
    factories = p.param.factories
    if form.written(p.name) and "out" in factories:
        return [factories["out"]]
    return list(factories.values())


_FRIENDLY_TYPES = [
    # (pattern of the generated storage type, what the page says)
    (re.compile(r"^nampi::detail::default_container_t<nampi::detail::slot_element_t<decltype\((\w+)\)>>$"),
     r"std::vector<T>` (T: the element type of `\1`)"),
    (re.compile(r"^nampi::detail::slot_element_t<decltype\((\w+)\)>$"), r"T` (the element type of `\1`)"),
    (re.compile(r"^nampi::detail::default_container_t<T>$"), r"std::vector<T>` (T: the call's template argument)"),
    (re.compile(r"^nampi::detail::default_container_t<nampi::detail::element_or_t<T, nampi::detail::slot_element_t<decltype\((\w+)\)>>>$"),
     r"std::vector<T>` (T: the call's template argument, else the element type of `\1`)"),
]


def _friendly_type(storage: str) -> str:
    """A returned value's C++ type as a reader needs it, between backticks (opened here)."""
    for pattern, text in _FRIENDLY_TYPES:
        if pattern.match(storage):
            return "`" + pattern.sub(text, storage)
    return f"`{storage}`"


def _returns(binding: Binding, form: Form) -> str:
    """What `auto x = comm.<call>(...)` is, for the reference page."""
    returned = returned_params(form)
    primary = form.primary.name if form.primary else None
    outs = [p.param.factories["out"] for p in form.inferable
            if "out" in p.param.factories and p.name != primary and p not in returned]
    if len(returned) > 1:
        names = ", ".join(p.name for p in returned)
        shape = (f"a `nampi::result` of {names} (`.extract_<name>()`, or `auto [{names}] = ...`): "
                 + ", ".join(f"{p.name} {_friendly_type(p.storage)}" for p in returned))
    elif returned:
        p = returned[0]
        shape = f"{_friendly_type(p.storage)}, the `{p.name}` it creates"
        if p.name in p.param.factories.values():  # the caller may give the buffer itself
            shape += (f" where you omit it (give `{p.name}(x)` to use your own; an rvalue you give "
                      "is moved in and handed back)")
    else:
        shape = "nothing: the buffers you give are read or written in place"
    if binding.variant == "nonblocking":
        text = f"a `nampi::nonblocking_result` that owns the buffers until `wait()`, which returns {shape}."
    elif binding.variant in ("persistent", "partitioned"):
        text = f"a persistent call: `start()` runs it, `wait()` returns a view (valid until the next start) of {shape}."
    else:
        text = shape + "."
    if outs:
        text += (f" Each parameter asked back ({', '.join(f'`{f}()`' for f in outs)}) joins a "
                 "`nampi::result`, after what is returned without it, in the order you name them.")
    return text


def _raw_handles(binding: Binding, form: Form) -> str | None:
    """Where a call returns what holds an MPI handle (a request, a communicator, a window, ...):
    how a C library gets it, by the one member every such nampi type has."""
    parts = []
    if binding.variant == "nonblocking":
        parts.append("the pending result's `mpi_handle()` is its `MPI_Request`")
    elif binding.variant in ("persistent", "partitioned"):
        parts.append("the persistent call's `mpi_handle()` is its `MPI_Request`")
    returner = "that `wait()`" if binding.variant == "nonblocking" else "it"
    parts += [f"the `{p.name}` {returner} returns gives its `{p.param.mpi_handle}` by `mpi_handle()`"
              for p in returned_params(form) if p.param.mpi_handle]
    return f"For C libraries, {' and '.join(parts)}." if parts else None


def _example(binding: Binding, form: Form) -> str:
    """The call as the generated test compiles it with everything omitted that may be (its
    first case, compiled in every build): a newcomer's first use, that cannot rot."""
    test = form.test if form.test is not None else binding.regular.test
    first = next(c for c in cases(binding, form) if c["level"] == 0)
    lines = [line for line in test.get("setup", "").strip().splitlines() if line.strip()]
    statement = first["statement"]
    if statement.startswith("{ ") and statement.endswith(" }"):  # several statements
        statement = statement[2:-2]
    for part in statement.split("; "):
        part = part.strip().rstrip(";")
        if not part:
            continue
        part = re.sub(r"^(\w+)_result = ", r"auto \1 = ", part)  # several returned values
        part = re.sub(r"^result = ", "auto result = ", part)
        lines.append(part + ";")
    return "\n".join(lines)


def doc_view(binding: Binding) -> dict:
    """The reference page: an example, what the call returns, parameters, defaults, and the MPI
    calls of each form."""
    forms = []
    for form in binding.forms:
        test = form.test if form.test is not None else binding.regular.test
        inferable = [p.name for p in form.inferable]
        rows = _cost_rows(cases(binding, form), inferable, form)
        forms.append(
            {
                "kind": form.kind,
                "example": _example(binding, form),
                "returns": _returns(binding, form),
                "raw_handles": _raw_handles(binding, form),
                "params": [
                    {
                        "name": p.name,
                        "doc": p.param.doc,
                        "how": describe_param(p),
                        "factories": ", ".join(f"`{f}()`" for f in _factories_taken(p, form)),
                    }
                    for p in form.params
                ],
                "inferable": inferable,
                "rows": rows,
                "topology": TOPOLOGY_NAMES.get(test.get("topology")),
            }
        )
    return {"name": binding.member, "mpi": binding.mpi, "doc": binding.doc, "source": binding.source, "forms": forms,
            "test_file": binding.base or binding.name, "receiver": binding.receiver_variable,
            # the family's definitions, which a unit on <nampi/core.hpp> includes (a communicator's
            # calls; a window's and a file's come with nampi/window.hpp and nampi/file.hpp)
            "header": f"nampi/calls/{binding.base}.hpp" if binding.receiver == "comm" else None}
