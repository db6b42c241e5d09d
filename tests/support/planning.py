"""A planner on the scripted backend over the core primitives and tests/fixtures/planner/tools,
and small builders for scripts: the replies a model would give, in call order."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.infospace import Infospace
from agent.llm.scripted import Script, ScriptedBackend
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.trace import TraceWriter
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PLANNER_TOOLS = FIXTURES / "planner" / "tools"
EXPLORE_POLICY = FIXTURES / "planner" / "explore_policy.py"
STATUS_POLICY = FIXTURES / "planner" / "status_policy.py"


def run_config(tmp_path: Path, extra: str = "") -> Path:
    """An mcagent.yaml for a test run: notes in tmp_path, the repository's skills, plus `extra` YAML lines."""
    config = tmp_path / "mcagent.yaml"
    config.write_text(f"infospace: {tmp_path / 'notes.db'}\ntool_folders: [{SKILLS_DIR}]\n{extra}")
    return config


def planner_toolbox() -> Toolbox:
    sources = [
        ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
        ToolSource(label="skills", folder=PLANNER_TOOLS, required=True),
    ]
    box = load_toolbox(sources)
    assert not box.errors, box.errors
    return box


@dataclass
class Rig:
    backend: ScriptedBackend
    planner: Planner
    executor: Executor
    trace: TraceWriter

    def run(self, goal: str = "measure something large"):
        return self.planner.run(goal, self.executor, world="a test bench")

    def prompts(self) -> list[str]:
        return [call.prompt for call in self.backend.calls]


def rig(script: Script | None, *, constrained: bool = True, trace: Path | None = None,
        backend: ScriptedBackend | None = None, **options: Any) -> Rig:
    backend = backend or ScriptedBackend(script or [], constrained=constrained)
    toolbox = planner_toolbox()
    writer = TraceWriter(trace)
    planner = Planner(backend, toolbox, PlannerOptions(**options), writer)
    executor = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner, subplanner=planner,
                        observer=writer)
    return Rig(backend, planner, executor, writer)


def act(tool: str, args: dict | str | None = None, thoughts: str = "thinking") -> list[str]:
    """THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON."""
    return [thoughts, tool, args if isinstance(args, str) else json.dumps(args or {})]


def reflect(done: bool = False, next_task: str = "keep going") -> list[str]:
    """An outer step's DONE and NEXT_TASK."""
    return ["yes" if done else "no", next_task]


def inner(tool: str, args: dict | None, next_task: str) -> list[str]:
    """One inner step: the action, then NEXT_TASK."""
    return [*act(tool, args), next_task]


def measure_then(outcome: str, distance: int = 9) -> list[str]:
    """patrol's two steps, ending in `outcome` (a label such as TERMINATION (DISCOVERY))."""
    return [*inner("measure", {"distance": distance}, "[METHOD: STEP 2]"), *inner("think", {"thought": "big"}, outcome)]
