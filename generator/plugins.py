"""spec/plugins/<name>.yaml: a plugin's named parameters and calls. Their factories, ids, call
tags and compile-time checks are generated like the core's (templates/plugin.hpp.j2); the
plugin's members and algorithm are hand-written (runtime/include/nampi/plugins/<name>.hpp)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .checks import generic_check, op_checks
from .errors import SpecError
from .factories import factories
from .model import Parameter
from .schema import load_schema, validate
from .yamlload import load_yaml, where_of


@dataclass(frozen=True)
class PluginCall:
    name: str  # the spec's key: unique among all calls (it names the call tag and check struct)
    doc: str
    params: tuple  # (name, required, doc, id) in the spec's order
    label: str = ""  # how messages name it (`member (member_of)`); the key if empty
    element: str | None = None  # the buffer whose elements its op combines (op checks)

    @property
    def said(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class Plugin:
    name: str
    doc: str
    source: str  # spec/plugins/<name>.yaml
    parameters: dict  # name -> Parameter (its own)
    calls: tuple  # PluginCall
    header: str  # what users include, e.g. nampi/plugins/<name>.hpp

    @property
    def id_enum(self) -> str:
        return f"plugins::{self.name}_params"


def load_plugins(root: Path, core_parameters: dict[str, Parameter], core_calls: set[str]) -> list[Plugin]:
    """Every spec/plugins/*.yaml, checked: a plugin's parameter or factory may not reuse a name
    of the core's or of another plugin's, nor a call a core call's name; a call takes only
    parameters that exist."""
    folder = root / "spec" / "plugins"
    if not folder.is_dir():
        return []
    schema = load_schema(root / "spec" / "schema" / "plugin.schema.json")
    factory_owner = {f: f"spec/parameters.yaml ({p.name})" for p in core_parameters.values() for f in p.factories.values()}
    param_owner = {name: "spec/parameters.yaml" for name in core_parameters}
    call_owner = {name: "a core call (spec/bindings)" for name in core_calls}
    plugins = []
    for path in sorted(folder.glob("*.yaml")):
        rel = f"spec/plugins/{path.name}"
        data = load_yaml(path, rel)
        validate(data, schema, rel)
        name = path.stem
        own = {}
        declared = data.get("parameters", {})
        for pname in sorted(declared):
            entry = declared[pname]
            where = where_of(declared, pname)
            if pname in param_owner:
                raise SpecError(where, f"parameter '{pname}' is declared in {param_owner[pname]} already")
            for fname in entry["factories"].values():
                if fname in factory_owner:
                    raise SpecError(where, f"{pname}: factory name '{fname}' is {factory_owner[fname]}'s already")
                factory_owner[fname] = f"{rel} ({pname})"
            param_owner[pname] = rel
            own[pname] = Parameter(
                name=pname, doc=entry["doc"], to_mpi="value", array=False, storage=None,
                omitted_storage=None, factories=dict(entry["factories"]), where=where, takes=entry.get("takes"),
            )
        calls = []
        for cname, entry in data["calls"].items():
            where = where_of(data["calls"], cname)
            if cname in call_owner:
                raise SpecError(where, f"call '{cname}' is {call_owner[cname]} already")
            call_owner[cname] = rel
            params = []
            for pname, p in entry["params"].items():
                if pname in own:
                    pid = f"nampi::plugins::{name}_params::{pname}"
                elif pname in core_parameters:
                    pid = f"nampi::param_id::{pname}"
                else:
                    raise SpecError(where_of(entry["params"], pname), f"{cname}: unknown parameter '{pname}' (not in spec/parameters.yaml nor in this plugin's parameters)")
                params.append((pname, bool(p.get("required")), p.get("doc"), pid))
            # A member named like a core call (a grid communicator's alltoallv) keeps a unique
            # key for its tag and check; its messages say the member's name and whose it is.
            label = ""
            if "member" in entry:
                label = entry["member"] + (f" ({entry['member_of']})" if "member_of" in entry else "")
            element = entry.get("element")
            pids = {pname: pid for pname, _, _, pid in params}
            if element is not None and (element not in pids or "op" not in pids):
                raise SpecError(where_of(entry, "element"), f"{cname}: 'element' names the buffer its op combines: the call needs that parameter and 'op'")
            calls.append(PluginCall(cname, entry["doc"], tuple(params), label, element and pids[element]))
        header = data.get("header", f"nampi/plugins/{name}.hpp")
        plugins.append(Plugin(name, data["doc"], rel, own, tuple(calls), header))
    return plugins


def _checks(call: PluginCall) -> list[dict]:
    """The generic check a core call has for its arguments (its diagnostics name the call and
    the parameter: nampi/detail/check_call.hpp), and the op's where the call combines elements."""
    out = [generic_check(f"nampi::call::{call.name}")]
    if call.element:
        out += op_checks(call.element, call.said)
    return out


def _about(plugin: Plugin) -> dict:
    """What the header and the page of a plugin both say of it."""
    return {"name": plugin.name, "doc": plugin.doc, "source": plugin.source, "header": plugin.header}


def plugin_view(plugin: Plugin) -> dict:
    return {
        **_about(plugin),
        "parameters": list(plugin.parameters.values()),
        # What the checks use beyond parameter.hpp and taken.hpp.
        "includes": ["nampi/detail/op_checks.hpp"] if any(c.element for c in plugin.calls) else [],
        "factories": factories(plugin.parameters, plugin.id_enum, plugin.source),
        "calls": [
            {
                "name": c.name,
                "doc": c.doc,
                "params": [{"name": n, "required": r, "doc": d} for n, r, d, _ in c.params],
                "tag": c.name,
                "in_place": False,
                "takes": [pid for *_, pid in c.params],
                "required": [pid for _, required, _, pid in c.params if required],
                "computed_when_serialized": [],
                "serialized": None,  # unchecked: a plugin's call hands its buffers on to checked calls
                "serializable": [],
                "computed_from_serialized": [],
                "buffers": [],
                "written": [],
                "checks": (checks := _checks(c)),
                "ok_expr": " && ".join(f"c{i}" for i in range(len(checks))),
            }
            for c in plugin.calls
        ],
    }


def _heading(call: PluginCall) -> str:
    """`member(...)`, and the type it is a member of where that is not the communicator."""
    member, _, of = call.said.partition(" (")
    return f"`{member}(...)`" + (f" of the {of.rstrip(')')}" if of else "")


def plugin_doc_view(plugin: Plugin, core_parameters: dict[str, Parameter]) -> dict:
    """The reference page of a plugin (templates/plugin_doc.md.j2): each call's parameters with
    their factories, what they mean (the call's own words, else the parameter's) and whether
    they may be omitted."""
    def row(name: str, required: bool, doc: str | None) -> dict:
        param = plugin.parameters.get(name) or core_parameters[name]
        return {
            "name": name,
            "factories": ", ".join(f"`{f}()`" for _, f in sorted(param.factories.items())),
            "meaning": doc if doc and required else param.doc,  # a required one: the call's words
            "omitted": "required" if required else (doc or "may be omitted"),
        }

    return {
        **_about(plugin),
        "calls": [
            {"heading": _heading(c), "doc": c.doc, "params": [row(n, r, d) for n, r, d, _ in c.params]}
            for c in plugin.calls
        ],
    }
