"""The statements of one call body or one typed wrapper, rendered alone by the templates' macros
(call_body.j2, typed_body.j2): what tests read, without rendering and formatting a whole header."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .cpp import body
from .model import Binding, Form
from .render import make_environment

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@cache
def _macros(name: str):
    return make_environment(TEMPLATES).get_template(name).module


def _lines(text: str) -> list[str]:
    return [line.strip() for line in str(text).splitlines() if line.strip()]


def call_body(binding: Binding, form: Form) -> dict[str, list[str]]:
    """{'slots', 'rules' (checks and rule calls, one statement each), 'finish' (the MPI call and
    the result, as lines)} of a form's body, as family.hpp.j2 writes them before clang-format."""
    m = _macros("call_body.j2")
    b = body(binding, form)
    if b["start"]:
        finish = _lines(m.start(b["start"], b["mpi_call"]))
    else:
        finish = _lines(m.mpi_call(b["mpi_call"])) + _lines(m.result(b["result"]))
    return {
        "slots": [str(m.slot(s)) for s in b["slots"]],
        "rules": [str(m.statement(s)) for s in b["statements"]],
        "finish": finish,
    }


def typed_body(wrapper) -> tuple[str, ...]:
    """The lines of a typed wrapper's body, as typed.hpp.j2 writes them before clang-format."""
    return tuple(_lines(_macros("typed_body.j2").body(wrapper)))
