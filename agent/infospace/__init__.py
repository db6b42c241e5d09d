"""The planner's data plane: Notes and Collections persisted in SQLite, searchable with FTS5."""

from agent.infospace.errors import InfospaceError
from agent.infospace.models import Collection, Note
from agent.infospace.space import Infospace, default_db_path, number_of
from agent.infospace.where import field_getter, parse_where

__all__ = [
    "Collection",
    "Infospace",
    "InfospaceError",
    "Note",
    "default_db_path",
    "field_getter",
    "number_of",
    "parse_where",
]
