"""The one error type of the generator: a spec problem with its file and line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Where:
    """A position in a spec file (line is 1-based)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class SpecError(Exception):
    """Raised for anything wrong in spec/; printed as `file:line: message`."""

    def __init__(self, where: Where | None, message: str):
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)
