"""Episodes: one run of the planner in a world, from typed values. `mcagent run`, `demo` and
every `mcagent eval` episode go through here; the CLI modules only parse and print.

    request = RunRequest(config=config, tool_sources=sources, world=WorldOptions(scenario=s),
                         goal="leave the cave", check=s.success, options=PlannerOptions(), trace=path)
    result = plan_in_world(request)      # result.outcome, result.final_check

The world alone (a server, a bot) is exported here; the run is `agent.session.run`'s, imported
where a run is made, so that commands that only join a world (`call`, `replay --live`) do not
load the planner and its SGLang.
"""

from agent.session.world import WorldOptions, WorldSession, bot_session, local_server

__all__ = ["WorldOptions", "WorldSession", "bot_session", "local_server"]
