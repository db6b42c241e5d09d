"""Search primitives over the FTS5 index: search-notes, search-collections, search-within-collection.

A query matches notes holding all of its words (punctuation is ignored), best matches first.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agent.infospace import number_of
from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.primitives.common import CollectionRef, new_collection
from agent.tools.result import ToolResult

# The most matches a search returns, and how many unless asked.
MAX_LIMIT, DEFAULT_LIMIT = 100, 10
Query = Annotated[str, Field(description="words that must all appear")]
NotesLimit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description=f"most notes to return (default {DEFAULT_LIMIT})")]


class SearchNotesArgs(ArgsModel):
    query: Query
    limit: NotesLimit = DEFAULT_LIMIT


def search_notes(ctx: ToolContext, a: SearchNotesArgs) -> ToolResult:
    """A new collection of the notes that match, best first."""
    return new_collection(ctx, ctx.infospace.store.search_notes(a.query, a.limit))


class SearchCollectionsArgs(ArgsModel):
    query: Query
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT,
                       description=f"most collections to return (default {DEFAULT_LIMIT})")


def search_collections(ctx: ToolContext, a: SearchCollectionsArgs) -> ToolResult:
    """Collections whose name matches, then those holding the most matching notes."""
    found = ctx.infospace.store.search_collections(a.query, a.limit)
    data = [
        {"id": c.id, "name": c.name, "size": len(c.note_ids), "matching_notes": hits} for c, hits in found
    ]
    shown = "; ".join(f"{c.label()} ({hits} matching of {len(c.note_ids)})" for c, hits in found)
    return ToolResult.success(data, shown or f"no collection matches {a.query!r}")


class SearchWithinCollectionArgs(ArgsModel):
    collection: CollectionRef
    query: Query
    limit: NotesLimit = DEFAULT_LIMIT


def search_within_collection(ctx: ToolContext, a: SearchWithinCollectionArgs) -> ToolResult:
    """A new collection of the collection's notes that match, best first."""
    space = ctx.infospace
    within = space.collection(a.collection)
    return new_collection(ctx, space.store.search_notes(a.query, a.limit, within=number_of(within)))
