"""Stages 4-5: format with the pinned clang-format, stamp each file's own hash, and
write. Everything is produced in memory first; files are written only if the
whole run succeeded, and unchanged files are left untouched."""

from __future__ import annotations

import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import cache

CPP_SUFFIXES = (".hpp", ".cpp", ".h", ".c")


def clang_format_binary() -> str:
    """The clang-format of the project's venv (pinned in generator/requirements.txt)."""
    candidate = Path(sys.executable).parent / "clang-format"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("clang-format")
    if not found:
        raise RuntimeError("clang-format not found; run `make generate` (it installs the pinned one)")
    return found


# Formatted text by (clang-format, .clang-format, file name, unformatted text), in this
# process (the generator's tests build the tree many times) and on disk (cache.py: a
# repeated `make generate` formats only the files whose text changed). clang-format is
# deterministic, so the cache returns exactly what running it again would.
_formatted_cache: dict[str, str] = {}


def _clang_format_version() -> bytes:
    """The pinned clang-format package's version (generator/requirements.txt), if installed."""
    try:
        return importlib.metadata.version("clang-format").encode()
    except importlib.metadata.PackageNotFoundError:
        return b"unknown"


def _format_key(binary: str, style: bytes, name: str, text: str) -> str:
    return cache.key(binary.encode(), _clang_format_version(), style, name.encode(), text.encode("utf-8"))


def format_cpp(files: dict[str, str], root: Path) -> dict[str, str]:
    """Formats every C/C++ file, those not formatted before in one clang-format run (in a temp dir)."""
    names = sorted(n for n in files if n.endswith(CPP_SUFFIXES))
    if not names:
        return dict(files)
    binary = clang_format_binary()
    style = (root / ".clang-format").read_bytes()
    keys = {name: _format_key(binary, style, name, files[name]) for name in names}
    for name in names:
        if keys[name] not in _formatted_cache and (hit := cache.get("format", keys[name])) is not None:
            _formatted_cache[keys[name]] = hit
    todo = [name for name in names if keys[name] not in _formatted_cache]
    if todo:
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            (tmp_path / ".clang-format").write_bytes(style)
            for name in todo:
                target = tmp_path / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(files[name], encoding="utf-8")
            subprocess.run([binary, "-i", *todo], cwd=tmp_path, check=True)
            for name in todo:
                _formatted_cache[keys[name]] = (tmp_path / name).read_text(encoding="utf-8")
                cache.put("format", keys[name], _formatted_cache[keys[name]])
    formatted = dict(files)
    for name in names:
        formatted[name] = _formatted_cache[keys[name]]
    return formatted


def stamp(files: dict[str, str]) -> dict[str, str]:
    """Puts a first line with the hash of the file's own (formatted) content and the
    regenerate command: a file changes only when its content does, so a one-call spec
    edit touches only the files of that call, and an edit by hand shows as a hash
    that no longer matches (make check-generated says which files drifted)."""
    out = {}
    for name, text in files.items():
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        comment = "#" if name.endswith(".cmake") else ("<!--" if name.endswith(".md") else "//")
        line = f"content sha256:{digest}; regenerate with `make generate`"
        line = f"<!-- {line} -->" if comment == "<!--" else f"{comment} {line}"
        out[name] = line + "\n" + text
    return out


def write_tree(files: dict[str, str], out_dir: Path) -> list[str]:
    """Writes files under out_dir, removes generated files no longer produced,
    and returns the paths that changed."""
    changed = []
    existing = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file()} if out_dir.exists() else set()
    for name in sorted(files):
        target = out_dir / name
        data = files[name].encode("utf-8")
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
        changed.append(name)
    for stale in sorted(existing - set(files)):
        (out_dir / stale).unlink()
        changed.append(stale)
    return changed


def diff_tree(files: dict[str, str], out_dir: Path) -> list[str]:
    """Paths whose content differs from files (missing, changed or stale)."""
    existing = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file()} if out_dir.exists() else set()
    diffs = [n for n in sorted(files) if not (out_dir / n).exists() or (out_dir / n).read_text(encoding="utf-8") != files[n]]
    return diffs + sorted(existing - set(files))
