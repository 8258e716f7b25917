"""Lines of code of the benchmarks' communication parts: nampi.cpp vs mpi.cpp.

A line counts if, after removing comments (`// ...` and `/* ... */`, also spanning lines;
string and character literals are respected), it has any non-blank character.

    .venv/bin/python bench/loc.py          # table of every bench/apps/*/ and bench/micro/*/
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def strip_comments(text: str) -> str:
    """The text with comments replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    state = "code"  # code | line | block | string | char
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if state == "code":
            if c == "/" and nxt == "/":
                state, i = "line", i + 2
                continue
            if c == "/" and nxt == "*":
                state, i = "block", i + 2
                out.append(" ")
                continue
            if c == '"':
                # raw string literal R"delim( ... )delim"
                if i > 0 and text[i - 1] == "R":
                    open_paren = text.find("(", i)
                    delim = text[i + 1 : open_paren]
                    end = text.find(")" + delim + '"', open_paren)
                    end = n if end < 0 else end + len(delim) + 2
                    out.append(text[i:end])
                    i = end
                    continue
                state = "string"
            elif c == "'":
                # digit separator (1'000'000) is not a character literal
                if not (i > 0 and text[i - 1].isalnum() and nxt.isalnum()):
                    state = "char"
            out.append(c)
            i += 1
        elif state == "line":
            if c == "\\" and nxt == "\n":  # continued comment line
                i += 2
                out.append("\n")
                continue
            if c == "\n":
                state = "code"
                out.append(c)
            i += 1
        elif state == "block":
            if c == "*" and nxt == "/":
                state, i = "code", i + 2
                continue
            if c == "\n":
                out.append(c)
            i += 1
        else:  # string or char literal
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(nxt)
                i += 2
                continue
            if (state == "string" and c == '"') or (state == "char" and c == "'") or c == "\n":
                state = "code"
            i += 1
    return "".join(out)


def count_lines(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    return sum(1 for line in strip_comments(text).splitlines() if line.strip())


def folders() -> list[Path]:
    result = []
    for kind in ("micro", "apps"):
        for d in sorted((BENCH / kind).glob("*/")):
            if (d / "nampi.cpp").is_file() and (d / "mpi.cpp").is_file():
                result.append(d)
    return result


def main() -> int:
    rows = []
    for d in folders():
        nampi = count_lines(d / "nampi.cpp")
        mpi = count_lines(d / "mpi.cpp")
        rows.append((f"{d.parent.name}/{d.name}", nampi, mpi, nampi / mpi if mpi else float("nan")))
    width = max([len("benchmark")] + [len(r[0]) for r in rows])
    print(f"| {'benchmark':<{width}} | nampi | mpi | nampi/mpi |")
    print(f"|{'-' * (width + 2)}|------:|----:|----------:|")
    for name, nampi, mpi, ratio in rows:
        print(f"| {name:<{width}} | {nampi:5d} | {mpi:3d} | {ratio:9.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
