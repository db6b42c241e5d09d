"""The uniform return every tool gives, as the tools-and-primitives seed defines it.

    {"status": "success" | "failed",
     "data": <raw value: what to consume>,
     "value": <display string, may be truncated>,
     "reason": <why it failed>,           # only on failure
     "resource_id": <Note_N/Collection_N> # only when a resource was created or updated
    }

One addition: a failure may carry a short machine-readable `code` (bad_args, not_found, ...)
that a caller can branch on without reading the reason. An ActionRecord is one call as it
happened, result included in its status, code and reason.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from agent.infospace.models import preview

Status = Literal["success", "failed"]
FailureCode = Literal[
    "bad_action",  # the action is not {"type": NAME, ...} or names no tool
    "bad_args",  # an argument does not fit the tool's schema
    "not_found",  # a reference names no note, collection or binding
    "bad_ref",  # a reference is not Note_N, Collection_N or $name
    "wrong_kind",  # a note where a collection is needed, or the reverse
    "bad_value",  # an argument fits the schema but not the operation (a bad where, an empty query)
    "bad_return",  # a tool returned something that is not a uniform return or JSON data
    "exception",  # the tool raised; the reason names the exception
    "unavailable",  # the tool needs something not configured (an LLM, the method runner)
    "tool_failed",  # the tool reported a failure without a code of its own
    "needs_input",  # a required slot has no value, or an unverified one is not confirmed: the reason asks for it
    "incomplete",  # the tool ran, but its own check (complete_when, is_complete) says the step is not achieved
    # World tools: what happened in the world instead of what was asked.
    "disconnected",  # the bot is not connected (or no world is attached)
    "not_spawned",  # the bot has not spawned yet
    "dead",  # the bot is dead; mc-respawn brings it back
    "collision",  # movement stopped against a block
    "fell",  # movement ended in a fall
    "drop_ahead",  # a walk stopped before a drop deeper than it may walk down
    "hazard_ahead",  # a walk stopped before lava, fire, deep water or cactus
    "timeout",  # the action did not finish in its time
    "stopped",  # asked to stop (the run stopped, or its caller gave up on it), it stopped before its next step
    "unreachable",  # the target cannot be reached (path, reach distance)
    "refused",  # the world refused: no such item, a placement into the bot itself, ...
    "stuck",  # no way on is left: nowhere known is reachable that is worth going to
    "not_found",  # a search found nothing of what it was asked for
    "needs_tool",  # the block drops nothing dug without a tool the bot does not carry (stone: a pickaxe)
    "goal_lost",  # the goal check can no longer hold in this run, wherever the bot goes (an avoided block entered)
    # Climbing and digging (mc-pillar-up, mc-dig-stairs, mc-tunnel): why a run of steps stopped.
    "no_blocks",  # nothing left in the inventory to build with
    "blocked_above",  # no room above the head to jump
    "place_failed",  # the block did not appear where it was placed, or the bot is not on it
    "fluid_ahead",  # digging on would let in lava or water, or walk into it
    "unbreakable",  # the block cannot be dug, or would take too long with what the bot carries
    "blocked",  # the way on cannot be cleared or entered (nothing to step onto, a block back in place)
]
FAILURE_CODES: tuple[str, ...] = FailureCode.__args__
UNIFORM_KEYS = frozenset({"status", "data", "value", "reason", "resource_id", "code"})

# Enough to recognise a value in a log or a prompt; `data` always holds all of it.
VALUE_LIMIT = 600


class ToolResult(BaseModel):
    """One tool call's outcome. `as_dict()` is the seed's uniform return."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    status: Status
    data: Any = None
    value: str = ""
    reason: str | None = None
    code: FailureCode | None = None
    resource_id: str | None = None

    @model_validator(mode="after")
    def _reason_iff_failed(self) -> ToolResult:
        if (self.status == "failed") != (self.reason is not None):
            raise ValueError("a failed result needs a reason, and only a failed one has one")
        if self.code is not None and self.status != "failed":
            raise ValueError("only a failed result has a code")
        return self

    @property
    def ok(self) -> bool:
        return self.status == "success"

    @classmethod
    def success(cls, data: Any = None, value: str | None = None, resource_id: str | None = None) -> ToolResult:
        shown = value if value is not None else ("" if data is None else preview(data, VALUE_LIMIT))
        return cls(status="success", data=data, value=shown, resource_id=resource_id)

    @classmethod
    def failure(cls, code: FailureCode, reason: str, data: Any = None) -> ToolResult:
        """The seed puts the reason in `data` when there is no other raw value to give."""
        return cls(
            status="failed",
            data=reason if data is None else data,
            value=preview(reason, VALUE_LIMIT),
            reason=reason,
            code=code,
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "data": self.data, "value": self.value}
        if self.status == "failed":
            out["reason"] = self.reason
            if self.code:
                out["code"] = self.code
        if self.resource_id:
            out["resource_id"] = self.resource_id
        return out


class ToolFailure(Exception):
    """Raised inside a tool or the executor for an expected failure; becomes a failed result."""

    def __init__(self, code: FailureCode, reason: str):
        super().__init__(reason)
        self.code: FailureCode = code


class ActionRecord(BaseModel):
    """One tool call as it happened. depth 0 is the planner's call; nested calls count up."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tool: str | None
    args: dict[str, Any]
    depth: int
    status: str
    code: FailureCode | None = None
    reason: str | None = None
    resource_id: str | None = None
    duration_us: float
    error_trace: str | None = None
