"""The factories of spec/parameters.yaml's parameters (parameters.hpp.j2): what `send_buf(x)`,
`recv_counts_out()` and the like are, and what a value given to them must be."""

from __future__ import annotations

from .model import Parameter


# spec/parameters.yaml `takes` -> the runtime's value_kind (parameter.hpp), the stand-in a
# rejected value is replaced with (so that the call adds no errors of its own), and the
# message of each way a value can be wrong (value_fault).
_TAKES = {
    None: ("any", None, {}),
    "integer": (
        "integer",
        "int",
        {
            "floating_point": "expects an integer, got a floating-point value (convert it explicitly)",
            "not_integer": "expects an integer (or an enum)",
        },
    ),
    "int_array": (
        "array",
        "std::vector<int>",
        {"not_array": "expects an array (a contiguous range such as std::vector<int>), got a single value"},
    ),
    "datatype_array": (
        "array",
        "std::vector<MPI_Datatype>",
        {"not_array": "expects an array (a contiguous range of datatypes), got a single value"},
    ),
    "op": (
        "op",
        "MPI_Op",
        {
            "integer_not_op": "an integer is not an MPI_Op; give an MPI_Op (MPI_SUM, ...), "
            "a builtin functor (std::plus<>, ...) or a callable",
            "not_op": "expects an MPI_Op (MPI_SUM, ...), a builtin functor (std::plus<>, ...) or a callable",
        },
    ),
}


def factories(
    parameters: dict[str, Parameter], id_enum: str = "param_id", source: str = "spec/parameters.yaml"
) -> list[dict]:
    """One entry per factory function of the vocabulary. A value given to an `in` factory is
    checked against the parameter's `takes` (one static_assert per way it can be wrong, naming
    the parameter); array parameters also take a braced list (`send_buf({1, 2, 3})`).
    id_enum: the enum of the parameters' ids (a plugin's own), as spelled in namespace nampi."""
    out = []
    for p in parameters.values():
        kind, placeholder, faults = _TAKES[p.takes]
        for role, fname in sorted(p.factories.items()):
            checked = role == "in"
            out.append(
                {
                    "param": p.name,
                    "id": f"{id_enum}::{p.name}",
                    "source": source,
                    "name": fname,
                    "role": role,
                    "doc": p.doc,
                    "default_storage": p.storage if p.storage and "element" not in p.storage else None,
                    "kind": kind if checked else "any",
                    # the value's own type when nothing is checked (never used then)
                    "placeholder": (placeholder if checked else None) or "T",
                    "checks": [
                        {"fault": fault, "message": f"nampi: {fname}: {msg}"} for fault, msg in faults.items()
                    ]
                    if checked
                    else [],
                    "braced_list": (p.array or p.braced_list) and role in ("in", "inout"),
                }
            )
    return sorted(out, key=lambda f: f["name"])
