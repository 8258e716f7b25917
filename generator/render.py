"""The Jinja2 environment: strict and whitespace-controlled, its compiled templates cached."""

from __future__ import annotations

from pathlib import Path

import jinja2

from . import cache


def make_environment(template_dir: Path) -> jinja2.Environment:
    compiled = cache.folder("jinja")  # the templates compiled to bytecode, reused between runs
    env = jinja2.Environment(
        bytecode_cache=jinja2.FileSystemBytecodeCache(str(compiled)) if compiled else None,
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    return env
