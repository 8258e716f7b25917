"""spec-check: compare the curated `spec/mpi/` with the MPI Forum's apis.json.

Every entry (functions, callback typedefs, predefined functions) is compared field by field
and parameter by parameter. Every difference has a key that names it:

    MPI_X                             not a C function in apis.json
    MPI_X.callback, MPI_X.implements  typedef or predefined function marker
    MPI_X.returns                     return kind or C type
    MPI_X.params                      the parameter names (or their order)
    MPI_X.params.<param>.<field>      kind, c_type, dir, length, root_only, large_only
    MPI_X.large_count                 one side has a _c twin, the other has not
    MPI_X.large_count.params.<param>  a C type of the _c twin

A difference is fine when `spec/mpi/deviations.yaml` maps its key to a reason. The check also
reports deviations that match no difference, so fixed Forum errors do not linger, and entries of
apis.json that the spec lacks. Curated fields (`introduced`, `deprecated`, `removed`, `note`,
`implementations`) are not compared: apis.json has none. The summary line counts the compared
entries, their parameters, the listed deviations and the unexplained problems.
"""

from __future__ import annotations

from pathlib import Path

from .errors import SpecError, Where
from dataclasses import dataclass, field

from .forum import FORUM_MARKERS, PARAM_KEY_ORDER, ForumData, entry_of, forum_part
from .mpi_spec import DEVIATIONS_FILE, MpiFunction, load_mpi_entries
from .yamlload import LocatedDict, load_yaml, where_of


def _show(value: object) -> str:
    return "(none)" if value is None else repr(value)


def differences(function: MpiFunction, forum_entry: dict | None) -> list[tuple[str, Where, str]]:
    """(key, where, message) for each way `function` differs from its apis.json entry."""
    name = function.name
    if forum_entry is None:
        return [(name, function.where, "not a C function in apis.json")]
    ours, theirs = forum_part(entry_of(function)), forum_part(forum_entry)
    result = []
    for marker in FORUM_MARKERS:
        if ours.get(marker) != theirs.get(marker):
            result.append((f"{name}.{marker}", function.where, f"spec has {_show(ours.get(marker))}, apis.json has {_show(theirs.get(marker))}"))
    if ours.get("returns") != theirs.get("returns"):
        result.append((f"{name}.returns", function.where, f"spec has {_show(ours.get('returns'))}, apis.json has {_show(theirs.get('returns'))}"))
    our_names = [p["name"] for p in ours["params"]]
    their_names = [p["name"] for p in theirs["params"]]
    if our_names != their_names:
        result.append((f"{name}.params", function.where, f"spec has parameters {our_names}, apis.json has {their_names}"))
    else:
        for param, ours_p, theirs_p in zip(function.all_params, ours["params"], theirs["params"]):
            for key in PARAM_KEY_ORDER[1:]:
                if ours_p.get(key) != theirs_p.get(key):
                    result.append((
                        f"{name}.params.{param.name}.{key}",
                        param.where or function.where,
                        f"spec has {_show(ours_p.get(key))}, apis.json has {_show(theirs_p.get(key))}",
                    ))
    our_lc, their_lc = ours.get("large_count"), theirs.get("large_count")
    if (our_lc is None) != (their_lc is None):
        result.append((
            f"{name}.large_count",
            function.where,
            f"spec {'has' if our_lc else 'has no'} {name}_c twin, apis.json {'has' if their_lc else 'has none'}",
        ))
    elif our_lc is not None:
        lc_where = dict(function.large_count_where)
        for pname in sorted(set(our_lc["params"]) | set(their_lc["params"]), key=lambda p: (our_names.index(p) if p in our_names else len(our_names), p)):
            a, b = our_lc["params"].get(pname), their_lc["params"].get(pname)
            if a != b:
                where = lc_where.get(pname, function.where)
                result.append((f"{name}.large_count.params.{pname}", where, f"_c twin: spec has {_show(a)}, apis.json has {_show(b)}"))
    return result


def load_deviations(spec_dir: Path, display_root: Path) -> dict[str, Where]:
    """spec/mpi/deviations.yaml: {difference key: reason}; returns {key: where}. Missing file = empty."""
    path = spec_dir / "mpi" / DEVIATIONS_FILE
    display_name = path.relative_to(display_root).as_posix() if path.is_relative_to(display_root) else path.name
    if not path.exists():
        return {}
    data = load_yaml(path, display_name)
    if data is None:
        return {}
    if not isinstance(data, LocatedDict):
        raise SpecError(Where(display_name, 1), "expected a mapping of difference keys to reasons")
    result = {}
    for key, reason in data.items():
        if not isinstance(key, str) or not isinstance(reason, str) or not reason.strip():
            raise SpecError(where_of(data, key), f"{key}: expected a difference key with a non-empty reason string")
        result[key] = where_of(data, key)
    return result


@dataclass
class Report:
    functions: int = 0  # entries compared (functions, callback typedefs, predefined functions)
    parameters: int = 0  # their parameters (large_only ones included)
    deviations: int = 0  # entries of deviations.yaml
    problems: list[str] = field(default_factory=list)  # `file:line: message`, each unexplained

    def summary(self) -> str:
        return (f"spec-check: {self.functions} functions, {self.parameters} parameters, "
                f"{self.deviations} listed deviations, {len(self.problems)} unexplained")


def check(spec_dir: Path, display_root: Path | None = None, *, forum: ForumData | None = None,
          report_missing: bool = True) -> Report:
    """Compare spec_dir/mpi/ with apis.json; `report_missing` also reports what the spec lacks."""
    display_root = display_root or spec_dir.parent
    report = Report()
    try:
        entries = load_mpi_entries(spec_dir, display_root)
        allowed = load_deviations(spec_dir, display_root)
    except SpecError as err:
        report.problems.append(str(err))
        return report
    forum = forum or ForumData()
    report.deviations = len(allowed)
    seen: set[str] = set()
    for function in entries.values():
        report.functions += 1
        report.parameters += len(function.all_params)
        entry = forum.entry(function.name) if forum.has(function.name) else None
        for key, where, message in differences(function, entry):
            seen.add(key)
            if key not in allowed:
                report.problems.append(f"{where}: {key}: {message}")
    for key, where in allowed.items():
        if key not in seen:
            report.problems.append(f"{where}: {key}: listed as a deviation, but spec/mpi/ and apis.json agree here (remove the entry)")
    if report_missing:
        report.problems += [
            f"{name}: in apis.json but not in spec/mpi/ (run `python -m generator import-standard`)"
            for name in forum.names() + forum.callback_names() if name not in entries
        ]
    return report


def spec_check(spec_dir: Path, display_root: Path | None = None, *, forum: ForumData | None = None,
               report_missing: bool = False) -> list[str]:
    """Problems found, as `file:line: message` lines; empty when the spec agrees with apis.json."""
    return check(spec_dir, display_root, forum=forum, report_missing=report_missing).problems
