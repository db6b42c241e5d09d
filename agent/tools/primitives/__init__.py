"""The built-in infospace operations, by name. Each is its arguments model, the one source of its
schema, and the function that runs it on the model; its Skill.md under agent/core_tools/<name>/
(type: primitive) gives the planner the prose: its description and when to use it.

The code stays here, not beside each Skill.md: the folders are named as tools are (create-note),
which no Python package may be, and the primitives share helpers (common.py) and call each
other (map runs apply)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.primitives import comms, compute, search, storage, structured
from agent.tools.result import ToolResult


class Primitive(NamedTuple):
    """One built-in operation: its arguments model, and the function that runs on a validated one."""

    args: type[ArgsModel]
    run: Callable[[ToolContext, Any], ToolResult]

    def __call__(self, ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
        """Runs on `args`, which the executor has checked against the schema made from the model."""
        return self.run(ctx, self.args.model_validate(args))


PRIMITIVES: dict[str, Primitive] = {
    # storage
    "create-note": Primitive(storage.CreateNoteArgs, storage.create_note),
    "create-collection": Primitive(storage.CreateCollectionArgs, storage.create_collection),
    "load": Primitive(storage.LoadArgs, storage.load),
    "save": Primitive(storage.SaveArgs, storage.save),
    "persist": Primitive(storage.PersistArgs, storage.persist),
    "add": Primitive(storage.MemberArgs, storage.add),
    "remove": Primitive(storage.MemberArgs, storage.remove),
    "size": Primitive(storage.SizeArgs, storage.size),
    # computation
    "apply": Primitive(compute.ApplyArgs, compute.apply),
    "map": Primitive(compute.MapArgs, compute.map_tool),
    "coerce": Primitive(compute.CoerceArgs, compute.coerce),
    # structured operations
    "filter-structured": Primitive(structured.FilterStructuredArgs, structured.filter_structured),
    "project": Primitive(structured.ProjectArgs, structured.project),
    "pluck": Primitive(structured.PluckArgs, structured.pluck),
    "sort": Primitive(structured.SortArgs, structured.sort),
    "head": Primitive(structured.HeadArgs, structured.head),
    "join": Primitive(structured.JoinArgs, structured.join),
    "index": Primitive(structured.IndexArgs, structured.index),
    # search
    "search-notes": Primitive(search.SearchNotesArgs, search.search_notes),
    "search-collections": Primitive(search.SearchCollectionsArgs, search.search_collections),
    "search-within-collection": Primitive(search.SearchWithinCollectionArgs, search.search_within_collection),
    # communication
    "say": Primitive(comms.SayArgs, comms.say),
    "think": Primitive(comms.ThinkArgs, comms.think),
}
