"""Step records: the planner's memory of a run and, written as JSON lines as they happen, its trace.

Three kinds: `run` (at the start and at the end), `step` (one tool call, in the outer loop or
inside a method) and `method` (a method's outcome, after its inner steps).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from agent.llm import Usage

Outcome = Literal["done", "max_steps", "failed", "interrupted"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    plan: int = Field(0, description="0 for the main plan; 1, 2, ... for sub-plans, in the order they started")


class InnerLoop(BaseModel):
    """The `_inner_loop` metadata every action inside a method carries, as the seed defines it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    method_name: str
    inner_step: int
    max_steps: int
    outer_step: int


class StepRecord(_Record):
    kind: Literal["step"] = "step"
    outer_step: int
    inner_loop: InnerLoop | None = None
    thoughts: str = ""
    tool: str | None = Field(description="None when no valid tool name came even after the retry")
    action: dict[str, Any] = Field(description='{"type": TOOL, ...args}, plus "_inner_loop" inside a method')
    result: dict[str, Any] = Field(description="the uniform return, ground truth")
    note: str | None = Field(None, description="what the planner corrected or refused on the way")
    done: bool | None = Field(None, description="outer steps: did the model report the goal reached")
    next_task: str = ""
    wall_s: float
    tool_s: float
    llm: Usage = Field(description="this step's LLM calls (a method's outer step includes its inner steps)")
    context_tokens: int = Field(0, description="the prompt's size at the step's last LLM call")

    @property
    def status(self) -> str:
        return str(self.result.get("status"))


class MethodRecord(_Record):
    kind: Literal["method"] = "method"
    outer_step: int
    method: str
    outcome: str = Field(description="a termination outcome of the protocol, or FAILED")
    inner_steps: int
    summary: str
    wall_s: float


class RunRecord(_Record):
    kind: Literal["run"] = "run"
    event: Literal["start", "end"]
    goal: str
    llm: str
    max_steps: int
    world: str = ""
    outcome: Outcome | None = None
    reason: str = ""
    steps: int = 0
    inner_steps: int = 0
    wall_s: float = 0.0
    usage: Usage = Usage()


Record = Annotated[StepRecord | MethodRecord | RunRecord, Field(discriminator="kind")]
_RECORD: TypeAdapter[Record] = TypeAdapter(Record)


class Recorder:
    """Keeps the records, appends each to the JSONL trace at once, and tells `on_record`."""

    def __init__(self, path: Path | None = None, on_record: Callable[[Record], None] | None = None):
        self.path = path
        self.records: list[Record] = []
        self._on_record = on_record
        self._file: IO[str] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("w", encoding="utf-8")  # one trace per run

    def add(self, record: Record) -> None:
        self.records.append(record)
        if self._file is not None:
            self._file.write(record.model_dump_json() + "\n")
            self._file.flush()
        if self._on_record is not None:
            self._on_record(record)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_trace(path: Path) -> list[Record]:
    """The records of a JSONL trace, typed again."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [_RECORD.validate_json(line) for line in lines if line.strip()]
