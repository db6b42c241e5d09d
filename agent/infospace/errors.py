"""The one exception infospace operations raise for an expected failure."""

from __future__ import annotations

from typing import Literal

# What a caller can branch on; the executor passes it on as the failed result's code.
InfospaceCode = Literal["not_found", "bad_ref", "wrong_kind", "bad_value"]


class InfospaceError(Exception):
    """A reference that names nothing, a value of the wrong kind, a bad query or expression."""

    def __init__(self, code: InfospaceCode, message: str):
        super().__init__(message)
        self.code: InfospaceCode = code
