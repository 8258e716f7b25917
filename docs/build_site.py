#!/usr/bin/env python3
"""Build the documentation site: `make docs` runs this.

Stages the pages into build/docs/src with the same relative paths as in the repository
(README.md as the home page, docs/*.md, generated/docs/**, bench/README.md and the bench
figures), so a link that works on GitHub works on the site, then runs `mkdocs build --strict`
with docs/mkdocs.yml into build/docs/site. A broken link, a missing page or an unknown anchor
fails the build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "docs" / "src"
# (folder or file, glob) pairs staged; everything else of the repository stays out.
PAGES = [
    ("README.md", None),
    ("docs", "*.md"),
    ("generated/docs", "**/*.md"),
    ("bench/README.md", None),
    ("bench/results", "**/*.png"),
]


def stage() -> int:
    if STAGE.exists():
        shutil.rmtree(STAGE)
    count = 0
    for path, pattern in PAGES:
        source = ROOT / path
        files = [source] if pattern is None else sorted(source.glob(pattern))
        for f in files:
            target = STAGE / f.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, target)
            count += 1
    return count


def main() -> int:
    count = stage()
    print(f"docs: {count} files staged in {STAGE.relative_to(ROOT)}")
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-f", str(ROOT / "docs" / "mkdocs.yml")]
    # Material's notice of its successor is advice, not a finding of this build.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(mkdocs, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
