"""One body for the forms of a family that resolve and check alike.

A family's blocking call and its nonblocking and persistent variants (allgatherv, iallgatherv,
allgatherv_init) resolve the same parameters, run the same checks and rules, and differ only in
how they make the MPI call and what they return. Written once per form, that shared part was
most of a family header's text, and every unit that includes the header parses all of it.

Forms whose slots and statements are equal, but for the call's name and for how a slot keeps
what was moved into it, get one body, a template on the form's tag (nampi::call::<tag>):
the name comes from the tag (Form::name), the moved-input policy from
nampi::detail::moved_for<Form> (nampi/detail/slot.hpp), and an `if constexpr` on the tag picks
the form's own MPI call and result. Forms of a call on one element type (windows' typed
calls) keep bodies of their own.
"""

from __future__ import annotations

import copy
import json

_MOVED = "nampi::detail::moved_input::"


def _key(binding: dict, form: dict) -> str | None:
    """What must be equal for two forms to share a body, or None when the form keeps its own."""
    if binding["impl_targs"]:
        return None
    slots = [{**s, "flags": [f for f in s["flags"] if not f.startswith(_MOVED)]} for s in form["body"]["slots"]]
    statements = [{k: v for k, v in s.items() if k != "call"} for s in form["body"]["statements"]]
    return json.dumps([form["kind"], binding["collective"], slots, statements], sort_keys=True)


def _moved_flags(form: dict) -> list[list[str]]:
    return [[f for f in s["flags"] if f.startswith(_MOVED)] for s in form["body"]["slots"]]


def _merged_slots(members: list[tuple[dict, dict]]) -> list[dict] | None:
    """The shared body's slots: a moved-input policy, where the forms that return before the
    call completes name one, applies to those forms only (moved_for); None where such forms
    disagree on it (they keep bodies of their own)."""
    owning = [_moved_flags(f) for _, f in members if any(_moved_flags(f))]
    if any(o != owning[0] for o in owning):
        return None
    slots = copy.deepcopy(members[0][1]["body"]["slots"])
    if not owning:
        return slots
    for slot, moved in zip(slots, owning[0]):
        kept = [f for f in slot["flags"] if not f.startswith(_MOVED)]
        slot["flags"] = kept + [f"nampi::detail::moved_for<Form>({m})" for m in moved]
    return slots


def share_bodies(family: str, bindings: list[dict]) -> list[dict]:
    """The family's shared bodies (family.hpp.j2 renders them); marks each form that uses one
    (`shared`, and the tag argument its entry passes) and gives its tag the name and moved-input
    facts the body reads."""
    groups: dict[str, list[tuple[dict, dict]]] = {}
    for b in bindings:
        for f in b["forms"]:
            f["shared"], f["form_arg"] = False, ""  # a body of its own, unless grouped below
            key = _key(b, f)
            if key is not None:
                groups.setdefault(key, []).append((b, f))
    shared = []
    for members in groups.values():
        slots = _merged_slots(members) if len(members) > 1 else None
        if slots is None:
            continue
        kind = members[0][1]["kind"]
        name = f"{family}_{kind}_body"
        while any(sb["impl"] == name for sb in shared):  # a second group of the same kind
            name += "_"
        statements = copy.deepcopy(members[0][1]["body"]["statements"])
        for s in statements:
            if "call" in s:
                s["call_expr"] = "Form::name"
        for b, f in members:
            f["shared"] = True
            f["impl"] = name
            f["form_arg"] = f"nampi::call::{f['tag']}{{}}, "
            f["tag_name"] = b["name"]
            f["returns_before_completion"] = f["body"]["start"] is not None
        shared.append(
            {
                "impl": name,
                "names": [b["name"] for b, _ in members],
                "have_macros": [b["have_macro"] for b, _ in members],
                "collective": members[0][0]["collective"],
                "slots": slots,
                "statements": statements,
                "out_of_line": any(f["out_of_line"] for _, f in members),
                "members": [
                    {"tag": f"nampi::call::{f['tag']}", "have_macro": b["have_macro"], "body": f["body"]}
                    for b, f in members
                ],
            }
        )
    return shared
