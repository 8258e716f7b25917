"""Nothing of the project refers to a path outside it (the papers are cited by title and
authors), and every relative link of a Markdown file leads to a file of the project."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`]*`")


def prose_lines(text: str):
    """(line number, line without code spans) outside fenced code blocks."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            yield n, CODE_SPAN.sub("", line)


def tracked() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / n for n in names.splitlines() if (ROOT / n).is_file()]


def test_no_file_names_the_shared_folder_beside_the_checkout():
    hits = []
    for path in tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if "../shared" in line and path.name != "test_paths.py":
                hits.append(f"{path.relative_to(ROOT)}:{n}")
    assert hits == []


def test_markdown_links_stay_in_the_project():
    outside, missing = [], []
    for path in tracked():
        if path.suffix != ".md":
            continue
        for n, line in prose_lines(path.read_text(encoding="utf-8")):
            for target in LINK.findall(line):
                file = (path.parent / target.split("#")[0]).resolve()
                where = f"{path.relative_to(ROOT)}:{n}: {target}"
                if ROOT not in file.parents and file != ROOT:
                    outside.append(where)
                elif not file.exists():
                    missing.append(where)
    assert outside == []
    assert missing == []
