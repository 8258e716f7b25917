"""JSON-Schema validation of loaded spec files, reported as `file:line: message`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from . import cache
from .errors import SpecError
from .yamlload import where_of


def load_schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _locate(data: object, path: list) -> object:
    """Position of the deepest node along a jsonschema error path."""
    node, where = data, getattr(data, "where", None)
    for key in path:
        where = where_of(node, key) or where
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return where


def validate(data: object, schema: dict, display_name: str) -> None:
    """Raise SpecError for the first schema violation (in a stable order). A file that passed
    with this schema before (cache.py: same data, same schema) is not checked again."""
    entry = cache.key(json.dumps(schema, sort_keys=True).encode(), json.dumps(data, sort_keys=True, default=str).encode())
    if cache.get("schema", entry) is not None:
        return
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if not errors:
        cache.put("schema", entry, "valid\n")
        return
    best = jsonschema.exceptions.best_match(errors)
    where = _locate(data, list(best.absolute_path))
    path = ".".join(str(p) for p in best.absolute_path)
    raise SpecError(where, f"{path + ': ' if path else ''}{best.message}")
