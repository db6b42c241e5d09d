"""What the primitives share: the common fields of their arguments models, turning notes and
collections into results, and fetching members."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, JsonValue, WithJsonSchema

from agent.infospace import Collection, Note, number_of
from agent.infospace.models import preview
from agent.tools.interfaces import ToolContext
from agent.tools.result import ToolResult

# How much of each note a result's display string shows, and how many notes of a collection.
NOTE_PREVIEW_CHARS, ITEM_PREVIEW_CHARS, ITEMS_SHOWN = 300, 80, 5


# What the arguments name, in the words the planner reads.
NoteRef = Annotated[str, Field(description="a note: Note_N or $name")]
CollectionRef = Annotated[str, Field(description="a collection: Collection_N or $name")]
ResourceRef = Annotated[str, Field(description="a note or collection: Note_N, Collection_N or $name")]
FieldPath = Annotated[str, Field(description="a field path: data.FIELD[.FIELD...], name or id")]
# A note's content: any JSON value but null, which a note cannot hold (the store refuses it).
NoteContent = Annotated[JsonValue, WithJsonSchema({"type": ["string", "object", "array", "number", "boolean"]})]


def note_result(note: Note) -> ToolResult:
    return ToolResult.success(note.content, f"{note.label()}: {preview(note.content, NOTE_PREVIEW_CHARS)}", note.id)


def collection_result(collection: Collection, notes: list[Note]) -> ToolResult:
    """Data is every note as {id, content[, name]}; the display shows the first few."""
    shown = "; ".join(f"{n.id}: {preview(n.content, ITEM_PREVIEW_CHARS)}" for n in notes[:ITEMS_SHOWN])
    more = f"; … {len(notes) - ITEMS_SHOWN} more" if len(notes) > ITEMS_SHOWN else ""
    count = f"{len(notes)} note" + ("" if len(notes) == 1 else "s")
    value = f"{collection.label()}, {count}" + (f": {shown}{more}" if notes else "")
    return ToolResult.success([n.as_item() for n in notes], value, collection.id)


def new_collection(ctx: ToolContext, notes: list[Note]) -> ToolResult:
    """A new collection of `notes` (existing notes, not copies), as a result."""
    collection = ctx.infospace.store.create_collection([number_of(n) for n in notes])
    return collection_result(collection, notes)


def members(ctx: ToolContext, ref: str) -> list[Note]:
    """The notes of the collection `ref` names, in order."""
    space = ctx.infospace
    return space.notes_of(space.collection(ref))
