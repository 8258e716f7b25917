"""A content-addressed cache of the generator's deterministic steps (clang-format of one
file, the schema check of one spec file), kept under build/generator-cache/ between runs.
Each entry is keyed by the hash of everything its result depends on, so a stale entry
cannot be hit; deleting the folder (make clean) only costs the next run its time."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_directory: Path | None = None


def use(directory: Path | None) -> None:
    """Where entries live (None: no cache, e.g. in the generator's own tests)."""
    global _directory
    _directory = directory


def folder(kind: str) -> Path | None:
    """A folder of its own for a tool that keeps its own cache files (Jinja's bytecode)."""
    if _directory is None:
        return None
    path = _directory / kind
    path.mkdir(parents=True, exist_ok=True)
    return path


def key(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _path(kind: str, entry: str) -> Path | None:
    return None if _directory is None else _directory / kind / entry[:2] / entry


def get(kind: str, entry: str) -> str | None:
    path = _path(kind, entry)
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def put(kind: str, entry: str, text: str) -> None:
    path = _path(kind, entry)
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)  # atomic: two runs at once never read half an entry
