"""Search primitives over the FTS5 index: search-notes, search-collections, search-within-collection.

A query matches notes holding all of its words (punctuation is ignored), best matches first.
"""

from __future__ import annotations

from agent.infospace import number_of
from agent.tools.interfaces import ToolContext
from agent.tools.primitives.common import new_collection
from agent.tools.result import ToolResult


def search_notes(ctx: ToolContext, *, query: str, limit: int = 10) -> ToolResult:
    """A new collection of the notes that match, best first."""
    return new_collection(ctx, ctx.infospace.store.search_notes(query, limit))


def search_collections(ctx: ToolContext, *, query: str, limit: int = 10) -> ToolResult:
    """Collections whose name matches, then those holding the most matching notes."""
    found = ctx.infospace.store.search_collections(query, limit)
    data = [
        {"id": c.id, "name": c.name, "size": len(c.note_ids), "matching_notes": hits} for c, hits in found
    ]
    shown = "; ".join(f"{c.label()} ({hits} matching of {len(c.note_ids)})" for c, hits in found)
    return ToolResult.success(data, shown or f"no collection matches {query!r}")


def search_within_collection(ctx: ToolContext, *, collection: str, query: str, limit: int = 10) -> ToolResult:
    """A new collection of the collection's notes that match, best first."""
    space = ctx.infospace
    within = space.collection(collection)
    return new_collection(ctx, space.store.search_notes(query, limit, within=number_of(within)))
