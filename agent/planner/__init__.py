"""The planner: an SGLang program that drives the tools toward a goal, with method tools run
as bounded inner loops and sub-plans for python tools.

    planner = Planner(backend, toolbox, PlannerOptions(max_steps=20), Recorder(trace_path))
    executor = Executor(toolbox, infospace, world=bot, llm=backend, method_runner=planner, subplanner=planner)
    result = planner.run("explore the area until you find open sky", executor, world=summary)
"""

from agent.planner.planner import Planner, PlannerOptions, RunResult
from agent.planner.records import InnerLoop, MethodRecord, Recorder, RunRecord, StepRecord, read_trace

__all__ = [
    "InnerLoop",
    "MethodRecord",
    "Planner",
    "PlannerOptions",
    "Recorder",
    "RunRecord",
    "RunResult",
    "StepRecord",
    "read_trace",
]
