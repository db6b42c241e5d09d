"""`mcagent bench team`: a team of N bots planning at once (`mcagent run --bots N`, each team in a
process of its own: a process's Node bridge cannot start twice), every bot with its own slot of
one llama-server for the in-process model. What it measures, from the bots' traces: the model's
time per outer step with N planners sharing the server (p50, p95), and episodes an hour (a bot's
run is an episode; the whole command's wall time, the server's start included). The goal is one
the world cannot give (diamond ore on the flat field), so every bot plans every step it may.
Figures, never assertions: docs/performance.md keeps them."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from agent.bench.stats import Figure, from_samples
from agent.trace.schema import OuterStep
from agent.trace.team import team_traces

GOAL = "find diamond ore"
FIELD = "flat"
# A team's run may take this long before the bench gives up on it.
RUN_TIMEOUT_S = 1800.0


class TeamRow(BaseModel):
    bots: int
    llm: str
    steps: int = Field(description="outer steps over every bot")
    step_llm: Figure = Field(description="the model's time in one outer step, over every bot's steps")
    wall_s: float = Field(description="the whole command: server start, joins, every bot's run")
    episodes_per_hour: float = Field(description="bots' runs an hour at this wall time")


def row(bots: int, llm: str, steps: int, out: Path) -> TeamRow:
    """One team of `bots` toward GOAL, each for `steps` outer steps, its traces under `out`."""
    folder = out / f"{bots}-bots"
    command = [sys.executable, "-m", "agent.cli", "run", "--bots", str(bots), "--goal", GOAL, "--scenario", FIELD,
               "--port", "0", "--llm", llm, "--max-steps", str(steps), "--trace", str(folder / "trace.jsonl")]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    wall = time.monotonic() - started
    traces = team_traces(folder) if folder.is_dir() else {}
    seconds = [e.llm.seconds for t in traces.values() for e in t.events if isinstance(e, OuterStep)]
    if len(traces) != bots or not seconds:
        raise RuntimeError(f"bench team: the {bots}-bot run left {len(traces)} trace(s) and no step "
                           f"(exit {done.returncode}): {done.stderr.strip().splitlines()[-1:]}")
    return TeamRow(bots=bots, llm=llm, steps=len(seconds), step_llm=from_samples("step LLM", np.array(seconds) * 1000),
                   wall_s=wall, episodes_per_hour=bots * 3600 / wall)


def table(rows: list[TeamRow]) -> str:
    lines = ["| bots | steps | LLM per step p50 (s) | p95 (s) | wall (s) | episodes/hour |", "|---|---|---|---|---|---|"]
    lines += [f"| {r.bots} | {r.steps} | {r.step_llm.p50_ms / 1000:.2f} | {r.step_llm.p95_ms / 1000:.2f} | "
              f"{r.wall_s:.0f} | {r.episodes_per_hour:.0f} |" for r in rows]
    return "\n".join(lines)
