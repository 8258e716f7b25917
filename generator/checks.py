"""A call form's compile-time checks (the check struct of family.hpp.j2): each a condition and
the message naming the call and the parameter. The call's body compiles only if all hold."""

from __future__ import annotations


from .buffers import typed_buffers
from .model import ELEMENT_STORAGE, Binding, Form
from .spelling import has_param, form_label, param_id, provided


def checks(binding: Binding, form: Form) -> list[dict]:
    """Compile-time checks of one form: a condition and the message naming the
    call and the parameter. The call's body compiles only if all hold."""
    label = form_label(binding, form)
    out = [
        {
            # First: with the function missing, no other message would mean anything. Made to
            # depend on Args: a non-dependent false static_assert fails where the header is read
            # (GCC evaluates it at once), not where the call is used.
            "cond": f"nampi::detail::when_called<{provided(binding.mpi)}, Args...>",
            "msg": f"nampi: {label}: the installed MPI does not provide {binding.mpi}",
        },
        generic_check(call_tag(binding, form)),
    ]
    if form.element_template and form.element_buffer:
        buffer = form.element_buffer
        out.append(
            {
                "cond": f"std::is_same_v<T, nampi::detail::unspecified_element> || "
                f"nampi::detail::element_is<T, {param_id(buffer)}, Args...>()",
                "msg": f"nampi: {label}: {binding.name}<T> receives elements of '{buffer}' (the sizes "
                f"exchanged count them): T must be their type",
            }
        )
    elif form.element_template:
        out.append(
            {
                "cond": f"!std::is_same_v<T, nampi::detail::unspecified_element> || {has_param(form.primary.name)}",
                "msg": f"nampi: {label}: name the element type ({binding.name}<T>(...)) or pass {form.primary.name}",
            }
        )
    serialized = "nampi::detail::any_serialized<Args...>"
    if form.either:
        a, b = form.either
        out.append(
            {
                "cond": f"!nampi::detail::all_named<Args...> || !nampi::detail::computes<{param_id(a)}, Args...> || "
                f"!nampi::detail::computes<{param_id(b)}, Args...>",
                "msg": f"nampi: {label}: give '{a}' or '{b}' (each is computed from the other)",
            }
        )
    if form.all_or_none:
        first, *rest = form.all_or_none
        out.append(
            {
                "cond": " && ".join(f"{has_param(first)} == {has_param(n)}" for n in rest),
                "msg": f"nampi: {label}: give {', '.join(repr(n) for n in form.all_or_none)} together, or none of them",
            }
        )
    for p in form.params:
        # An input the caller must give cannot also be asked back (unless a serialized buffer computes it).
        if (p.required or p.required_at_root) and {"in", "out"} <= p.param.factories.keys():
            relaxed = f" || {serialized}" if p.serialized_default else ""
            out.append(
                {
                    "cond": f"!{has_param(p.name)} || nampi::detail::role_of<{param_id(p.name)}, Args...>() != nampi::detail::role::out{relaxed}",
                    "msg": f"nampi: {label}: '{p.name}' is an input; {p.param.factories['out']}() cannot return it",
                }
            )
    for p in form.params:
        # An output of this call that other calls take as an input: given as one, MPI would
        # write into the caller's const value.
        if form.written(p.name) and {"in", "out"} <= p.param.factories.keys():
            out.append(
                {
                    "cond": f"!{has_param(p.name)} || nampi::detail::role_of<{param_id(p.name)}, Args...>() != nampi::detail::role::in",
                    "msg": f"nampi: {label}: '{p.name}' is an output; pass {p.param.factories['out']}(x)"
                    + (" or omit it (it is returned)" if p.returned_if_omitted else ""),
                }
            )
    for p in form.params:
        # One-sided buffers: MPI reads or writes them until the epoch's synchronization, after
        # the call returned. A nonblocking call (rput) may own one moved in until wait().
        kind = p.param.to_mpi
        if kind not in ("lasting_pointer", "writable_pointer"):
            continue
        writable = kind == "writable_pointer" or form.written(p.name)
        owned_ok = binding.returns_before_completion
        cond = f"nampi::detail::variable_argument<{param_id(p.name)}, {'true' if writable else 'false'}, Args...>()"
        if owned_ok:
            cond = f"nampi::detail::variable_argument<{param_id(p.name)}, false, Args...>() ? {cond} : true"
        what = "writes '{}'" if form.written(p.name) else ("exposes '{}' to other ranks" if writable else "reads '{}'")
        out.append(
            {
                "cond": cond,
                "msg": f"nampi: {label}: MPI {what.format(p.name)} after the call returns: give a "
                + ("non-const variable" if writable else "variable")
                + (", or move it in (the result keeps it until wait())" if owned_ok else ", not a temporary"),
            }
        )
    for p in form.params:
        if p.param.header:  # its type's header is not the communicator's: one clear message where it is missing
            probe = ELEMENT_STORAGE.get(p.param.storage, p.param.storage).format(e="int")
            out.insert(
                1,
                {
                    "cond": f"nampi::detail::complete_type<{probe}, Args...>()",
                    "msg": f"nampi: {label}: #include <{p.param.header}> (it defines what the call returns)",
                },
            )
    out += _serialized_checks(binding, form, label)
    out += element_checks(form, label)
    if form.element_buffer and any(p.param.to_mpi == "op" for p in form.params):
        out += op_checks(param_id(form.element_buffer), label)
    return out


