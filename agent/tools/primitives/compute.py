"""Computation primitives: apply and map (a tool on notes, through the executor), coerce (convert)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field, JsonValue

from agent.infospace import Collection, InfospaceError, Note
from agent.infospace.models import parse_id
from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.primitives.common import (
    CollectionRef,
    NoteRef,
    ResourceRef,
    members,
    new_collection,
    note_result,
)
from agent.tools.result import ToolFailure, ToolResult

_TRUE, _FALSE = {"true", "yes", "1"}, {"false", "no", "0"}
# The argument a tool gets the content in unless apply or map names another: the seed's
# tool(input_value=None, **kwargs) takes it first.
INPUT_ARG = "input_value"


class ToolRunArgs(ArgsModel):
    """How apply and map run the tool on a note: map runs it as apply does, on each note as the target."""

    tool: str = Field(description="the tool to run")
    arg: str = Field(INPUT_ARG, description="the argument that receives the content (default input_value)")
    args: dict[str, JsonValue] = Field({}, description="other arguments for the tool")
    by_reference: bool = Field(False, description="pass the target's id instead of its content, for tools that "
                                                  "take a reference")


class ApplyArgs(ToolRunArgs):
    target: ResourceRef


def apply(ctx: ToolContext, a: ApplyArgs) -> ToolResult:
    """Calls `tool` once with the target's content (a collection's: the list of contents) as `arg`."""
    found = ctx.infospace.resource(a.target)
    if a.by_reference:
        given: Any = found.id
    elif isinstance(found, Collection):
        given = [n.content for n in ctx.infospace.notes_of(found)]
    else:
        given = found.content
    return ctx.execute_action({**a.args, "type": a.tool, a.arg: given})


class MapArgs(ToolRunArgs):
    collection: CollectionRef


def map_tool(ctx: ToolContext, a: MapArgs) -> ToolResult:
    """Applies the tool to every note in order, as apply does; the results form a new collection.
    Stops at the first failure."""
    notes = members(ctx, a.collection)
    outputs: list[Note] = []
    for i, note in enumerate(notes, start=1):
        result = apply(ctx, ApplyArgs(target=note.id, **a.model_dump(exclude={"collection"})))
        if not result.ok:
            where = f"{note.id} (note {i} of {len(notes)})"
            raise ToolFailure(result.code or "tool_failed", f"map stopped at {where}: {result.reason}")
        output = _as_note(ctx, result)
        if output is not None:
            outputs.append(output)
    return new_collection(ctx, outputs)


def _as_note(ctx: ToolContext, result: ToolResult) -> Note | None:
    """The note a result made, else a new note of its data; None when it gave nothing."""
    parsed = parse_id(result.resource_id or "")
    if parsed is not None and parsed[0] == "note":
        return ctx.infospace.note(result.resource_id)
    if result.data is None:
        return None
    return ctx.infospace.store.create_note(result.data)


class CoerceArgs(ArgsModel):
    target: NoteRef
    to: Literal["text", "json", "number", "integer", "boolean", "list"]


def coerce(ctx: ToolContext, a: CoerceArgs) -> ToolResult:
    """A new note holding the target's content converted to text, json, number, integer, boolean or list."""
    note = ctx.infospace.note(a.target)
    try:
        converted = _CONVERT[a.to](note.content)
    except (ValueError, TypeError) as e:
        raise InfospaceError("bad_value", f"cannot coerce {note.id} to {a.to}: {e}") from None
    return note_result(ctx.infospace.store.create_note(converted))


def _to_json(content: JsonValue) -> JsonValue:
    value = json.loads(content) if isinstance(content, str) else content
    if value is None:
        raise ValueError("it is JSON null, which a note cannot hold")
    return value


def _to_number(content: JsonValue) -> int | float:
    if isinstance(content, bool) or not isinstance(content, (str, int, float)):
        raise ValueError(f"expected a number or numeric text, got {type(content).__name__}")
    text = str(content).strip()
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _to_integer(content: JsonValue) -> int:
    number = _to_number(content)
    if isinstance(number, float) and not number.is_integer():
        raise ValueError(f"{number} is not a whole number")
    return int(number)


def _to_boolean(content: JsonValue) -> bool:
    if isinstance(content, bool):
        return content
    word = str(content).strip().lower()
    if word not in _TRUE | _FALSE:
        raise ValueError(f"expected one of {sorted(_TRUE | _FALSE)}, got {word[:20]!r}")
    return word in _TRUE


def _to_list(content: JsonValue) -> list[JsonValue]:
    """Text: its non-empty lines. An object: its values. A list stays. Anything else: a list of one."""
    if isinstance(content, str):
        return [line.strip() for line in content.splitlines() if line.strip()]
    if isinstance(content, dict):
        return list(content.values())
    return content if isinstance(content, list) else [content]


_CONVERT = {
    "text": lambda content: content if isinstance(content, str) else json.dumps(content, ensure_ascii=False),
    "json": _to_json,
    "number": _to_number,
    "integer": _to_integer,
    "boolean": _to_boolean,
    "list": _to_list,
}
