"""build/generator-cache/ (generator/cache.py): a second run formats nothing again and gives
byte-identical files; a changed input misses the cache."""

from __future__ import annotations

import shutil
import subprocess

from conftest import REPO

from generator import cache, write
from generator.__main__ import build


def test_a_warm_run_reuses_clang_format_and_matches(tmp_path, monkeypatch):
    for folder in ("spec", "templates", "runtime"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    shutil.copy(REPO / ".clang-format", tmp_path / ".clang-format")
    monkeypatch.setenv("NAMPI_GENERATOR_CACHE", str(tmp_path / "build" / "generator-cache"))
    # Earlier tests of this process formatted the same files: start from none, and give the
    # others their in-process entries back afterwards.
    monkeypatch.setattr(write, "_formatted_cache", {})
    try:
        first = build(tmp_path)
        assert any((tmp_path / "build" / "generator-cache" / "format").rglob("*"))
        monkeypatch.setattr(write, "_formatted_cache", {})  # as in a new process: only the disk is left

        def no_clang_format(*args, **kwargs):
            raise AssertionError(f"clang-format ran again: {args}")

        monkeypatch.setattr(subprocess, "run", no_clang_format)
        assert build(tmp_path) == first
    finally:
        cache.use(None)


def test_keys_cover_every_input():
    base = cache.key(b"clang-format", b"style", b"a.hpp", b"text")
    assert base != cache.key(b"clang-format", b"style", b"a.hpp", b"text2")
    assert base != cache.key(b"clang-format", b"style2", b"a.hpp", b"text")
    # Lengths are part of the key: moving a byte between parts changes it.
    assert cache.key(b"ab", b"c") != cache.key(b"a", b"bc")
