"""What the primitives share: turning notes and collections into results, and fetching members."""

from __future__ import annotations

from agent.infospace import Collection, Note, number_of
from agent.infospace.models import preview
from agent.tools.interfaces import ToolContext
from agent.tools.result import ToolResult

# How much of each note a result's display string shows, and how many notes of a collection.
NOTE_PREVIEW_CHARS, ITEM_PREVIEW_CHARS, ITEMS_SHOWN = 300, 80, 5


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
