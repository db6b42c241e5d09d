"""The built-in infospace operations, by name. Each has a Skill.md under agent/core_tools/<name>/
(type: primitive) that gives the planner its description and argument schema."""

from __future__ import annotations

from collections.abc import Callable

from agent.tools.primitives import comms, compute, search, storage, structured
from agent.tools.result import ToolResult

Primitive = Callable[..., ToolResult]

PRIMITIVES: dict[str, Primitive] = {
    # storage
    "create-note": storage.create_note,
    "create-collection": storage.create_collection,
    "load": storage.load,
    "save": storage.save,
    "persist": storage.persist,
    "add": storage.add,
    "remove": storage.remove,
    "size": storage.size,
    # computation
    "apply": compute.apply,
    "map": compute.map_tool,
    "coerce": compute.coerce,
    # structured operations
    "filter-structured": structured.filter_structured,
    "project": structured.project,
    "pluck": structured.pluck,
    "sort": structured.sort,
    "head": structured.head,
    "join": structured.join,
    "index": structured.index,
    # search
    "search-notes": search.search_notes,
    "search-collections": search.search_collections,
    "search-within-collection": search.search_within_collection,
    # communication
    "say": comms.say,
    "think": comms.think,
}
