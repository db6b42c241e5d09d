"""One planned run in a world, from typed values: what `mcagent run`, `mcagent demo` and every
`mcagent eval` episode share. It prints nothing; the caller watches through `on_event`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.checks import Check, Verdict, evaluate, start_the_way
from agent.chat.team import BotTeam
from agent.config import AgentConfig
from agent.errors import ConfigError
from agent.goals import Understanding, ground, read_grounds, read_grounds_for
from agent.goals.grounds import Point
from agent.infospace import Infospace, default_db_path
from agent.llm import Metered
from agent.llm.backend_spec import open_configured
from agent.planner import Planner, PlannerOptions, RunResult
from agent.planner.context import Offers
from agent.planner.control import RunControl
from agent.planner.classify import classify
from agent.planner.domains import domain_values
from agent.planner.focus import Focus
from agent.planner.tool_trace import ToolTrace
from agent.session.build_seen import record_builds
from agent.session.deadline import stopped_after
from agent.session.keeper import BodyKeeper
from agent.session.milestones import MilestoneWatch
from agent.session.model_choosing import choosing_weight
from agent.session.model_reading import reading_leave
from agent.session.watching import run_setup, watching
from agent.session.world import WorldOptions, WorldSession, bot_session
from agent.tools.schema import DomainValues
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.interfaces import ToolObserver
from agent.trace import Event, TraceWriter
from agent.trace.schema import Judged, ModelReading
from agent.world.digest import world_digest
from agent.world.spatial import MAP_FILE, SpatialMemory

# The tool whose one-line summary opens the prompt as the world state, when the world has it.
STATE_TOOL = "mc-status"


class RunRequest(BaseModel):
    """Everything one run needs. `check`: what the world must show for the goal to count as
    reached; None leaves a DONE claim unverified."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)
    config: AgentConfig
    tool_sources: list[ToolSource]
    world: WorldOptions
    goal: str
    check: Check | None = None  # as a user or a scenario wrote it: the goal's one sub-goal
    goals: Understanding | None = None  # without a check: the sub-goals read from the goal's words (agent/goals)
    judge: Check | None = None  # read after the run, never shown to the planner (the result's `judged`)
    milestones: list[Check] = []  # checks on the way, each reported when it first holds (milestones.py)
    options: PlannerOptions
    trace: Path | None  # None: the run's events stay in memory (a soak's many runs)
    on_event: Callable[[Event], None] | None = None
    on_say: Callable[[str], None] | None = None
    on_ready: Callable[[WorldSession], None] | None = None  # told once the bot is in the world
    after_run: Callable[[WorldSession], None] | None = None  # told once the run ended, the bot still in the world
    on_result: Callable[[RunResult], None] | None = None  # told the result after after_run, before the world goes
    control: RunControl | None = None  # steering from outside the run (a teammate that reached the team's goal)
    deadline_s: float | None = None  # the run is stopped this long after the bot stands in the world (deadline.py)
    on_tool_error: Callable[[str], None] | None = None  # each broken Skill.md, as one line


def plan_in_world(request: RunRequest) -> RunResult:
    """Opens the LLM, loads the tools, puts the bot in the world and plans toward the goal.

    With a check, the result's `final_check` is the check read once more after the planner
    let go, while the bot is still in the world: the figure an eval trusts."""
    toolbox = load_tools(request)
    backend = open_configured(request.config)
    if request.trace is not None:
        map_beside(request.trace)  # refused before anything is written or started, as a taken trace is
    writer = TraceWriter(request.trace, on_event=request.on_event)  # a taken trace path is refused before the server starts
    try:
        with bot_session(request.config, request.world) as session:
            control = request.control or RunControl()
            if request.on_ready is not None:
                request.on_ready(session)
            with stopped_after(request.deadline_s, [(control, session)]):
                result = plan_in_session(request.model_copy(update={"control": control}), session, toolbox, backend,
                                         writer)
            if request.after_run is not None:
                request.after_run(session)
            if request.on_result is not None:
                request.on_result(result)
            return result
    finally:
        writer.close()


def _saying(session: WorldSession, also: Callable[[str], None] | None) -> Callable[[str], None]:
    """What the say primitive does in a world run: the bot says it in the game's chat (the bot
    of the moment: a rejoin brings a new one), and `also` hears it (the CLI prints it)."""

    def say(text: str) -> None:
        session.bot.chat(text)
        if also is not None:
            also(text)

    return say


