"""C++ spellings shared by a call's body, its compile-time checks and its tests: parameter ids,
the configure-time probe's macros, and a call form's name in messages."""

from __future__ import annotations

from .model import Binding, Form


ID = "nampi::param_id::{}"


def param_id(name: str) -> str:
    return ID.format(name)


def has_param(name: str) -> str:
    return f"nampi::detail::has_param<{param_id(name)}, Args...>"


def form_label(binding: Binding, form: Form) -> str:
    return binding.name + (f" (in place, with {binding.in_place_trigger})" if form.kind == "in_place" else "")


def have_macro(mpi_function: str) -> str:
    """The configure-time probe's macro for an MPI function (CMakeLists.txt, nampi/config.h)."""
    return f"NAMPI_HAVE_{mpi_function.upper()}"


def provided(mpi_function: str) -> str:
    """C++ constant: the linked MPI provides the function (see family.hpp.j2)."""
    return f"nampi::generated::provided::have_{mpi_function}"


# The names a generated test declares around the call (templates/call_test.cpp.j2,
# misuse_test.cpp.j2: `const int rank = comm.rank();`, ...). A factory of the same name
# (`rank(r)`, cart_coords' rank) is hidden by the local there, so the tests spell it
# qualified, as a program with a variable `rank` must too.
FIXTURE_LOCALS = frozenset({"comm", "rank", "size", "expected", "result", "returned", "calls", "persistent"})


def factory_call(factory: str) -> str:
    """How a generated test names a parameter factory: qualified where a fixture local hides it."""
    return f"nampi::params::{factory}" if factory in FIXTURE_LOCALS else factory
