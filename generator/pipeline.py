"""Stages 2-3: from the loaded spec to the text of every generated file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import calltests, cpp, misuse
from .checks import call_tag, generic_check
from . import availability
from .call_index import render_call_index
from .coverage import render_coverage
from .factories import factories
from .backends import backends_view, lacking_check, load_backends, provided_bindings, tag_checks
from .load import Spec, load_bindings, load_parameters, load_rules
from .model import RECEIVERS
from .mpi_spec import load_mpi_entries
from .plugins import load_plugins, plugin_doc_view, plugin_view
from .pmpi import render_pmpi
from .reference import render_reference
from .spelling import form_label, have_macro
from .render import make_environment
from .shared_bodies import share_bodies
from .typed import render_typed, typed_plan
from .variants import render_variants


def load_spec(root: Path) -> tuple[Spec, dict, dict]:
    """(the bindings' spec, the MPI functions, the MPI callback typedefs and predefined functions)."""
    entries = load_mpi_entries(root / "spec", root)
    mpi_functions = {n: f for n, f in entries.items() if not f.is_callback}
    callbacks = {n: f for n, f in entries.items() if f.is_callback}
    parameters = load_parameters(root)
    rules = load_rules(root)
    bindings, _ = load_bindings(root, parameters, rules, mpi_functions)
    return Spec(parameters, rules, bindings), mpi_functions, callbacks


def _binding_view(binding, backends, mpi_functions):
    view = cpp.binding_view(binding)
    element_head = binding.regular.element_template
    view["check_head"] = "template <typename Comm, typename T, typename... Args>" if element_head else "template <typename Comm, typename... Args>"
    view["check_args"] = "Comm, T, std::remove_cvref_t<Args>..." if element_head else "Comm, std::remove_cvref_t<Args>..."
    for form, model in zip(view["forms"], binding.forms):
        lacking = lacking_check(backends, binding, mpi_functions, form["tag"], form_label(binding, model))
        if lacking:  # second: after the installed MPI's own check
            form["checks"].insert(1, lacking)
        own = tag_checks(backends, binding, model, mpi_functions, form["tag"], form_label(binding, model))
        if own:
            at = next(i for i, c in enumerate(form["checks"]) if c.get("generic"))
            form["checks"][at] = generic_check(f"nampi::call::{form['tag']}", tag_elsewhere=True)
            form["checks"] += own
        form["ok_expr"] = " && ".join(f"c{i}" for i in range(len(form["checks"])))
    return view


def _families(members) -> dict[str, list]:
    """A group's bindings by family (the blocking binding and its nonblocking, persistent and
    partitioned variants: one spec entry), in the order of the spec file."""
    families: dict[str, list] = {}
    for b in members:
        families.setdefault(b.base, []).append(b)
    return families


# What a family's two headers are rendered from besides its bindings' views.
_FAMILY_TEMPLATES = ("family.hpp.j2", "family_calls.hpp.j2", "call_body.j2", "macros.j2")


def _inputs_hash(env, views: list[dict]) -> str:
    """The hash of everything a family header is rendered from: its bindings' views (the model's
    data, spec and rules already applied) and the templates. Equal hashes, equal header."""
    digest = hashlib.sha256(json.dumps(views, sort_keys=True).encode())
    for name in _FAMILY_TEMPLATES:
        digest.update(env.loader.get_source(env, name)[0].encode())
    return digest.hexdigest()[:16]


def _emulated_twins(bindings) -> set[str]:
    """The `_c` twins of nonblocking and persistent calls that emulate them without it: the
    result's emulation slot is empty where the MPI has the twin (provided::have_<twin>)."""
    return {b.large_twin for b in bindings if b.emulation_state and b.returns_before_completion and b.large_twin}


def render_all(root: Path) -> dict[str, str]:
    """{path relative to generated/: text} before formatting."""
    spec, mpi_functions, callbacks = load_spec(root)
    backends = load_backends(root, mpi_functions)
    env = make_environment(root / "templates")
    out: dict[str, str] = {}
    params = list(spec.parameters.values())
    out["include/nampi/generated/parameters.hpp"] = env.get_template("parameters.hpp.j2").render(
        parameters=params, factories=factories(spec.parameters)
    )
    groups = sorted({b.group for b in spec.bindings})
    by_name = {b.name: b for b in spec.bindings}
    for group in groups:
        members = [b for b in spec.bindings if b.group == group]
        mixed_into = RECEIVERS[members[0].receiver].cpp_class
        families = _families(members)
        for base, family in families.items():
            views = [_binding_view(b, backends, mpi_functions) for b in family]
            for b, view in zip(family, views):
                if b.serialized_via:  # another family's call serves it: named through that family
                    via = by_name[b.serialized_via]
                    view["serialized_via"] = {"family": f"nampi::generated::{via.base}_family", "member": via.member}
            shared = share_bodies(base, views)
            # The family declared (its tags and members: what a communicator class needs) and
            # defined (checks and bodies: what a call needs), in two headers.
            family_view = dict(
                group=group,
                family=base,
                names=[b.name for b in family],
                uses=sorted({v.base for v in (by_name[b.serialized_via] for b in family if b.serialized_via) if v.base != base}),
                where=str(min((b.where for b in family), key=lambda w: w.line)),
                inputs=_inputs_hash(env, views),
                mixed_into=mixed_into,
                source=f"spec/bindings/{group}.yaml, spec/parameters.yaml, spec/rules.yaml",
                bindings=views,
                shared=shared,
            )
            out[f"include/nampi/generated/{group}/{base}.hpp"] = env.get_template("family.hpp.j2").render(**family_view)
            out[f"include/nampi/calls/{base}.hpp"] = env.get_template("family_calls.hpp.j2").render(**family_view)
        out[f"include/nampi/generated/{group}.hpp"] = env.get_template("calls.hpp.j2").render(
            group=group, mixed_into=mixed_into, families=list(families), source=f"spec/bindings/{group}.yaml"
        )
        out[f"include/nampi/generated/{group}_definitions.hpp"] = env.get_template("call_definitions.hpp.j2").render(
            what=f"The {group} calls' definitions: each family's header (nampi/calls/<family>.hpp).",
            headers=[f"nampi/calls/{f}.hpp" for f in families],
            source=f"spec/bindings/{group}.yaml",
        )
    provided = sorted({b.mpi for b in spec.bindings} | _emulated_twins(spec.bindings))
    out["include/nampi/generated/provided.hpp"] = env.get_template("provided.hpp.j2").render(
        functions=[{"name": f, "macro": have_macro(f)} for f in provided]
    )
    out["include/nampi/generated/backends.hpp"] = env.get_template("backends.hpp.j2").render(
        backends=backends_view(backends, spec.bindings, mpi_functions, lambda b, f: call_tag(b, f).removeprefix("nampi::call::"))
    )
    # Communicator calls only: a window's group is nampi::Window<T>'s (nampi/window.hpp).
    comm_groups = [g for g in groups if next(b for b in spec.bindings if b.group == g).receiver == "comm"]
    out["include/nampi/generated/all_calls.hpp"] = env.get_template("all_calls.hpp.j2").render(groups=comm_groups)
    out["include/nampi/generated/all_call_definitions.hpp"] = env.get_template("call_definitions.hpp.j2").render(
        what="The definitions of every call of nampi::Communicator, group by group.",
        headers=[f"nampi/generated/{g}_definitions.hpp" for g in comm_groups],
        source="spec/bindings/*.yaml",
    )
    # The communicator's calls that create one: a communicator with plugins keeps them there.
    creating = [b for b in spec.bindings if b.receiver == "comm" and any(p.name == "new_comm" for p in b.regular.params)]
    out["include/nampi/generated/keep_plugins.hpp"] = env.get_template("keep_plugins.hpp.j2").render(
        calls=[{"name": b.name, "member": b.member, "source": b.source} for b in sorted(creating, key=lambda b: b.member)]
    )
    plugins = load_plugins(root, spec.parameters, {b.name for b in spec.bindings})
    for plugin in plugins:
        out[f"include/nampi/generated/plugins/{plugin.name}.hpp"] = env.get_template("plugin.hpp.j2").render(
            p=plugin_view(plugin)
        )
        out[f"docs/plugins/{plugin.name}.md"] = env.get_template("plugin_doc.md.j2").render(
            p=plugin_doc_view(plugin, spec.parameters)
        )
    # One test program per blocking call and its variants: fewer programs to compile and launch.
    on_range = {b.name for backend in backends for b in provided_bindings(backend, spec.bindings, mpi_functions)
                if backend.provides is not None}
    for base in sorted({b.base for b in spec.bindings}):
        family = [b for b in spec.bindings if b.base == base]
        views = [calltests.test_view(b, on_range=b.name in on_range) for b in family]
        out[f"tests/test_{base}.cpp"] = env.get_template("call_test.cpp.j2").render(
            source=family[0].source,
            names=[b.name for b in family],
            bindings=views,
            on_range=any(v["on_range"] for v in views),
            nonblocking=any(b.returns_before_completion for b in family),
        )
    for group in groups:
        members = [b for b in spec.bindings if b.group == group]
        view = misuse.misuse_view(members)
        if view["bindings"]:
            out[f"tests/safety/test_misuse_{group}.cpp"] = env.get_template("misuse_test.cpp.j2").render(
                group=group, source=f"spec/bindings/{group}.yaml", **view
            )
        for binding in members:
            for form in binding.forms:
                for case in misuse.element_type_cases(binding, form):
                    out[f"tests/compile_fail/{case['file']}.cpp"] = env.get_template("misuse_compile_fail.cpp.j2").render(**case)
    for binding in spec.bindings:
        out[f"docs/{binding.name}.md"] = env.get_template("call_doc.md.j2").render(**calltests.doc_view(binding))
    out.update(render_call_index(env, spec.bindings, plugins))
    out.update(render_pmpi(env, mpi_functions))
    typed = typed_plan(mpi_functions, callbacks)  # one model for the headers and the reference pages
    out.update(render_typed(env, typed))
    records = availability.load(root / "spec", root, mpi_functions)
    out["include/nampi/generated/config_fallback.h"] = availability.render_config_fallback(env, records)
    out.update(render_variants(env, spec.bindings, records, mpi_functions))
    out.update(render_coverage(env, mpi_functions, callbacks, {b.mpi for b in spec.bindings}, records))
    out.update(render_reference(env, mpi_functions, typed, {b.name: b.mpi for b in spec.bindings}, records,
                                {b.name: b.written for b in spec.bindings}))
    return out
