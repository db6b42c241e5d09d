"""A team's run: one local server (or yours), a bot per teammate, each planning on a thread of
its own with its own model slot, trace and notes, all in one Python process and so one Node
bridge (one bridge holds 8 bots in 208 MB where a bridge each takes 1.3 GB: docs/performance.md).

The model: an in-process llamacpp cannot serve two threads at once, so a team of more than one
gets a llama-server started for the run with a slot per bot (each slot keeps its own bot's
prompt cached); a llama-server spec without a slot gets one slot per bot; any other spec is
opened once per bot. Traces: `<folder>/<bot>/trace.jsonl`, which `mcagent replay <folder>` interleaves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.bridge import connect
from agent.checks import Check
from agent.checks.model import All, HasItem, TeamHas
from agent.config import AgentConfig
from agent.errors import ConfigError
from agent.goals import Understanding
from agent.llm import Metered, parse_spec
from agent.llm.backend_spec import on_lane, open_configured
from agent.planner import PlannerOptions, RunResult
from agent.planner.control import RunControl
from agent.session.deadline import stopped_after
from agent.session.goal import goals_asked
from agent.session.run import RunRequest, load_tools, plan_in_session
from agent.session.team import Team, Teammate
from agent.session.world import WorldOptions, WorldSession, bot_session, viewer_for
from agent.tools import Toolbox, ToolSource
from agent.trace import Event, TraceWriter
from agent.trace.records import Usage
from agent.trace.schema import RunTotals
from agent.trace.team import TRACE_FILE


class TeamResult(BaseModel):
    """Each bot's result, by name, and whether the team reached what it was asked: a shared goal
    when any bot verified it, goals of their own when every bot verified its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    results: dict[str, RunResult]
    shared: bool
    interrupted: bool = False  # by Ctrl-C: every bot was stopped

    @property
    def verified(self) -> bool:
        done = [reached(r) for r in self.results.values()]
        return any(done) if self.shared else all(done)

    @property
    def exit_code(self) -> int:
        return 130 if self.interrupted else 0 if self.verified else 1

    def totals(self) -> dict[str, RunTotals]:
        """Each bot's run, by name, as its trace's end keeps it."""
        return {name: RunTotals.model_validate(r.model_dump(include=set(RunTotals.model_fields)))
                for name, r in self.results.items()}

    def as_one(self) -> RunResult:
        """The team's run as one result, for an eval's record: the run of the bot that reached the
        goal (else the first), with every bot's steps, claims and model use added up."""
        runs = list(self.results.values())
        lead = next((r for r in runs if reached(r)), runs[0])
        usage = Usage(**{f: sum(getattr(r.usage, f) for r in runs) for f in Usage.model_fields})
        added = {f: sum(getattr(r, f) for r in runs)
                 for f in ("steps", "inner_steps", "claims", "claims_refused", "rejoins", "deaths")}
        outcome = "success" if self.verified else lead.outcome
        return lead.model_copy(update={**added, "usage": usage, "outcome": outcome,
                                       "wall_s": max(r.wall_s for r in runs)})


