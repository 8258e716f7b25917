"""One body for the forms of a family that resolve and check alike (generator/shared_bodies.py):
which forms share one, what the shared body reads from the form's tag, and the generated
header that results."""

from __future__ import annotations

import copy
import re

from conftest import REPO

from generator.shared_bodies import share_bodies

HANDS_BACK = "nampi::detail::moved_input::hand_back"
KEEPS = "nampi::detail::moved_input::keep"


def _form(tag: str, kind: str = "regular", moved: str | None = None, statements=None, start: bool = False) -> dict:
    flags = ["false"] + ([moved] if moved else [])
    return {
        "kind": kind,
        "tag": tag,
        "out_of_line": None,
        "body": {
            "slots": [{"name": "send_buf", "id": "nampi::param_id::send_buf", "storage": "void",
                       "policy": "nampi::no_resize", "flags": flags}],
            "statements": statements if statements is not None
            else [{"kind": "fit_check", "call": tag, "root": None, "args": ["send_buf"]}],
            "mpi_call": {"plain": tag},
            "result": ["send_buf"],
            "start": {"name": tag} if start else None,
        },
    }


def _binding(name: str, form: dict, element: bool = False) -> dict:
    return {"name": name, "have_macro": f"NAMPI_HAVE_{name.upper()}", "collective": True,
            "impl_targs": "<T>" if element else "", "forms": [form]}


def _family(moved_nonblocking=HANDS_BACK, moved_persistent=HANDS_BACK) -> list[dict]:
    return [
        _binding("bcast", _form("bcast")),
        _binding("ibcast", _form("ibcast", moved=moved_nonblocking, start=True)),
        _binding("bcast_init", _form("bcast_init", moved=moved_persistent, start=True)),
    ]


def test_forms_that_resolve_alike_share_one_body():
    views = _family()
    shared = share_bodies("bcast", views)
    assert [s["names"] for s in shared] == [["bcast", "ibcast", "bcast_init"]]
    body = shared[0]
    assert body["impl"] == "bcast_regular_body"
    # The moved-input policy applies to the forms that return before the call completes only.
    assert body["slots"][0]["flags"] == ["false", f"nampi::detail::moved_for<Form>({HANDS_BACK})"]
    # The call's name in a check's message is the form's.
    assert body["statements"][0]["call_expr"] == "Form::name"
    # Each form's entry passes its tag; the tag names the call and says whether it owns inputs.
    forms = [b["forms"][0] for b in views]
    assert [f["form_arg"] for f in forms] == [f"nampi::call::{t}{{}}, " for t in ("bcast", "ibcast", "bcast_init")]
    assert [f["tag_name"] for f in forms] == ["bcast", "ibcast", "bcast_init"]
    assert [f["returns_before_completion"] for f in forms] == [False, True, True]
    # Each form keeps its own MPI call and result.
    assert [m["body"]["mpi_call"]["plain"] for m in body["members"]] == ["bcast", "ibcast", "bcast_init"]


def test_forms_that_differ_keep_their_own_bodies():
    # Another check in the nonblocking form: it does not share.
    views = _family()
    views[1]["forms"][0]["body"]["statements"].append({"kind": "neighbor_query"})
    shared = share_bodies("bcast", views)
    assert [s["names"] for s in shared] == [["bcast", "bcast_init"]]
    assert not views[1]["forms"][0]["shared"] and views[1]["forms"][0]["form_arg"] == ""
    # Forms that own their inputs but keep them differently: none shares.
    views = _family(moved_persistent=KEEPS)
    assert share_bodies("bcast", views) == []
    assert not any(b["forms"][0]["shared"] for b in views)
    # A form alone, or one on an element type (a window's typed call): none.
    views = _family()
    for b in views:
        b["impl_targs"] = "<T>"
    assert share_bodies("bcast", views) == []
    assert share_bodies("bcast", _family()[:1]) == []


def test_in_place_forms_share_apart_from_regular_ones():
    views = _family()
    for b in views:
        in_place = copy.deepcopy(b["forms"][0])
        in_place["kind"] = "in_place"
        in_place["tag"] += "_in_place"
        b["forms"].append(in_place)
    shared = share_bodies("bcast", views)
    assert [s["impl"] for s in shared] == ["bcast_regular_body", "bcast_in_place_body"]


def test_generated_family_has_one_body():
    declared = (REPO / "generated/include/nampi/generated/collectives/allgatherv.hpp").read_text()
    defined = (REPO / "generated/include/nampi/calls/allgatherv.hpp").read_text()
    text = declared + defined
    assert len(re.findall(r"inline auto allgatherv_family<Comm>::\w+\(\s*Form,", defined)) == 1
    assert len(re.findall(r"auto \w+\(Form, Args&\.\.\. args\) const;", declared)) == 1
    assert "allgatherv_regular_body(Form," in text
    for tag in ("allgatherv", "iallgatherv", "allgatherv_init"):
        assert f"nampi::call::{tag}{{}}, args..." in text
        assert re.search(rf'struct {tag} : nampi::detail::tag_defaults \{{[^}}]*name\[\] = "{tag}";', text)
    assert text.count("returns_before_completion = true;") == 2  # iallgatherv, allgatherv_init
