"""Storage primitives: create-note, create-collection, load, save, persist, add, remove, size."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from agent.infospace import Collection, InfospaceError, number_of
from agent.tools.interfaces import ToolContext
from agent.tools.primitives.common import collection_result, note_result
from agent.tools.result import ToolResult


def create_note(ctx: ToolContext, *, content: JsonValue) -> ToolResult:
    return note_result(ctx.infospace.store.create_note(content))


def create_collection(ctx: ToolContext, *, notes: Sequence[str] = (), items: Sequence[JsonValue] = ()) -> ToolResult:
    """Existing notes (by reference) first, then a new note for each item."""
    space = ctx.infospace
    found = [space.note(ref) for ref in notes] + [space.store.create_note(item) for item in items]
    collection = space.store.create_collection([number_of(n) for n in found])
    return collection_result(collection, found)


def load(ctx: ToolContext, *, target: str, start: int | None = None, end: int | None = None) -> ToolResult:
    """A note's content or a collection's notes; start/end slice them the way Python slices."""
    space = ctx.infospace
    found = space.resource(target)
    if isinstance(found, Collection):
        notes = space.notes_of(found)[start:end]
        return collection_result(found, notes)
    content = found.content
    if start is None and end is None:
        return note_result(found)
    if not isinstance(content, (str, list)):
        message = f"{found.id} holds a JSON object; start/end slice text, lists and collections"
        raise InfospaceError("wrong_kind", message)
    return ToolResult.success(content[start:end], resource_id=found.id)


def save(ctx: ToolContext, *, target: str, content: JsonValue) -> ToolResult:
    """Replaces a note's content; its id, name and collections stay."""
    space = ctx.infospace
    note = space.note(target)
    return note_result(space.store.update_note(number_of(note), content))


def persist(ctx: ToolContext, *, name: str) -> ToolResult:
    """Keeps a $name binding beyond the plan and the session (the leading $ is optional)."""
    name = name.removeprefix("$")
    resource_id = ctx.infospace.persist(name)
    return ToolResult.success({"name": name, "resource_id": resource_id}, f"${name} = {resource_id}, kept", resource_id)


def add(ctx: ToolContext, *, collection: str, note: str) -> ToolResult:
    space = ctx.infospace
    target, item = space.collection(collection), space.note(note)
    updated = space.store.append(number_of(target), number_of(item))
    return collection_result(updated, space.notes_of(updated))


def remove(ctx: ToolContext, *, collection: str, note: str) -> ToolResult:
    """Takes the note out of the collection (every occurrence); the note itself stays."""
    space = ctx.infospace
    target, item = space.collection(collection), space.note(note)
    if space.store.remove(number_of(target), number_of(item)) == 0:
        raise InfospaceError("not_found", f"{item.id} is not in {target.id}")
    updated = space.store.collection(number_of(target))
    return collection_result(updated, space.notes_of(updated))


def size(ctx: ToolContext, *, target: str) -> ToolResult:
    """Notes in a collection, characters of text, items of a list, keys of an object."""
    found = ctx.infospace.resource(target)
    if isinstance(found, Collection):
        return ToolResult.success(len(found.note_ids), f"{found.label()}: {len(found.note_ids)} notes")
    content = found.content
    if not isinstance(content, (str, list, dict)):
        raise InfospaceError("wrong_kind", f"{found.id} holds a single value ({content!r}); it has no size")
    unit = {str: "characters", list: "items", dict: "keys"}[type(content)]
    return ToolResult.success(len(content), f"{found.label()}: {len(content)} {unit}")