class TeamRequest(BaseModel):
    """Everything a team's run needs; `check`: the team goal's check, as given (None: read from
    its words). `on_event(bot, event)`: every bot's events as they come, from its thread."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)
    config: AgentConfig
    tool_sources: list[ToolSource]
    world: WorldOptions
    team: Team
    check: Check | None = None
    options: PlannerOptions
    folder: Path  # the bots' traces go in a folder each, under this one
    on_event: Callable[[str, Event], None] | None = None
    on_ready: Callable[[WorldSession], None] | None = None  # the first bot's, once every bot is in the world
    after_run: Callable[[WorldSession], None] | None = None  # the first bot's, once every run ended
    on_result: Callable[[TeamResult], None] | None = None  # after after_run, before the world goes
    deadline_s: float | None = None  # every run is stopped this long after the bots stand in the world
    on_tool_error: Callable[[str], None] | None = None


def plan_team(request: TeamRequest) -> TeamResult:
    """Every bot in the world, then every bot's run on its own thread; returns when all ended."""
    team, config = request.team, request.config
    world = request.world.model_copy(update={"scenario": team.in_world(request.world.scenario)})
    goals = [_goals(request, bot, world) for bot in team.bots]
    toolbox = _team_tools(request, goals[0], world)
    results: dict[str, RunResult] = {}
    errors: list[BaseException] = []
    controls = [RunControl() for _ in team.bots]
    with ExitStack() as stack:
        specs = stack.enter_context(model_slots(config, len(team.bots)))
        configs = [_own_config(config, b.name, s, team) for b, s in zip(team.bots, specs)]
        backends = [open_configured(c) for c in configs]
        first = stack.enter_context(bot_session(configs[0], world))
        sessions = [first, *(stack.enter_context(_teammate(first, c, n)) for n, c in enumerate(configs[1:], 1))]
        if request.on_ready is not None:
            request.on_ready(first)

        def run(i: int) -> None:
            bot = team.bots[i]
            member = _member_request(request, bot, goals[i], world, configs[i], controls[i])
            try:
                results[bot.name] = _run_one(member, sessions[i], toolbox, backends[i], bot.denied)
            except Exception as e:  # noqa: BLE001 - raised once every bot ended: the others finish their runs
                errors.append(e)
                return
            if team.shares_goal() and reached(results[bot.name]):
                for j, other in enumerate(controls):  # the team's goal is reached: the others stop now
                    other.request_stop(f"teammate {bot.name}, who reached the team's goal,")
                    if j != i:
                        sessions[j].bot.halt()  # what it is doing (a walk, a wait) ends too

        with stopped_after(request.deadline_s, list(zip(controls, sessions))):
            interrupted = _run_all({f"bot-{b.name}": partial(run, i) for i, b in enumerate(team.bots)}, controls,
                                   sessions)
        if errors:
            raise errors[0]
        in_order = {b.name: results[b.name] for b in team.bots if b.name in results}  # the team's order
        result = TeamResult(results=in_order, shared=team.shares_goal(), interrupted=interrupted)
        if request.after_run is not None:
            request.after_run(first)
        if request.on_result is not None:
            request.on_result(result)
    return result


def _run_one(member: RunRequest, session: WorldSession, toolbox: Toolbox, backend: Metered,
             denied: list[str]) -> RunResult:
    """One bot's run, without the tools it is denied, its trace closed at its end."""
    writer = TraceWriter(member.trace, on_event=member.on_event)
    allowed = Toolbox(tools={name: spec for name, spec in toolbox.tools.items() if name not in denied})
    try:
        return plan_in_session(member, session, allowed, backend, writer)
    finally:
        writer.close()


def _team_tools(request: TeamRequest, goals: Understanding, world: WorldOptions) -> Toolbox:
    """The tools, loaded once for every bot; a denied tool that does not exist is a mistake."""
    toolbox = load_tools(_member_request(request, request.team.bots[0], goals, world, request.config, None))
    unknown = sorted({name for b in request.team.bots for name in b.denied} - set(toolbox.tools))
    if unknown:
        raise ConfigError(f"team: a bot is denied {', '.join(unknown)}, which no tool is named; tools: "
                          f"{', '.join(sorted(toolbox.tools))}")
    return toolbox


def reached(result: RunResult) -> bool:
    """Whether a bot's run reached its goal as the world says (an unchecked DONE is not)."""
    return result.outcome == "success" and result.final_check is not None and result.final_check.holds


def _run_all(runs: dict[str, Callable[[], None]], controls: list[RunControl], sessions: list[WorldSession]) -> bool:
    """Starts each bot's run on a thread named by its key and waits for them; whether Ctrl-C ended
    them. Ctrl-C reaches this thread only: every bot is told to stop at its next step, what each
    is doing is halted (a walk, a dig), and they are waited for, so that the server and bots are
    let go after them.

    The wait is on each thread's own end, not Thread.join: a Ctrl-C that lands inside join's lock
    wait on Python 3.11 marks that thread as ended while it still runs (the `lock.locked()` repair
    in threading._wait_for_tstate_lock), and the team then tore the world down under a live bot."""
    ended = [threading.Event() for _ in runs]
    threads = [threading.Thread(target=_then_set, args=(run, done), name=name)
               for (name, run), done in zip(runs.items(), ended)]
    for t in threads:
        t.start()
    interrupted = False
    while not all(done.is_set() for done in ended):
        try:
            next(done for done in ended if not done.is_set()).wait(0.5)
        except KeyboardInterrupt:
            if not interrupted:
                interrupted = True
                for control in controls:
                    control.request_stop("Ctrl-C")
                for session in sessions:
                    session.bot.halt()
    for t in threads:
        t.join()
    return interrupted


