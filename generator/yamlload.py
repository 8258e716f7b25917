"""YAML loading that remembers where every mapping and list came from.

Mappings load as `LocatedDict` and lists as `LocatedList`; both carry `.where`
(the position of the node) and `.key_where[key]` / `.item_where[i]` for their
children, so every later error can name `file:line`.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from .errors import SpecError, Where


class LocatedDict(dict):
    where: Where
    key_where: dict


class LocatedList(list):
    where: Where
    item_where: list


class _Loader(yaml.SafeLoader):
    """SafeLoader that builds Located containers and rejects duplicate keys."""


def _where(loader: _Loader, node: yaml.Node) -> Where:
    return Where(loader.name_for_errors, node.start_mark.line + 1)


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LocatedDict:
    loader.flatten_mapping(node)
    result = LocatedDict()
    result.where = _where(loader, node)
    result.key_where = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise SpecError(_where(loader, key_node), f"duplicate key '{key}'")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_where[key] = _where(loader, key_node)
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    result = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    result.where = _where(loader, node)
    result.item_where = [_where(loader, child) for child in node.value]
    return result


# The same loader on libyaml's parser (PyYAML's wheels ship it): about five times faster on
# the whole standard. Its error messages differ, so a file it rejects is parsed again with
# _Loader, whose message is the one reported.
_FastLoader = type("_FastLoader", (yaml.CSafeLoader,), {}) if getattr(yaml, "__with_libyaml__", False) else None

for _loader_class in (_Loader, _FastLoader):
    if _loader_class is not None:
        _loader_class.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
        _loader_class.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def _load_with(loader_class: type, text: str, display_name: str) -> object:
    loader = loader_class(text)
    loader.name_for_errors = display_name
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def load_yaml(path: Path, display_name: str) -> object:
    """Load one YAML file; syntax errors become SpecError with file:line."""
    text = path.read_text(encoding="utf-8")
    if _FastLoader is not None:
        try:
            return _load_with(_FastLoader, text, display_name)
        except yaml.YAMLError:
            pass  # reported below, in _Loader's words
    try:
        return _load_with(_Loader, text, display_name)
    except yaml.MarkedYAMLError as err:
        # An unclosed bracket or quote is noticed where parsing gives up, often
        # far below; its opening (the context mark) is where the fix belongs.
        opened = (err.context or "").startswith(("while parsing a flow", "while scanning a quoted"))
        mark = (err.context_mark if opened else None) or err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        noticed = ""
        if opened and err.problem_mark is not None and err.problem_mark.line + 1 != line:
            noticed = f" (noticed at line {err.problem_mark.line + 1})"
        raise SpecError(Where(display_name, line), f"YAML syntax error: {err.context}: {err.problem}{noticed}" if opened else f"YAML syntax error: {err.problem}") from None


def where_of(container: object, key: object) -> Where | None:
    """Position of a child of a located container, falling back to the container."""
    if isinstance(container, LocatedDict):
        return container.key_where.get(key, container.where)
    if isinstance(container, LocatedList) and isinstance(key, int) and key < len(container.item_where):
        return container.item_where[key]
    return getattr(container, "where", None)
