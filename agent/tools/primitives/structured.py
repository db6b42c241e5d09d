"""Structured primitives over collections of JSON notes: filter-structured, project, pluck, sort,
head, join, index. Field paths are written data.FIELD[.FIELD...], name or id (see where.py)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, JsonValue

from agent.infospace import Collection, field_getter, parse_where
from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.primitives.common import (
    CollectionRef,
    FieldPath,
    ResourceRef,
    members,
    new_collection,
    note_result,
)
from agent.tools.result import ToolResult


class FilterStructuredArgs(ArgsModel):
    target: CollectionRef
    where: str = Field(description='e.g. data.year >= 2020 AND data.kind == "ore"')


def filter_structured(ctx: ToolContext, a: FilterStructuredArgs) -> ToolResult:
    """A new collection of the notes for which `where` holds, e.g. data.year >= 2020 AND data.kind == "ore"."""
    matches = parse_where(a.where)
    return new_collection(ctx, [n for n in members(ctx, a.target) if matches(n)])


class ProjectArgs(ArgsModel):
    target: ResourceRef
    fields: list[str] = Field(description="field paths to keep, e.g. [data.name, data.pos.x]")


def project(ctx: ToolContext, a: ProjectArgs) -> ToolResult:
    """Keeps only `fields` of a note, or of every note of a collection (as new notes). data.pos.x becomes key pos.x."""
    getters = [(_key(path), field_getter(path)) for path in a.fields]
    space = ctx.infospace
    found = space.resource(a.target)
    notes = space.notes_of(found) if isinstance(found, Collection) else [found]
    projected = [space.store.create_note({key: get(n) for key, get in getters}) for n in notes]
    if isinstance(found, Collection):
        return new_collection(ctx, projected)
    return note_result(projected[0])


def _key(path: str) -> str:
    return path.removeprefix("data.") if path != "data" else path


class PluckArgs(ArgsModel):
    target: CollectionRef
    field: FieldPath


def pluck(ctx: ToolContext, a: PluckArgs) -> ToolResult:
    """A new note holding the list of one field's values, in order; notes without the field are skipped."""
    get = field_getter(a.field)
    values = [v for v in (get(n) for n in members(ctx, a.target)) if v is not None]
    return note_result(ctx.infospace.store.create_note(values))


class SortArgs(ArgsModel):
    target: CollectionRef
    by: FieldPath
    descending: bool = Field(False, description="largest first (default false)")


def sort(ctx: ToolContext, a: SortArgs) -> ToolResult:
    """A new collection ordered by a field: numbers, then text, then other values; notes without it last."""
    get = field_getter(a.by)
    notes = members(ctx, a.target)
    present = [n for n in notes if get(n) is not None]
    ordered = sorted(present, key=lambda n: _sort_key(get(n)), reverse=a.descending)
    return new_collection(ctx, ordered + [n for n in notes if get(n) is None])


def _sort_key(value: Any) -> tuple[int, Any]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0, value
    if isinstance(value, str):
        return 1, value
    return 2, json.dumps(value, sort_keys=True)


class HeadArgs(ArgsModel):
    target: CollectionRef
    n: int = Field(ge=0, description="how many notes to keep")


def head(ctx: ToolContext, a: HeadArgs) -> ToolResult:
    """A new collection of the first n notes."""
    return new_collection(ctx, members(ctx, a.target)[:a.n])


class JoinArgs(ArgsModel):
    left: CollectionRef
    right: CollectionRef
    on: str = Field(description="the left notes' a field path: data.FIELD[.FIELD...], name or id")
    right_on: str | None = Field(None, description="the right notes' field path (default: the same as on)")


def join(ctx: ToolContext, a: JoinArgs) -> ToolResult:
    """Inner join: a new note merging each left note with each right note whose field equals its own.

    Left keys win a clash; a note that is not a JSON object joins as {"content": ...}.
    """
    left_get, right_get = field_getter(a.on), field_getter(a.right_on or a.on)
    by_value: dict[str, list[JsonValue]] = {}
    for note in members(ctx, a.right):
        value = right_get(note)
        if value is not None:
            by_value.setdefault(json.dumps(value, sort_keys=True), []).append(note.content)
    merged = []
    for note in members(ctx, a.left):
        value = left_get(note)
        for other in by_value.get(json.dumps(value, sort_keys=True), []) if value is not None else []:
            merged.append(ctx.infospace.store.create_note({**_object(other), **_object(note.content)}))
    return new_collection(ctx, merged)


def _object(content: JsonValue) -> dict[str, JsonValue]:
    return content if isinstance(content, dict) else {"content": content}


class IndexArgs(ArgsModel):
    target: CollectionRef
    by: FieldPath


def index(ctx: ToolContext, a: IndexArgs) -> ToolResult:
    """A new note {value: [note ids]} grouping the collection's notes by a field (text keys as is, others as JSON)."""
    get = field_getter(a.by)
    groups: dict[str, list[str]] = {}
    for note in members(ctx, a.target):
        value = get(note)
        if value is not None:
            key = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
            groups.setdefault(key, []).append(note.id)
    return note_result(ctx.infospace.store.create_note(groups))
