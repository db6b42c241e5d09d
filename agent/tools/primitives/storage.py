"""Storage primitives: create-note, create-collection, load, save, persist, add, remove, size."""

from __future__ import annotations

from pydantic import Field, JsonValue

from agent.infospace import Collection, InfospaceError, number_of
from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.primitives.common import (
    CollectionRef,
    NoteContent,
    NoteRef,
    ResourceRef,
    collection_result,
    note_result,
)
from agent.tools.result import ToolResult


class CreateNoteArgs(ArgsModel):
    content: NoteContent = Field(description="the text or JSON value to keep")


def create_note(ctx: ToolContext, a: CreateNoteArgs) -> ToolResult:
    return note_result(ctx.infospace.store.create_note(a.content))


class CreateCollectionArgs(ArgsModel):
    notes: list[str] = Field([], description="existing notes, by Note_N or $name, in order")
    items: list[JsonValue] = Field([], description="values to store as new notes, appended after `notes`")


def create_collection(ctx: ToolContext, a: CreateCollectionArgs) -> ToolResult:
    """Existing notes (by reference) first, then a new note for each item."""
    space = ctx.infospace
    found = [space.note(ref) for ref in a.notes] + [space.store.create_note(item) for item in a.items]
    collection = space.store.create_collection([number_of(n) for n in found])
    return collection_result(collection, found)


class LoadArgs(ArgsModel):
    target: ResourceRef
    start: int | None = Field(None, description="first position to include (default: the start)")
    end: int | None = Field(None, description="position to stop before (default: the end)")


def load(ctx: ToolContext, a: LoadArgs) -> ToolResult:
    """A note's content or a collection's notes; start/end slice them the way Python slices."""
    space = ctx.infospace
    found = space.resource(a.target)
    if isinstance(found, Collection):
        notes = space.notes_of(found)[a.start:a.end]
        return collection_result(found, notes)
    content = found.content
    if a.start is None and a.end is None:
        return note_result(found)
    if not isinstance(content, (str, list)):
        message = f"{found.id} holds a JSON object; start/end slice text, lists and collections"
        raise InfospaceError("wrong_kind", message)
    return ToolResult.success(content[a.start:a.end], resource_id=found.id)


class SaveArgs(ArgsModel):
    target: NoteRef
    content: NoteContent = Field(description="the new text or JSON value")


def save(ctx: ToolContext, a: SaveArgs) -> ToolResult:
    """Replaces a note's content; its id, name and collections stay."""
    space = ctx.infospace
    note = space.note(a.target)
    return note_result(space.store.update_note(number_of(note), a.content))


class PersistArgs(ArgsModel):
    name: str = Field(description="the binding to keep, with or without the leading $")


def persist(ctx: ToolContext, a: PersistArgs) -> ToolResult:
    """Keeps a $name binding beyond the plan and the session (the leading $ is optional)."""
    name = a.name.removeprefix("$")
    resource_id = ctx.infospace.persist(name)
    return ToolResult.success({"name": name, "resource_id": resource_id}, f"${name} = {resource_id}, kept", resource_id)


class MemberArgs(ArgsModel):
    """add and remove: a note put in or taken out of a collection."""

    collection: CollectionRef
    note: NoteRef


def add(ctx: ToolContext, a: MemberArgs) -> ToolResult:
    space = ctx.infospace
    target, item = space.collection(a.collection), space.note(a.note)
    updated = space.store.append(number_of(target), number_of(item))
    return collection_result(updated, space.notes_of(updated))


def remove(ctx: ToolContext, a: MemberArgs) -> ToolResult:
    """Takes the note out of the collection (every occurrence); the note itself stays."""
    space = ctx.infospace
    target, item = space.collection(a.collection), space.note(a.note)
    if space.store.remove(number_of(target), number_of(item)) == 0:
        raise InfospaceError("not_found", f"{item.id} is not in {target.id}")
    updated = space.store.collection(number_of(target))
    return collection_result(updated, space.notes_of(updated))


class SizeArgs(ArgsModel):
    target: ResourceRef


def size(ctx: ToolContext, a: SizeArgs) -> ToolResult:
    """Notes in a collection, characters of text, items of a list, keys of an object."""
    found = ctx.infospace.resource(a.target)
    if isinstance(found, Collection):
        return ToolResult.success(len(found.note_ids), f"{found.label()}: {len(found.note_ids)} notes")
    content = found.content
    if not isinstance(content, (str, list, dict)):
        raise InfospaceError("wrong_kind", f"{found.id} holds a single value ({content!r}); it has no size")
    unit = {str: "characters", list: "items", dict: "keys"}[type(content)]
    return ToolResult.success(len(content), f"{found.label()}: {len(content)} {unit}")
