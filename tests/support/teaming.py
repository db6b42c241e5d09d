"""A planned run of one bot of a team, without the session's runner: the planner, the executor,
the focus on the goal check and the team's inbox and holdings wired to the bot as
agent/session/run.py wires a run's, so that several bots of one process can each run one, in
threads of their own."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from agent.bridge import BotConnection
from agent.chat.team import BotTeam
from agent.checks import Check, evaluate
from agent.goals import Understanding, read_grounds
from agent.infospace import Infospace
from agent.llm.scripted import load_script
from agent.planner import Planner, PlannerOptions, RunResult
from agent.planner.domains import domain_values
from agent.planner.focus import Focus
from agent.planner.tool_trace import ToolTrace
from agent.tools import Executor, Toolbox
from agent.trace import TraceWriter
from agent.world.digest import world_digest


def team_run(bot: BotConnection, goal: str, check: Check, toolbox: Toolbox, policy: Path, trace: Path,
             max_steps: int) -> RunResult:
    """`bot` plans towards `goal`, judged by `check`, with the scripted `policy` as its model."""
    backend = load_script(policy)
    writer = TraceWriter(trace)
    infospace = Infospace.open(":memory:")
    try:
        planner = Planner(backend, toolbox, PlannerOptions(max_steps=max_steps), writer)
        goals = Understanding.given(goal, check)
        executor = Executor(toolbox, infospace, world=bot, goal_check=check, llm=backend, method_runner=planner,
                            subplanner=planner, observer=ToolTrace(writer))
        focus = Focus(goals, lambda c: evaluate(bot, c))

        def offers():
            grounds = read_grounds(bot, goal)
            return None if grounds is None else domain_values(grounds)

        return planner.run(goal, executor, world=f"{bot.username} in a field", judge=partial(focus.judge, check),
                           check=check, digest=lambda: world_digest(bot), focus=focus, offers=offers,
                           team=BotTeam(lambda: bot))
    finally:
        writer.close()
        infospace.close()
