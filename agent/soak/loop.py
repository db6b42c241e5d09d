"""`mcagent soak`: one long-lived process, episode after episode, watched for leaks.

One local server, one bot, one Node bridge for the whole soak: the processes a long run
keeps. Each episode is a whole planned run (agent/session/run.py's plan_in_session) in the
scenario's world; afterwards the bot goes back to the scenario's spawn with /tp. A thread
samples every process each `sample_s`; the verdict (sampling.py) says whether memory stayed flat.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from agent.bridge import runtime
from agent.config import AgentConfig
from agent.llm.backend_spec import open_configured
from agent.mc.geometry import Vec3
from agent.planner import PlannerOptions
from agent.server import Scenario
from agent.session.run import RunRequest, load_tools, plan_in_session
from agent.session.world import WorldOptions, WorldSession, bot_session
from agent.soak.sampling import Sample, SoakVerdict, judge, sample_process
from agent.tools import ToolSource
from agent.trace import Event, TraceWriter
from agent.trace.schema import ToolResult

# Outer steps per episode: enough for the scenario's method to finish.
EPISODE_STEPS = 3


class SoakReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    minutes: float
    llm: str
    scenario: str
    episodes: int
    outcomes: dict[str, int]
    observations: int
    samples: list[Sample]
    verdict: SoakVerdict


class Counts:
    """Episodes and observations so far, read by the sampling thread."""

    def __init__(self) -> None:
        self.episodes, self.observations = 0, 0
        self.outcomes: dict[str, int] = {}

    def seen(self, event: Event) -> None:
        if isinstance(event, ToolResult) and (event.tool or "").startswith("mc-"):
            self.observations += 1


def soak(config: AgentConfig, sources: list[ToolSource], scenario: Scenario, *, minutes: float, sample_s: float,
         on_sample: Callable[[Sample], None]) -> SoakReport:
    """Runs episodes for `minutes`, sampling every `sample_s`; the report with its verdict."""
    counts, samples, done = Counts(), [], threading.Event()
    request = RunRequest(config=config, tool_sources=sources, world=WorldOptions(scenario=scenario),
                         goal=scenario.goal or "explore", check=scenario.success,
                         options=PlannerOptions(max_steps=EPISODE_STEPS), trace=None, on_event=counts.seen)
    toolbox, backend = load_tools(request), open_configured(config)
    started = time.monotonic()
    with bot_session(config, request.world) as session:
        sampler = threading.Thread(target=_sample_every, daemon=True,
                                   args=(session, counts, samples, sample_s, started, done, on_sample))
        sampler.start()
        try:
            while time.monotonic() - started < minutes * 60:
                writer = TraceWriter(None, on_event=counts.seen)
                result = plan_in_session(request, session, toolbox, backend, writer)
                counts.episodes += 1
                counts.outcomes[result.outcome] = counts.outcomes.get(result.outcome, 0) + 1
                session.teleport(Vec3(x=scenario.spawn.x, y=scenario.spawn.y, z=scenario.spawn.z))
        finally:
            done.set()
            sampler.join()
    return SoakReport(minutes=minutes, llm=config.llm, scenario=scenario.name, episodes=counts.episodes,
                      outcomes=counts.outcomes, observations=counts.observations, samples=samples,
                      verdict=judge(samples, minutes * 60))


def _sample_every(session: WorldSession, counts: Counts, samples: list[Sample], every_s: float, started: float,
                  done: threading.Event, on_sample: Callable[[Sample], None]) -> None:
    """A sample at the start, every `every_s`, and one at the end."""
    while True:
        stop = done.wait(every_s if samples else 0)
        roles = {"python": os.getpid(), "bridge": runtime.node_pid(),
                 "server": session.local.pid if session.local is not None else None}
        found = [sample_process(role, pid) for role, pid in roles.items() if pid is not None]
        sample = Sample(t_s=round(time.monotonic() - started, 1), episodes=counts.episodes,
                        observations=counts.observations, processes=[p for p in found if p is not None])
        samples.append(sample)
        on_sample(sample)
        if stop:
            return
