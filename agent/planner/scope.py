"""What a method's conditions read after a step: the result, the call, the method's state, and
the world (the goal check, single facts), each read only when a condition asks; and the
[set: ...] updates of the state."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from pydantic_core import to_jsonable_python

from agent.tools import ToolResult
from agent.protocol.expressions import UNKNOWN, Expression, parse_expression
from agent.protocol.protocol_rules import FACTS, ROOTS, fits
from agent.protocol.models import MethodProtocol, ProtocolStep


@lru_cache(maxsize=512)
def compiled(source: str) -> Expression:
    """An expression the loader already checked; parsed once per process."""
    return parse_expression(source, ROOTS)


class Scope(Mapping[str, Any]):
    """What a condition reads after a step: the result, the call, the state, and the goal,
    read in the world only when a condition asks for it, at most once."""

    def __init__(self, tool: str | None, args: dict[str, Any] | None, result: ToolResult, state: dict[str, Any],
                 read_goal: Callable[[], bool | None], read_fact: Callable[[str], bool | None] = lambda name: None):
        self._values: dict[str, Any] = {
            "status": result.status, "code": result.code, "data": to_jsonable_python(result.data),
            "args": args or {}, "tool": tool, "state": state, "world": Facts(read_fact),
        }
        self._read_goal = read_goal

    def __getitem__(self, name: str) -> Any:
        if name == "goal" and name not in self._values:
            goal = self._read_goal()
            self._values["goal"] = UNKNOWN if goal is None else goal
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(ROOTS)

    def __len__(self) -> int:
        return len(ROOTS)


class Facts(Mapping[str, bool]):
    """`world.NAME`: a fact read in the world when a condition first asks for it; a fact that
    cannot be read is missing, so the condition is unknown."""

    def __init__(self, read: Callable[[str], bool | None]):
        self._read = read
        self._known: dict[str, bool | None] = {}

    def __getitem__(self, name: str) -> bool:
        if name not in FACTS:
            raise KeyError(name)
        if name not in self._known:
            self._known[name] = self._read(name)
        if self._known[name] is None:
            raise KeyError(name)
        return bool(self._known[name])

    def __iter__(self) -> Iterator[str]:
        return iter(FACTS)

    def __len__(self) -> int:
        return len(FACTS)


def apply_sets(step: ProtocolStep | None, protocol: MethodProtocol, scope: Scope, state: dict[str, Any]) -> list[str]:
    """Runs the step's [set: ...] in order, each seeing the state the ones before left; returns
    what could not be set (the variable is then left as it was)."""
    kinds = {v.name: v.type for v in protocol.state}
    problems = []
    for assignment in step.sets if step is not None else []:
        value = compiled(assignment.expression).evaluate(scope)
        if value is UNKNOWN or not fits(kinds[assignment.name], value):
            problems.append(f"[set: {assignment.name} = {assignment.expression}] gave {value!r}, not a "
                            f"{kinds[assignment.name]}; {assignment.name} is unchanged")
            continue
        state[assignment.name] = value
    return problems
