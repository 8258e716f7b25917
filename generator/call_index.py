"""Render generated/docs/calls.md: every named-parameter call, by family.

A family is one entry of spec/bindings/ (a blocking call) with its nonblocking, persistent and
partitioned forms. The index gives, per family, what it does (the first sentence of its
description), the MPI function of each form and a link to each form's page; then the plugins'
pages. It is the site's and the README's way into the 190-odd call pages.
"""

from __future__ import annotations

import re

import jinja2

from .model import Binding

VARIANT_ORDER = {"blocking": 0, "nonblocking": 1, "persistent": 2, "partitioned": 3}


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return m.group(1) if m else text


def group_title(group: str) -> str:
    """A section's title, from its spec file's name: point_to_point -> Point to point."""
    return group.replace("_", " ").capitalize()


def call_index_view(bindings: list[Binding]) -> list[dict]:
    """Sections by spec file name, each with its families in spec order; a family's forms
    blocking first."""
    sections = []
    for group in sorted({b.group for b in bindings}):
        members = [b for b in bindings if b.group == group]
        families = []
        for base in dict.fromkeys(b.base or b.name for b in members):
            forms = sorted((b for b in members if (b.base or b.name) == base),
                           key=lambda b: (VARIANT_ORDER[b.variant], b.name))
            head = next((b for b in forms if b.name == base), forms[0])
            families.append({
                "base": base,
                "doc": first_sentence(head.doc),
                "forms": [{"call": b.written, "page": f"{b.name}.md", "mpi": b.mpi, "variant": b.variant} for b in forms],
            })
        sections.append({"group": group, "title": group_title(group), "source": f"spec/bindings/{group}.yaml",
                         "families": families})
    return sections


def render_call_index(env: jinja2.Environment, bindings: list[Binding], plugins: list) -> dict[str, str]:
    sections = call_index_view(bindings)
    return {
        "docs/calls.md": env.get_template("call_index.md.j2").render(
            sections=sections,
            calls=len(bindings),
            families=sum(len(s["families"]) for s in sections),
            plugins=[{"name": p.name, "doc": first_sentence(p.doc), "header": p.header} for p in plugins],
        )
    }