def generic_check(tag: str, tag_elsewhere: bool = False) -> dict:
    """The check every call makes of its arguments against its tag (nampi/detail/check_call.hpp): all
    named, the required ones given, none twice, none it does not take. Its diagnostics name
    the call and the parameter themselves, so it has no message here. `tag_elsewhere`: on a
    communicator whose calls take their tag where it is made, a tag argument passes here (a
    check of its own says where it goes: backends.tag_checks)."""
    if tag_elsewhere:
        return {"cond": f"nampi::detail::check_call_but<{tag}, nampi::param_id::tag, nampi::detail::tag_at_creation<Comm>, Args...>()", "msg": None, "generic": True}
    return {"cond": f"nampi::detail::check_call<{tag}, Args...>()", "msg": None, "generic": True}


def call_tag(binding: Binding, form: Form) -> str:
    """The C++ type that names a call form and lists the parameters it takes (family.hpp.j2)."""
    return f"nampi::call::{binding.name}{'_in_place' if form.kind == 'in_place' else ''}"


def tag_view(binding: Binding, form: Form) -> dict:
    """What a form's tag lists (macros.j2 call_tag): the parameters it takes, those it requires,
    the required ones a serialized buffer computes (not required with one), and its data
    buffers: the generic check's data (nampi/detail/check_call.hpp)."""
    return {
        "tag": call_tag(binding, form).removeprefix("nampi::call::"),
        "in_place": form.kind == "in_place",
        "takes": [param_id(p.name) for p in form.params],
        "required": [param_id(p.name) for p in form.params if p.required],
        "computed_when_serialized": [param_id(p.name) for p in form.params if p.required and p.serialized_default],
        # Serialized buffers (nampi/serialization.hpp): those it takes, and what they compute.
        "serialized": _serialized_kind(binding),
        "serializable": [param_id(n) for n in binding.serialized],
        "computed_from_serialized": [param_id(p.name) for p in form.params if binding.serialized and _computed_when_serialized(p)],
        # Its data buffers, and those MPI writes into (one-sided buffers, which MPI may use after
        # the call, have a check of their own): each must be one MPI can use.
        "buffers": [param_id(p.name) for p in form.params if p.param.data],
        "written": [
            param_id(p.name)
            for p in form.params
            if p.param.data and form.directions(p.name) & {"out", "inout"}
            and p.param.to_mpi not in ("lasting_pointer", "writable_pointer")
        ],
    }


def _serialized_kind(binding: Binding) -> str:
    """How a form takes serialized buffers (nampi::detail::serialized_buffers): only those its
    binding lists; persistent calls none (each start() would send the first start's bytes
    again); the others none yet."""
    if binding.serialized:
        kind = "listed"
    elif binding.variant in ("persistent", "partitioned"):
        kind = "none_persistent"
    else:
        kind = "none_yet"
    return f"nampi::detail::serialized_buffers::{kind}"


