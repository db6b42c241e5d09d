"""Notes and Collections: the agent's memory, as plain serializable data."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

NOTE_PREFIX = "Note_"
COLLECTION_PREFIX = "Collection_"
_ID = re.compile(r"(Note|Collection)_([1-9][0-9]{0,17})")

# A binding name as the planner writes it after `$`.
NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_-]{0,63}"

ResourceKind = Literal["note", "collection"]


def note_id(number: int) -> str:
    return f"{NOTE_PREFIX}{number}"


def collection_id(number: int) -> str:
    return f"{COLLECTION_PREFIX}{number}"


def parse_id(text: str) -> tuple[ResourceKind, int] | None:
    """("note", 12) for "Note_12", ("collection", 3) for "Collection_3", None for anything else."""
    match = _ID.fullmatch(text)
    if match is None:
        return None
    return ("note" if match[1] == "Note" else "collection"), int(match[2])


def preview(value: Any, limit: int) -> str:
    """`value` as one display string of at most about `limit` characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more chars)"


class Note(BaseModel):
    """Text, or a JSON value (usually an object), persisted under an id such as Note_12."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^Note_[1-9][0-9]*$")
    name: str | None = None
    content: JsonValue

    @property
    def is_text(self) -> bool:
        return isinstance(self.content, str)

    def label(self) -> str:
        return f"{self.id} ({self.name})" if self.name else self.id

    def as_item(self) -> dict[str, Any]:
        """What a collection's raw data holds for this note."""
        item: dict[str, Any] = {"id": self.id, "content": self.content}
        if self.name:
            item["name"] = self.name
        return item


class Collection(BaseModel):
    """An ordered list of notes (a note may appear more than once), under an id such as Collection_3."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^Collection_[1-9][0-9]*$")
    name: str | None = None
    note_ids: tuple[str, ...] = ()

    def label(self) -> str:
        return f"{self.id} ({self.name})" if self.name else self.id
