"""generated/docs/calls.md (generator/call_index.py): every named-parameter call once, under its
family and its spec file, with its MPI function and a page that exists."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.call_index import call_index_view, first_sentence  # noqa: E402

DOCS = ROOT / "generated" / "docs"
LINK = re.compile(r"\[`(\w+)\.(\w+)`\]\((\w+)\.md\) `(MPI_\w+)`")


def test_every_call_once_with_its_page_and_mpi_function(repo_spec):
    index = (DOCS / "calls.md").read_text(encoding="utf-8")
    listed = Counter((m.group(3), m.group(4)) for m in LINK.finditer(index))
    expected = Counter((b.name, b.mpi) for b in repo_spec.bindings)
    assert listed == expected
    for page, _ in listed:
        assert (DOCS / f"{page}.md").is_file(), page


def test_a_family_is_its_blocking_call_and_its_variants(repo_spec):
    sections = call_index_view(repo_spec.bindings)
    families = {f["base"]: f for s in sections for f in s["families"]}
    assert [f["variant"] for f in families["allgatherv"]["forms"]] == ["blocking", "nonblocking", "persistent"]
    assert [f["page"] for f in families["allgatherv"]["forms"]] == ["allgatherv.md", "iallgatherv.md",
                                                                   "allgatherv_init.md"]
    # Sections by spec file name, titled from it.
    assert [s["group"] for s in sections] == sorted({b.group for b in repo_spec.bindings})
    assert {s["group"]: s["title"] for s in sections}["point_to_point"] == "Point to point"


def test_plugins_are_listed_with_their_pages():
    index = (DOCS / "calls.md").read_text(encoding="utf-8")
    for page in (DOCS / "plugins").glob("*.md"):
        assert f"](plugins/{page.name})" in index


def test_first_sentence():
    assert first_sentence("Sends a buffer (standard mode). Then more.") == "Sends a buffer (standard mode)."
    assert first_sentence("No full stop") == "No full stop"