def _computed_when_serialized(p) -> bool:
    """Counts, displacements and datatypes of the data buffers (role layout): with a serialized
    buffer they describe its bytes (MPI_BYTE, sizes the call exchanges), so a caller's element
    counts would misplace them. Asked back, they are fine."""
    return bool(p.serialized_default or (p.param.role == "layout" and "out" in p.param.factories))


def _serialized_checks(binding: Binding, form: Form, label: str) -> list[dict]:
    """What the generic check does not: a buffer serialized one value per rank must be a range,
    and the other buffers serialized beside it. (Which buffers may be serialized, and what they
    compute, are the tag's data: tag_view.)"""
    out = []
    for n in binding.serialized_per_rank:
        out.append(
            {
                "cond": f"nampi::detail::serialized_range<{param_id(n)}, Args...>()",
                "msg": f"nampi: {label}: a serialized '{n}' must be a range with one value per rank (value i goes to rank i)",
            }
        )
        # The serialized_defaults read it: the other buffers' bytes are its values'.
        out.append(
            {
                "cond": f"!{has_param(n)} || !nampi::detail::any_serialized<Args...> || nampi::detail::is_serialized<{param_id(n)}, Args...>()",
                "msg": f"nampi: {label}: with a serialized buffer, '{n}' must be serialized too (as_serialized(values); "
                "off the root an empty range will do)",
            }
        )
    return out


def element_checks(form: Form, label: str) -> list[dict]:
    """Where one datatype serves two buffers (reductions, `_single` calls), or a count is taken
    from another buffer's (same_as), the buffers must hold one element type unless the caller
    gives the datatype or the count: a datatype inferred from one would reinterpret the other."""
    buffers = typed_buffers(form)
    out = []
    for i, (b1, _, t1, _) in enumerate(buffers):
        for b2, _, t2, _ in buffers[i + 1 :]:
            if t1 and t1 == t2:
                out.append(
                    {
                        "cond": f"!nampi::detail::computes<{param_id(t1)}, Args...> || "
                        f"nampi::detail::same_element<{param_id(b1)}, {param_id(b2)}, Args...>()",
                        "msg": f"nampi: {label}: '{b2}' holds another element type than '{b1}', and one datatype "
                        f"('{t1}') serves both (give {t1}, or buffers of one element type)",
                    }
                )
    described = {c: (b, t) for b, c, t, _ in buffers if c}
    for p in form.params:
        if p.name not in described or not p.default or not p.default.rule.copies_argument:
            continue
        source = p.default.param_args()[0]
        (b, t), (b_source, _) = described[p.name], described.get(source, (None, None))
        if b_source and b_source != b and t:
            out.append(
                {
                    "cond": f"!nampi::detail::computes<{param_id(p.name)}, Args...> || "
                    f"!nampi::detail::computes<{param_id(t)}, Args...> || "
                    f"nampi::detail::same_element<{param_id(b)}, {param_id(b_source)}, Args...>()",
                    "msg": f"nampi: {label}: '{b}' holds another element type than '{b_source}', so '{p.name}' "
                    f"cannot be taken from '{source}' (give {p.name})",
                }
            )
    return out


def op_checks(element_id: str, label: str) -> list[dict]:
    """A user op fits the elements of buffer `element_id` (nampi/detail/op_checks.hpp): it takes them as
    they are, can be called on two and returns what they can hold. Each static_assert names
    the condition itself (`asserted`), so that the compiler's note names the two types."""
    args = f"<{element_id}, Args...>"
    elements = f"nampi::detail::op_elements{args}"
    conditions = [
        (
            f"nampi::detail::operation_taking{args}::template the_elements_are<{elements}>",
            "the operation takes another type than the elements, which it would convert (the note names both)",
        ),
        (
            f"nampi::detail::operation_of{args}::template combines_two<{elements}>",
            "the operation cannot combine two elements (it takes two, by value or const reference; "
            "the note names it and the elements)",
        ),
        (
            f"nampi::detail::operation_returning{args}::template convertible_to<{elements}>",
            "the operation returns a type the elements cannot hold (the note names both)",
        ),
    ]
    return [{"cond": c, "asserted": c, "msg": f"nampi: {label}: parameter 'op': {m}"} for c, m in conditions]


def check_struct_name(binding: Binding, form: Form) -> str:
    return f"{binding.name}{'_in_place' if form.kind == 'in_place' else ''}_check"
