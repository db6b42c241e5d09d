"""One eval episode in a process of its own: JSPyBridge runs one Node process per Python
process and cannot start another after shutdown, and a crash must not take the eval down.

    python -m agent.eval.episode FOLDER/spec.json

It runs the scenario (varied by the seed) through the session layer, as `mcagent run` does,
and writes its EpisodeRecord to FOLDER/record.json. Exit code 0 whenever a record was written.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.blueprint.score import BuildScore
from agent.config import LoadedConfig, load_config
from agent.eval.records import EpisodeRecord, EpisodeTimes, TraceCosts, trace_costs
from agent.eval.suite import Suite, Task
from agent.goals import understand
from agent.llm.backend_spec import on_lane
from agent.planner import PlannerOptions, RunResult
from agent.process_group import when_parent_dies
from agent.session import WorldOptions, WorldSession
from agent.session.run import RunRequest, plan_in_world
from agent.session.blueprint import read_score
from agent.session.team import Team
from agent.session.team_run import TeamRequest, plan_team
from agent.tools import ToolSource, standard_sources
from agent.trace.reader import TraceError, read_trace
from agent.trace.schema import RunTotals


# Written in the episode's folder once its bots stand in the world: the run's clock starts there.
READY_FILE = "ready"


class EpisodeSpec(BaseModel):
    """What the eval hands an episode's process."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    suite: str
    task: Task
    seed: int
    llm: str
    options: PlannerOptions
    folder: Path  # the episode's own: trace, notes, log
    llm_threads: int | None = None  # the episode's share of the cores for an in-process model
    lane: int | None = None  # its worker's lane while it runs (lanes.py): a shared llama-server's slot
    config: Path | None = None  # --config, else mcagent.yaml is looked up as everywhere
    bound_s: float | None = None  # the run's time in the world (runner.py sets it): the run is stopped there

    @property
    def record_path(self) -> Path:
        return self.folder / "record.json"

    def save(self) -> Path:
        """Writes the spec into its folder, as the episode's process reads it; returns the file."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / "spec.json"
        path.write_text(self.model_dump_json(indent=2), encoding="utf-8")
        return path

    def backend(self) -> str:
        """`random` takes the episode's seed, so seeds vary the baseline's choices as well as the world;
        a llama-server that names no slot, the lane's."""
        if self.llm == "random":
            return f"random:{self.seed}"
        return self.llm if self.lane is None else on_lane(self.llm, self.lane)

    @property
    def trace_path(self) -> Path:
        """The run's trace; a team's folder, which holds a trace per bot (agent/trace/team.py)."""
        return self.folder / "trace.jsonl" if self.task.team is None else self.folder

    def costs(self) -> TraceCosts | None:
        """What the run cost, from its trace; None when there is no readable trace."""
        if not self.trace_path.is_file():
            return None
        try:
            return trace_costs(read_trace(self.trace_path).events)
        except TraceError:
            return None

    def record(self, result: RunResult | None, reason: str, times: EpisodeTimes,
               build: BuildScore | None = None, bots: dict[str, RunTotals] | None = None) -> EpisodeRecord:
        base = dict(suite=self.suite, scenario=self.task.name, seed=self.seed, llm=self.llm, goal=self.task.goal,
                    check=self.task.scored.describe(), trace=str(self.trace_path), build=build, **times.model_dump())
        costs = self.costs()
        if result is None:  # no figures, as for the rest of the record; a refuted outcome counts wherever it was
            refuted = costs.refuted_outcomes if costs is not None else []
            return EpisodeRecord(**base, outcome="error", success=False, final_check=None, claims=0, claims_refused=0,
                                 steps=0, inner_steps=0, llm_calls=0, tokens_in=0, tokens_out=0, reason=reason,
                                 refuted_outcomes=refuted)
        usage, final, judged = result.usage, result.final_check, result.judged
        figures = {} if costs is None else costs.model_dump(exclude={"inner_steps"})
        claimed = result.outcome == "success"
        return EpisodeRecord(
            **base, outcome=result.outcome, success=judged.holds if judged is not None else claimed,
            final_check=final.holds if final is not None else None,
            judged=judged.holds if judged is not None else None, refuted=claimed and judged is not None and not judged.holds, claims=result.claims,
            claims_refused=result.claims_refused, steps=result.steps, inner_steps=result.inner_steps,
            llm_calls=usage.calls, tokens_in=usage.prompt_tokens, tokens_out=usage.completion_tokens, reason=result.reason,
            rejoins=result.rejoins, deaths=result.deaths, bots=bots or {}, **figures,
        )


def episode_specs(suite: Suite, tasks: list[Task], llms: list[str], seeds: int, out: Path,
                  config: Path | None, threads: int) -> list[EpisodeSpec]:
    """Every episode, scenario by scenario; each seed's world is built once here, so a seed that
    breaks a scenario stops the eval before it starts. `threads`: an episode's share of its
    machine's cores, for an in-process model."""
    specs = []
    for task in tasks:
        for seed in range(seeds):
            task.scenario(seed)
            for llm in llms:
                folder = out / "episodes" / f"{len(specs) + 1:03d}-{task.name}-s{seed}-{slug(llm)}"
                specs.append(EpisodeSpec(suite=suite.name, task=task, seed=seed, llm=llm, options=suite.planner,
                                         folder=folder.resolve(), config=config, llm_threads=threads))
    return specs


