"""Episodes: one run of the planner in a world, from typed values. `mcagent run`, `demo` and
every `mcagent eval` episode go through here; the CLI modules only parse and print.

    request = RunRequest(config=config, tool_sources=sources, world=WorldOptions(scenario=s),
                         goal="leave the cave", check=s.success, options=PlannerOptions(), trace=path)
    result = plan_in_world(request)      # result.outcome, result.final_check
"""

from agent.session.run import RunRequest, plan_in_world
from agent.session.world import WorldOptions, WorldSession, bot_session, local_server

__all__ = ["RunRequest", "WorldOptions", "WorldSession", "bot_session", "local_server", "plan_in_world"]
