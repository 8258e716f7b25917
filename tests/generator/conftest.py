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
    """The generated code of a group of calls: each family's declarations (include/nampi/
    generated/<group>/<family>.hpp) and definitions (include/nampi/calls/<family>.hpp), one family
    after another. `files` is a build's {path: text} or a generated/ folder."""
    prefix = f"include/nampi/generated/{group}/"
    if isinstance(files, Path):
        files = {str(p.relative_to(files)): p.read_text() for p in sorted((files / prefix).glob("*.hpp"))} | {
            str(p.relative_to(files)): p.read_text() for p in sorted((files / "include/nampi/calls").glob("*.hpp"))
        }
    families = sorted(name.removeprefix(prefix) for name in files if name.startswith(prefix))
    return "".join(files[prefix + f] + files.get(f"include/nampi/calls/{f}", "") for f in families)
