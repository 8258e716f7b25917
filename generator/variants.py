"""The overview page of the nonblocking and persistent bindings (generated/docs/nonblocking.md):
for each, its MPI function, which omitted parameters make it communicate before it starts (so
that part blocks), how many generated test cases it has, and which MPIs of the matrix lack it."""

from __future__ import annotations

from .availability import Availability
from .calltests import cases, requested_back_case
from .model import Binding
from .mpi_spec import MpiFunction

def _blocking_rules(binding: Binding, functions: dict[str, MpiFunction]) -> list[str]:
    """`param (MPI calls)` for every parameter whose computation communicates: calls that
    are not `local` in spec/mpi/ (local ones only read this process's state, never wait)."""
    out = []
    for form in binding.forms:
        for p, rule_call in form.rule_order:
            calls = [c for c in rule_call.rule.mpi_calls if not (c in functions and functions[c].local)]
            if calls:
                text = f"`{p.name}` ({', '.join(sorted(calls))})"
                if text not in out:
                    out.append(text)
    return out


def _test_cases(binding: Binding) -> int:
    return sum(len(cases(binding, f)) + (1 if requested_back_case(binding, f) else 0) for f in binding.forms)


def variant_rows(bindings: list[Binding], records: list[Availability], functions: dict[str, MpiFunction]) -> list[dict]:
    rows = []
    for b in bindings:
        if b.variant == "blocking":
            continue
        rows.append(
            {
                "name": b.name,
                "variant": b.variant,
                "mpi": b.mpi,
                "blocks_when_omitted": ", ".join(_blocking_rules(b, functions)) or "never: fully nonblocking",
                "tests": _test_cases(b),
                "available": ["✓" if b.mpi in r.functions else "✗" for r in records],
            }
        )
    return sorted(rows, key=lambda r: (r["variant"], r["name"]))


def render_variants(env, bindings: list[Binding], records: list[Availability], functions: dict[str, MpiFunction]) -> dict[str, str]:
    rows = variant_rows(bindings, records, functions)
    lacking = {
        r.label: [row["name"] for row in rows if row["available"][i] == "✗"] for i, r in enumerate(records)
    }
    return {
        "docs/nonblocking.md": env.get_template("nonblocking.md.j2").render(
            source="spec/bindings/*.yaml, spec/rules.yaml, spec/mpi/*.yaml, spec/mpi/availability/*.txt",
            rows=rows,
            mpis=[r.label for r in records],
            lacking=lacking,
            totals={v: sum(1 for r in rows if r["variant"] == v) for v in ("nonblocking", "persistent", "partitioned")},
            test_cases=sum(r["tests"] for r in rows),
        )
    }
