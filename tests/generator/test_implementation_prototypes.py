"""Arguments an implementation's mpi.h declares without the standard's const (spec/mpi
`implementations:`, e.g. SimGrid's smpi.h for MPI_Compare_and_swap's compare_addr): the named
binding and the typed wrapper cast the const away at the call, and only there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.pipeline import load_spec
from generator.shapes import call_body as body

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def spec():
    return load_spec(REPO)[0]


def _binding(spec, name):
    return next(b for b in spec.bindings if b.name == name)


def test_a_binding_casts_away_const_only_where_an_implementation_drops_it(spec):
    cas = _binding(spec, "compare_and_swap").regular
    assert cas.mpi_nonconst == frozenset({"compare_addr"})
    finish = "\n".join(body(_binding(spec, "compare_and_swap"), cas)["finish"])
    assert "nampi::detail::without_const(nampi::detail::to_mpi_lasting_pointer(compare_buf))" in finish
    # origin_addr keeps its const: smpi.h declares it as the standard does.
    assert "nampi::detail::without_const(nampi::detail::to_mpi_lasting_pointer(origin_buf))" not in finish
    # A binding whose function no implementation departs from is unchanged.
    send = _binding(spec, "send").regular
    assert send.mpi_nonconst == frozenset()
    assert "without_const" not in "\n".join(body(_binding(spec, "send"), send)["finish"])


def _text(path: str) -> str:
    """A generated header with its line breaks (clang-format's) as single spaces."""
    return re.sub(r"\s+", " ", (REPO / path).read_text(encoding="utf-8"))


def test_the_typed_wrappers_cast_the_same_arguments():
    rma = _text("generated/include/nampi/mpi/rma.hpp")
    assert "MPI_Compare_and_swap, origin_addr, const_cast<void*>(compare_addr), result_addr," in rma
    datatypes = _text("generated/include/nampi/mpi/datatypes.hpp")
    assert "MPI_Get_elements_x, const_cast<MPI_Status*>(&status), datatype.get()" in datatypes
