"""tests/docs/doc_examples.py: how the documentation's ```cpp blocks become test programs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doc_examples  # noqa: E402
from doc_examples import DocError, blocks_of, programs_of  # noqa: E402

PAGE = """\
# A page

```cpp
int main() { return 0; }
```

<!-- example: declarations -->
```cpp
struct point { double x, y; };
```

```cpp
#include <nampi/plugins/sparse_alltoall.hpp>
point p{1, 2};
```

<!-- example: continues -->
```cpp
p.x += 1;
```

- a list
  ```c++
  int in_a_list = 1;
  ```

<!-- example: compile-only -->
```cpp
MPI_Abort(MPI_COMM_WORLD, 1);
```

<!-- example: compile-error "nampi: recv: name the element type" -->
```cpp
comm.recv(source(0));
```

```sh
echo not C++
```
"""


@pytest.fixture
def page(tmp_path, monkeypatch):
    monkeypatch.setattr(doc_examples, "ROOT", tmp_path)
    path = tmp_path / "docs" / "page.md"
    path.parent.mkdir()
    path.write_text(PAGE, encoding="utf-8")
    return path


def test_kinds_lines_and_continuation(page):
    blocks = blocks_of(page)
    assert [(b.kind, b.line, b.continues) for b in blocks] == [
        ("program", 4, False), ("declarations", 9, False), ("fragment", 13, False), ("fragment", 19, True),
        ("fragment", 24, False), ("compile-only", 29, False), ("compile-error", 34, False)]
    assert blocks[4].code == "int in_a_list = 1;"  # the list's indentation is removed
    assert blocks[-1].expect == "nampi: recv: name the element type"


def test_programs_of_a_page(page):
    programs = {p.name: p for p in programs_of(page)}
    assert sorted(programs) == ["docs_page", "docs_page_34", "docs_page_4"]
    together = programs["docs_page"].source
    # The include is hoisted above everything, the declarations stay at namespace scope, the
    # continued block shares its fragment's function, the compile-only one is never called.
    assert together.index("#include <nampi/plugins/sparse_alltoall.hpp>") < together.index("struct point")
    assert together.index("struct point") < together.index("void nampi_doc_example_2")
    assert '#line 19 "docs/page.md"\np.x += 1;' in together
    assert "nampi_doc_example_2(comm" in together and "nampi_doc_example_3(comm" in together
    assert "nampi_doc_example_4(comm" not in together and "void nampi_doc_example_4" in together
    assert programs["docs_page_4"].kind == "run" and programs["docs_page_4"].source.startswith('#line 4 "docs/page.md"')
    error = programs["docs_page_34"]
    assert error.kind == "error" and "// expect-error: nampi: recv: name the element type" in error.source


@pytest.mark.parametrize("directive, message", [
    ("<!-- example: compile-eror -->", "unknown word 'compile-eror'"),
    ("<!-- example: compile-error -->", 'write compile-error "text the compiler must print"'),
    ("<!-- example: ranks 9 -->", "run examples on 1 to 4 ranks"),
    ("<!-- example: continues -->", "'continues' needs a fragment or declarations block before it"),
])
def test_a_bad_directive_names_its_line(page, directive, message):
    page.write_text(f"text\n\n{directive}\n```cpp\nint x = 0;\n```\n", encoding="utf-8")
    with pytest.raises(DocError, match=rf"docs/page.md:\d+: .*{message}"):
        blocks_of(page)


def test_an_unclosed_block_is_an_error(page):
    page.write_text("```cpp\nint x = 0;\n", encoding="utf-8")
    with pytest.raises(DocError, match="docs/page.md:1: code block never closed"):
        blocks_of(page)
