"""Shared fixtures of the generator tests: the repository's own spec, loaded once."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from generator.pipeline import load_spec  # noqa: E402

# Every build of a temporary copy shares the checkout's generator cache (content-addressed:
# a copy's files format exactly as the checkout's do), so each is not formatted again.
os.environ.setdefault("NAMPI_GENERATOR_CACHE", str(REPO / "build" / "generator-cache"))


@pytest.fixture(scope="session")
def repo_spec():
    """The bindings' spec of this repository (spec/)."""
    return load_spec(REPO)[0]


def binding_named(spec, name: str):
    return next(b for b in spec.bindings if b.name == name)


def group_calls(files, group: str) -> str:
    """The generated code of a group of calls: its family headers (include/nampi/generated/
    <group>/<family>.hpp), one after another. `files` is a build's {path: text} or a generated/
    folder."""
    prefix = f"include/nampi/generated/{group}/"
    if isinstance(files, Path):
        return "".join(p.read_text() for p in sorted((files / prefix).glob("*.hpp")))
    return "".join(text for name, text in sorted(files.items()) if name.startswith(prefix))
