"""One episode of an eval as episodes.jsonl keeps it: one JSON object a line, appended and
flushed as each episode ends, so a killed eval loses at most the line being written."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import BinaryIO, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.errors import ConfigError

EPISODES_FILE = "episodes.jsonl"
# success: the check held. The rest are how the planner's run ended (agent.trace.Outcome), and
# error: the episode could not run (the server, the bot or the scenario failed).
EpisodeOutcome = Literal["success", "failed", "max_steps", "done", "interrupted", "stopped", "error"]


class EpisodeRecord(BaseModel):
    """One scenario run once with one seed and one LLM, and what the eval verified."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    suite: str
    scenario: str
    seed: int
    llm: str = Field(description="the backend spec, e.g. random:0")
    goal: str
    check: str = Field(description="the success check, in one line")
    outcome: EpisodeOutcome
    success: bool = Field(description="verified: the check held, whatever the model claimed")
    final_check: bool | None = Field(description="the check re-evaluated after the run; None if it could not be")
    claims: int = Field(ge=0, description="times the model reported the goal done")
    claims_refused: int = Field(ge=0, description="claims the check refused")
    steps: int = Field(ge=0, description="outer steps")
    inner_steps: int = Field(ge=0, description="method steps, over all methods")
    llm_calls: int = Field(ge=0)
    tokens_in: int = Field(ge=0)
    tokens_out: int = Field(ge=0)
    wall_s: float = Field(ge=0, description="seconds, the whole episode")
    trace: str | None = Field(description="the run's trace.jsonl")
    reason: str = Field(description="why the episode ended")


def read_episodes(path: Path) -> list[EpisodeRecord]:
    """Every record in `path`. A last line that does not parse (cut short by a kill) is skipped;
    a bad line elsewhere, or a missing file, is a ConfigError naming it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ConfigError(f"eval: cannot read {path}: {e.strerror}") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(EpisodeRecord.model_validate_json(line))
        except ValidationError as e:
            if number == len(lines) and _truncated(line):
                break
            raise ConfigError(f"eval: {path}:{number}: not an episode record: {_first_error(e)}") from None
    return records


def append_episode(path: Path, record: EpisodeRecord) -> None:
    """Appends `record` as one line and flushes it. A partial last line left by a killed eval is
    cut off first, so the new record starts a line of its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as file:
        file.truncate(_whole_lines(file))
        file.write(record.model_dump_json().encode("utf-8") + b"\n")
        file.flush()


def _whole_lines(file: BinaryIO) -> int:
    """The length of the file up to and including its last newline."""
    size = file.seek(0, os.SEEK_END)
    if size == 0:
        return 0
    file.seek(size - 1)
    if file.read(1) == b"\n":
        return size
    file.seek(0)  # rare (after a kill), so reading it whole is fine
    return file.read().rfind(b"\n") + 1


def _truncated(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return True
    return False


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]