def _then_set(run: Callable[[], None], done: threading.Event) -> None:
    try:
        run()
    finally:
        done.set()


def _own_config(config: AgentConfig, name: str, llm: str, team: Team) -> AgentConfig:
    """A bot's config: its name, its model slot, notes of its own (by default they are kept per
    username; a notes file the config names gets the bot's name beside it), and the chat
    allowlist without the team's bots: a teammate's whisper ("please give me 2 iron_ingot",
    agent/goals/asking.py) is an ask the planner reads, never a goal or a command to obey."""
    notes = config.infospace
    own = None if notes is None else notes.with_name(f"{notes.stem}-{name}{notes.suffix}")
    bots = {b.name.lower() for b in team.bots}  # the server tells players apart without case
    allowlist = [p for p in config.chat_allowlist if p.lower() not in bots]
    return config.model_copy(update={"username": name, "llm": llm, "infospace": own, "chat_allowlist": allowlist})


def _goals(request: TeamRequest, bot: Teammate, world: WorldOptions) -> Understanding:
    """A bot's sub-goals: its own goal's, or the team's, where what is to be held is the team's
    to hold (`team_has`): any bot holding it reaches it for all."""
    check = request.check if bot.goal is None else None
    goal = request.team.goal_of(bot, world.scenario)
    goals = goals_asked(goal, None, world, request.config.mc_version or "") if check is None else \
        Understanding.given(goal, check)
    if bot.goal is not None or not request.team.shares_goal():
        return goals
    return goals.model_copy(update={"subgoals": [g.model_copy(update={"check": held_by_team(g.check)})
                                                 for g in goals.subgoals]})


def held_by_team(check: Check) -> Check:
    """`has_item`, in a check or any `all` of it, as `team_has`: the team's goal is held by anyone."""
    if isinstance(check, HasItem):
        return TeamHas(team_has=check.has_item)
    if isinstance(check, All):
        return check.model_copy(update={"all": [held_by_team(c) for c in check.all]})
    return check


def _member_request(request: TeamRequest, bot: Teammate, goals: Understanding, world: WorldOptions,
                    config: AgentConfig, control: RunControl | None) -> RunRequest:
    on_event = None if request.on_event is None else (lambda e, name=bot.name: request.on_event(name, e))
    return RunRequest(config=config, tool_sources=request.tool_sources, world=world, goal=goals.goal,
                      goals=goals, options=request.options, trace=request.folder / bot.name / TRACE_FILE,
                      on_event=on_event, on_tool_error=request.on_tool_error, control=control)


@contextmanager
def _teammate(first: WorldSession, config: AgentConfig, nth: int) -> Iterator[WorldSession]:
    """The `nth` other bot in the first one's world, with a viewer of its own on the port after the
    one before (any free one when the configured port is 0). It does not start the server again
    when the server dies (the first bot's keeper does), so it has no `local`."""
    host, port = first.address.rsplit(":", 1)
    version = first.server.version if first.server is not None else config.mc_version
    with connect(host=host, port=int(port), username=config.username, version=version) as bot:
        assert first.world is not None, "bot_session sets the world"
        viewer = viewer_for(config, first.world, bot, config.viewer.port + nth if config.viewer.port else 0)
        session = WorldSession(bot, first.server, first.address, viewer, config=config, world=first.world)
        try:
            yield session
        finally:
            session.bot.close()  # the bot of its last rejoin


@contextmanager
def model_slots(config: AgentConfig, bots: int) -> Iterator[list[str]]:
    """An `--llm` spec per bot: a slot each of a llama-server, started here for an in-process
    model (llamacpp serves one thread at a time); other specs as they are, one per bot."""
    spec = parse_spec(config.llm)
    if spec.kind != "llamacpp" or bots == 1:
        yield [on_lane(config.llm, i) for i in range(bots)]
        return
    from agent.serving.model_server import LocalLlamaServer  # noqa: PLC0415 - starts a process; only a team needs it

    with LocalLlamaServer(Path(spec.target) if spec.target else None, parallel=bots,
                          threads=config.llm_threads) as server:
        yield [f"{server.spec()}?slot={i}" for i in range(bots)]
