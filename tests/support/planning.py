"""A planner on the scripted backend over the core primitives and tests/fixtures/planner/tools,
and small builders for scripts: the replies a model would give, in call order."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.infospace import Infospace
from agent.llm import LlmError
from agent.llm.scripted import Script, ScriptedBackend, ScriptedCall
from agent.planner import prompts
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.planner.tool_trace import ToolTrace
from agent.trace import TraceWriter
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PLANNER_TOOLS = FIXTURES / "planner" / "tools"
EXPLORE_POLICY = FIXTURES / "planner" / "explore_policy.py"
STATUS_POLICY = FIXTURES / "planner" / "status_policy.py"
NOTE_POLICY = FIXTURES / "planner" / "note_policy.py"


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

    def run(self, goal: str = "measure something large", digest: Callable[[], str | None] | None = None):
        return self.planner.run(goal, self.executor, world="a test bench", digest=digest)

    def prompts(self) -> list[str]:
        return [call.prompt for call in self.backend.calls]


class Reply(str):
    """A scripted reply for one field of a turn (thoughts, tool, args, next, done). The planner
    does not ask for what is forced (one tool offered, arguments the protocol writes, a next
    task a check decides), so a rig skips the replies for fields it was not asked."""

    field: str

    def __new__(cls, text: str, field: str) -> Reply:
        reply = super().__new__(cls, text)
        reply.field = field
        return reply


_FIELDS = {prompts.THOUGHTS: "thoughts", prompts.TOOL_NAME: "tool", prompts.TOOL_ARGS: "args",
           prompts.NEXT_TASK: "next", prompts.DONE: "done"}


def asked_field(call: ScriptedCall) -> str | None:
    """The field a call asks for: the label its prompt ends with."""
    return next((field for label, field in _FIELDS.items() if call.prompt.endswith(label.rstrip())
                 or call.prompt.endswith(label)), None)


def in_field_order(script: list[str]) -> Script:
    """`script` served in order, skipping a field's Reply when the planner asks for another."""
    queue = list(script)

    def reply(call: ScriptedCall) -> str:
        field = asked_field(call)
        while queue and isinstance(queue[0], Reply) and field is not None and queue[0].field != field:
            queue.pop(0)
        if not queue:
            raise LlmError(f"the script has no reply left for call {call.index + 1} ({field})")
        return queue.pop(0)

    return reply


def rig(script: Script | None, *, constrained: bool = True, trace: Path | None = None,
        backend: ScriptedBackend | None = None, **options: Any) -> Rig:
    if isinstance(script, list):
        script = in_field_order(script)
    backend = backend or ScriptedBackend(script or [], constrained=constrained)
    toolbox = planner_toolbox()
    writer = TraceWriter(trace)
    # The loop's mechanics are tested over the whole small catalog; tests of the ranked one say so.
    options.setdefault("catalog", "full")
    options.setdefault("prompt_growth", 1_000_000)  # and in one prompt; tests of a fresh prompt say so
    planner = Planner(backend, toolbox, PlannerOptions(**options), writer)
    executor = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner, subplanner=planner,
                        observer=ToolTrace(writer))
    return Rig(backend, planner, executor, writer)


def act(tool: str, args: dict | str | None = None, thoughts: str = "thinking") -> list[str]:
    """THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON."""
    shown = args if isinstance(args, str) else json.dumps(args or {})
    return [Reply(thoughts, "thoughts"), Reply(tool, "tool"), Reply(shown, "args")]


def reflect(done: bool = False, next_task: str = "keep going") -> list[str]:
    """An outer step's DONE and NEXT_TASK."""
    return [Reply("yes" if done else "no", "done"), Reply(next_task, "next")]


def inner(tool: str, args: dict | None, next_task: str) -> list[str]:
    """One inner step: the action, then NEXT_TASK."""
    return [*act(tool, args), Reply(next_task, "next")]


def measure_then(outcome: str, distance: int = 9) -> list[str]:
    """patrol's two steps, ending in `outcome` (a label such as TERMINATION (DISCOVERY))."""
    return [*inner("measure", {"distance": distance}, "[METHOD: STEP 2]"), *inner("think", {"thought": "big"}, outcome)]
