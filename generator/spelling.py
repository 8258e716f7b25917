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
    """C++ constant: the linked MPI provides the function (see calls.hpp.j2)."""
    return f"nampi::generated::provided::have_{mpi_function}"