def core_share(workers: int) -> int:
    """An episode's share of this machine's cores when `workers` run at once."""
    return max(1, (os.cpu_count() or 1) // workers)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", Path(text.partition(":")[2]).stem or text).strip("-")[:24] or "llm"


def request(spec: EpisodeSpec) -> RunRequest:
    """The run: a fresh local server on a free port, notes of its own, the suite's bounds."""
    loaded = load_config(spec.config)
    server = loaded.config.server.model_copy(update={"kind": "local", "port": 0, "scenario": spec.task.source})
    config = loaded.config.model_copy(update={"server": server, "llm": spec.backend(),
                                              "infospace": spec.folder / "notes.db", "announce_methods": False,
                                              "llm_threads": spec.llm_threads or loaded.config.llm_threads})
    scenario = spec.task.scenario(spec.seed)
    return RunRequest(
        config=config, tool_sources=episode_tool_sources(loaded), world=WorldOptions(scenario=scenario),
        goal=spec.task.goal, check=scenario.success, judge=scenario.judge,
        goals=understand(spec.task.goal, config.mc_version) if scenario.success is None else None, milestones=scenario.milestones, options=spec.options,
        trace=spec.folder / "trace.jsonl", deadline_s=spec.bound_s,
    )


def episode_tool_sources(loaded: LoadedConfig) -> list[ToolSource]:
    """Where an episode's tools come from: the config's folders and modules, and installed packages."""
    config, base = loaded.config, loaded.file.parent if loaded.file else None
    return standard_sources(config.world, config.tool_folders, base, modules=config.tool_modules)


def team_request(spec: EpisodeSpec, team: Team) -> TeamRequest:
    """A team task's run: the one bot's run, its bots' traces in the episode's folder."""
    one = request(spec)
    return TeamRequest(config=one.config, tool_sources=one.tool_sources, world=one.world, team=team,
                       check=one.check, options=one.options, folder=spec.folder, deadline_s=one.deadline_s)


class EpisodeClock:
    """An episode's clock: set-up (the server's start, the model's load, the bots' joining) until its
    bots stand in the world, then the run, which the task's time bounds (runner.py bounds each
    apart, told of the change by READY_FILE). The record is made and written when the run ends,
    before the world is let go: a teardown the runner kills loses nothing the world verified."""

    def __init__(self, spec: EpisodeSpec):
        self._spec, self._started = spec, time.monotonic()
        self._ready: float | None = None
        self._run_end: float | None = None
        self.record: EpisodeRecord | None = None

    def ready(self, session: WorldSession) -> None:
        self._ready = time.monotonic()
        (self._spec.folder / READY_FILE).write_text(f"{self._ready - self._started:.3f}\n", encoding="utf-8")

    def run_ended(self) -> None:
        """The run's end, before the world is read after it (a build's score)."""
        self._run_end = time.monotonic()

    def times(self) -> EpisodeTimes:
        now = time.monotonic()
        if self._ready is None:
            return EpisodeTimes(wall_s=now - self._started)
        return EpisodeTimes(wall_s=now - self._started, setup_s=round(self._ready - self._started, 3),
                            task_s=round((self._run_end or now) - self._ready, 3))

    def ended(self, result: RunResult, build: BuildScore | None, bots: dict[str, RunTotals] | None = None) -> None:
        """The record, as the run ended; a success verified past the task's time is none (the
        deadline stops a run at its next step, and a step under way may end after it)."""
        times, bound = self.times(), self._spec.bound_s
        if result.outcome == "success" and bound and times.task_s is not None and times.task_s > bound:
            result = result.model_copy(update={"outcome": "stopped", "reason": f"verified at {times.task_s:.1f} s "
                                               f"of the run, past the task's {bound:g} s: {result.reason}"})
        self.record = self._spec.record(result, result.reason, times, build=build, bots=bots)
        self._spec.record_path.write_text(self.record.model_dump_json(), encoding="utf-8")


def run_episode(spec: EpisodeSpec) -> EpisodeRecord:
    clock = EpisodeClock(spec)
    build, scores = spec.task.built(spec.seed), list[BuildScore]()

    def after_run(session: WorldSession) -> None:
        clock.run_ended()
        if build is not None:
            scores.append(read_score(session.bot, build))

    def ended(result: RunResult, bots: dict[str, RunTotals] | None = None) -> None:
        clock.ended(result, scores[0] if scores else None, bots)

    hooks = {"on_ready": clock.ready, "after_run": after_run}
    try:
        if spec.task.team is None:
            plan_in_world(request(spec).model_copy(update={**hooks, "on_result": ended}))
        else:
            plan_team(team_request(spec, spec.task.team).model_copy(
                update={**hooks, "on_result": lambda team: ended(team.as_one(), team.totals())}))
    except Exception as e:  # noqa: BLE001 - whatever stopped the episode becomes its record's reason
        return clock.record or spec.record(None, f"{type(e).__name__}: {e}", clock.times())
    assert clock.record is not None, "a run that returns told its result"
    return clock.record


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    # SIGTERM ourselves when the eval goes (even by SIGKILL): `with` blocks then stop the server.
    when_parent_dies(lambda: os.kill(os.getpid(), signal.SIGTERM))
    spec = EpisodeSpec.model_validate_json(Path(argv[0]).read_text(encoding="utf-8"))
    record = run_episode(spec)
    spec.record_path.write_text(record.model_dump_json(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
