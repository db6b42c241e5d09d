"""The planner: an SGLang program that drives the tools toward a goal, with method tools run
as bounded inner loops and sub-plans for python tools.

    planner = Planner(backend, toolbox, PlannerOptions(max_steps=20), TraceWriter(trace_path))
    executor = Executor(toolbox, infospace, world=bot, llm=backend, method_runner=planner, subplanner=planner)
    result = planner.run("explore the area until you find open sky", executor, world=summary)
"""

from agent.planner.planner import Planner, PlannerOptions, RunResult

__all__ = ["Planner", "PlannerOptions", "RunResult"]
