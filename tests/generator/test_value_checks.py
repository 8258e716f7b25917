"""Run-time checks of values the caller gives (parameters.yaml `check`: the tag range)
and parameters a form takes omitted only (`not_given`: exscan in place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.calltests import cases
from generator.shapes import call_body as body
from conftest import binding_named
from test_pipeline import COLLECTIVES, assert_spec_error, edit_line, find_line, root, snapshot  # noqa: F401

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def spec(repo_spec):
    return repo_spec


_binding = binding_named


def test_tag_parameters_name_their_check(spec):
    params = spec.parameters
    assert (params["tag"].check, params["recv_tag"].check, params["send_tag"].check) == ("tag", "tag", "send_tag")
    assert params["dest"].check is None


def test_checks_come_before_every_rule(spec):
    # recv probes with its tag when recv_count is omitted: the check must precede that rule.
    rules = body(_binding(spec, "recv"), _binding(spec, "recv").regular)["rules"]
    assert rules[0] == "if constexpr (!decltype(tag)::computed) nampi::detail::check_tag(ctx, tag);"
    assert not any("check_tag" in r for r in rules[1:])
    b = _binding(spec, "isendrecv")
    rules = body(b, b.regular)["rules"]
    assert rules[:2] == [
        "if constexpr (!decltype(send_tag)::computed) nampi::detail::check_send_tag(ctx, send_tag);",
        "if constexpr (!decltype(recv_tag)::computed) nampi::detail::check_tag(ctx, recv_tag);",
    ]
    # Calls without tags get none.
    b = _binding(spec, "allgatherv")
    assert not any("check_tag" in r or "check_send_tag" in r for r in body(b, b.regular)["rules"])


def test_not_given_parameters_are_never_given_by_the_tests(spec):
    b = _binding(spec, "exscan")
    assert b.in_place.not_given == ("values_on_rank_0",)
    in_place = [c["args"] for c in cases(b, b.in_place)]
    assert in_place and not any("values_on_rank_0(" in a for a in in_place)
    # The regular form takes it either way.
    regular = [c["args"] for c in cases(b, b.regular)]
    assert any("values_on_rank_0(" in a for a in regular) and any("values_on_rank_0(" not in a for a in regular)


def test_not_given_names_a_non_parameter(root: Path, capsys):
    path = root / COLLECTIVES
    line = find_line(path.read_text(), "exscan", r"^    not_given: \[values_on_rank_0\]$")
    edit_line(path, line, "values_on_rank_0]", "values_on_rank_1]")
    assert_spec_error(root, capsys, COLLECTIVES, line, "not_given: 'values_on_rank_1' is not a parameter of this call")