def plan_in_session(request: RunRequest, session: WorldSession, toolbox: Toolbox, backend: Metered,
                    writer: TraceWriter) -> RunResult:
    """One run in a session already in the world (`mcagent soak` runs many in one): its notes,
    its map (next to the trace, where the report reads it; in memory without a trace), the
    planner and the executor, the body keeper and the watchers, all let go at its end."""
    infospace = Infospace.open(request.config.infospace or default_db_path(request.config.username))
    world_map = SpatialMemory.open(map_beside(request.trace) if request.trace else None)
    try:
        planner = Planner(backend, toolbox, request.options, writer, request.control)  # first: it traces the backend's calls
        planner.ctx.weight = choosing_weight(backend, request.config.llm_weight)
        goals, model_reading = understood(request, session, backend)
        check = goals.check
        executor = Executor(toolbox, infospace, world=session.bot, world_map=world_map, goal_check=check,
                            llm=backend, method_runner=planner, subplanner=planner,
                            on_say=_saying(session, request.on_say),
                            observer=_observer(request, session, backend, writer),
                            tool_timeout_s=request.config.tool_timeout_s)
        focus = Focus(goals, lambda c: evaluate(session.bot, c), model_reading=model_reading)
        judge = None if check is None else partial(focus.judge, check)
        body = BodyKeeper(session, request.config.reconnect, writer.add)
        stop_following = session.on_rejoin(lambda bot: setattr(executor, "world", bot))
        try:
            with watching(session, planner, request.config):
                setup = run_setup(request.config, session, backend)
                start_the_way(session.bot)  # an `avoided` check counts from here (an earlier run's way is not this one's)
                result = planner.run(request.goal, executor, world=world_state(executor, toolbox), setup=setup,
                                     judge=judge, check=check, body=body,
                                     digest=lambda: world_digest(executor.world),
                                     focus=focus,
                                     offers=_offers(session, request.goal, request.config.mc_version),
                                     team=BotTeam(lambda: session.bot))
        finally:
            stop_following()
        if judge is not None:
            result = result.model_copy(update={"final_check": judge()})
            record_builds(session.bot, check, writer)
        if request.judge is not None:
            result = result.model_copy(update={"judged": hidden_judge(session, request.judge, writer)})
    finally:
        infospace.close()
        world_map.close()
    return result


def understood(request: RunRequest, session: WorldSession,
               backend: Metered) -> tuple[Understanding, ModelReading | None]:
    """The run's sub-goals grounded in the world at its start: the check given as one, else those
    read from the words, else the model's classification among what the world offers, where the
    gate lets the model read (model_reading.py; none that already holds: a goal is what is not
    yet so); places from the start mean the bot's feet now. With them, the gate's word when the
    words were not read by rules at all (None otherwise)."""
    goals = request.goals if request.check is None and request.goals is not None else \
        Understanding.given(request.goal, request.check)
    if all(g.grounded for g in goals.subgoals) and (goals.subgoals or request.goals is None):
        return goals, None
    if not goals.subgoals:
        return read_by_model(request, session, backend, goals)
    grounds = read_grounds_for(session.bot, request.goal, goals)
    if grounds is None:  # what cannot be grounded is not asked: a wrong check is worse than none
        return goals.model_copy(update={"subgoals": [g for g in goals.subgoals if g.grounded]}), None
    return ground(goals, grounds), None


def read_by_model(request: RunRequest, session: WorldSession, backend: Metered,
                  goals: Understanding) -> tuple[Understanding, ModelReading]:
    """Words no rule read: the model's classification among what the world offers, only when the
    backend's reading was measured at the mark (the world is not even read otherwise)."""
    leave = reading_leave(backend)
    grounds = read_grounds_for(session.bot, request.goal, goals) if leave.reads else None
    if grounds is None:  # not let read, or the world cannot be read: a wrong check is worse than none
        return goals, leave
    read = classify(request.goal, grounds, backend, request.config.mc_version)
    fresh = read is not None and not evaluate(session.bot, read.check).holds
    return goals.model_copy(update={"subgoals": [read] if fresh else []}), leave


def _offers(session: WorldSession, goal: str, mc_version: str | None) -> Offers:
    """What each argument domain offers at a step; the first reading's feet are where the run began."""
    start: list[Point] = []

    def read() -> DomainValues | None:
        grounds = read_grounds(session.bot, goal)
        if grounds is None:
            return None
        start[:] = start or [grounds.feet]
        return domain_values(grounds, mc_version, start=start[0])
    return read


def hidden_judge(session: WorldSession, check: Check, writer: TraceWriter) -> Verdict:
    """The judge's verdict after the run, recorded in the trace."""
    verdict = evaluate(session.bot, check)
    writer.add(Judged(check=check.describe(), holds=verdict.holds, detail=verdict.detail))
    return verdict


def map_beside(trace: Path) -> Path:
    """Where the run's map goes: beside its trace, where the report reads it. A map already there
    is another run's (a --trace given into its folder), and it is never replaced."""
    path = trace.with_name(MAP_FILE)
    if path.exists():
        raise ConfigError(f"{path} holds another run's map, and a map is never overwritten: "
                         "give the run a trace path in a folder of its own")
    return path


def load_tools(request: RunRequest) -> Toolbox:
    toolbox = load_toolbox(request.tool_sources)
    for error in toolbox.errors:
        if request.on_tool_error is not None:
            request.on_tool_error(str(error))
    unknown = [name for name in request.options.tools or [] if name not in toolbox.tools]
    if unknown:
        raise ConfigError(f"no tool named {unknown[0]!r}; is skills/ among the config's tool_folders?")
    return toolbox


def _observer(request: RunRequest, session: WorldSession, backend: Metered, writer: TraceWriter) -> ToolObserver:
    """The trace of every tool call, and the milestones read after each when the run has any."""
    trace = ToolTrace(writer)
    return MilestoneWatch(trace, request.milestones, session, backend, writer) if request.milestones else trace


def world_state(executor: Executor, toolbox: Toolbox) -> str:
    if STATE_TOOL not in toolbox.tools:
        return ""
    state = executor.execute_action({"type": STATE_TOOL})
    return state.value if state.ok else f"unknown ({STATE_TOOL} failed: {state.reason})"
