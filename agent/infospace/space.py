"""The infospace as tools see it: the store, `$name` bindings in plan scopes, and reference lookup."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent.infospace.errors import InfospaceError
from agent.infospace.models import NAME_PATTERN, Collection, Note, parse_id
from agent.infospace.store import Store

DB_FILENAME = "infospace.db"


def default_db_path(agent_name: str) -> Path:
    """One database per agent: $XDG_DATA_HOME/mcagent/agents/NAME/, else ~/.local/share/mcagent/agents/NAME/."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "mcagent" / "agents" / agent_name / DB_FILENAME


class Infospace:
    """Notes and Collections plus the names the planner gave them.

    A name bound during a plan lives in that plan's scope and is gone when the plan ends;
    outside any plan it lives for the session. `persist` writes a binding to the database,
    where it outlives the session. Lookup goes from the innermost scope outwards.
    """

    def __init__(self, store: Store):
        self.store = store
        self._scopes: list[dict[str, str]] = [{}]

    @classmethod
    def open(cls, path: Path | str) -> Infospace:
        return cls(Store(path))

    def close(self) -> None:
        self.store.close()

    @contextmanager
    def plan_scope(self) -> Iterator[None]:
        self._scopes.append({})
        try:
            yield
        finally:
            self._scopes.pop()

    def bind(self, name: str, resource_id: str) -> None:
        """Binds $name in the innermost scope and names the resource after it."""
        kind, number = self._parse(resource_id)
        self._scopes[-1][_check_name(name)] = resource_id
        self.store.set_name(kind, number, name)

    def lookup(self, name: str) -> str:
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        persisted = self.store.binding(name)
        if persisted is None:
            raise InfospaceError("not_found", f"${name} is not bound (bind it with \"as\": \"{name}\" on an action)")
        return persisted

    def persist(self, name: str) -> str:
        """Makes $name outlive the plan and the session; returns the resource it names."""
        resource_id = self.lookup(_check_name(name))
        self.store.save_binding(name, resource_id)
        return resource_id

    def resource(self, ref: str) -> Note | Collection:
        """A Note_N / Collection_N id, or $name, to what it names."""
        kind, number = self._parse(self.lookup(ref[1:]) if ref.startswith("$") else ref)
        return self.store.note(number) if kind == "note" else self.store.collection(number)

    def note(self, ref: str) -> Note:
        found = self.resource(ref)
        if not isinstance(found, Note):
            raise InfospaceError("wrong_kind", f"{ref} is {found.id}, a collection; a note is needed here")
        return found

    def collection(self, ref: str) -> Collection:
        found = self.resource(ref)
        if not isinstance(found, Collection):
            raise InfospaceError("wrong_kind", f"{ref} is {found.id}, a note; a collection is needed here")
        return found

    def notes_of(self, collection: Collection) -> list[Note]:
        return self.store.collection_notes(number_of(collection))

    @staticmethod
    def _parse(resource_id: str) -> tuple[str, int]:
        parsed = parse_id(resource_id)
        if parsed is None:
            raise InfospaceError("bad_ref", f"expected a Note_N or Collection_N id or a $name, got {resource_id!r}")
        return parsed


def number_of(resource: Note | Collection) -> int:
    """The row number behind an id such as Note_12."""
    return int(resource.id.rsplit("_", 1)[1])


def _check_name(name: str) -> str:
    if not re.fullmatch(NAME_PATTERN, name):
        raise InfospaceError("bad_value", f"binding name {name!r}: expected a letter or _ then letters, digits, _ or -")
    return name
