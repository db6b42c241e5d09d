"""`mcagent bench planner`: what the planner itself costs, and how much of its prompt a
prefix-caching backend really computes.

1. Overhead per inner step, on the scripted backend with a no-op tool: each step's wall
   time less its LLM calls and its tool call, so what remains is the planner's (the SGLang
   interpreter, prompts, matching, records).
2. For llamacpp, the tokens prefilled per inner step against the prompt's total, from a
   real explore-area run (the demo's setting).
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from agent.bench.stats import Figure, from_samples
from agent.infospace import Infospace
from agent.llm import Metered
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.planner import Planner, PlannerOptions
from agent.trace.schema import MethodStep
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.frontmatter import CORE_SOURCE
from agent.tools.loader import CORE_TOOLS_DIR, SKILLS_SOURCE

NOOP_SKILL = '---\nname: noop\ntype: python\ndescription: "Does nothing"\n---\n'
NOOP_CODE = "def tool(input_value=None, **kwargs):\n    return None\n"
LOOP_SKILL = """---
name: bench-loop
type: method
description: "Calls noop forever: measures the inner loop"
---
#PURPOSE:
Measure the planner.
#MAIN PROTOCOL LOOP
STEP 1 — CALL
- Call noop.
- Go back to STEP 1.
#TERMINATION CONDITIONS
SUCCESS:
- Never.
"""
# Inner steps per plan in the overhead run: the default bound, so prompts grow as far as in a run.
STEPS_PER_METHOD = 24
EXPLORE_METHOD = "explore-area"


class PrefillRow(BaseModel):
    inner_step: int
    context_tokens: int
    prefilled_tokens: int
    scored_tokens: int

    @property
    def share(self) -> float:
        return self.prefilled_tokens / self.context_tokens if self.context_tokens else 0.0


def overhead(*, calls: int) -> Figure:
    """`calls` inner steps of a method that calls a no-op tool, on instant scripted replies."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, files in {"noop": {"Skill.md": NOOP_SKILL, "tool.py": NOOP_CODE},
                            "bench-loop": {"Skill.md": LOOP_SKILL}}.items():
            (Path(tmp) / name).mkdir()
            for file, text in files.items():
                (Path(tmp) / name / file).write_text(text, encoding="utf-8")
        toolbox = load_toolbox([ToolSource(label=CORE_SOURCE, folder=CORE_TOOLS_DIR),
                                ToolSource(label=SKILLS_SOURCE, folder=Path(tmp))])
        inner: list[MethodStep] = []
        for _ in range(math.ceil(calls / STEPS_PER_METHOD)):  # one prompt per method call: prompts of real size
            inner += _method_steps(ScriptedBackend(_instant), toolbox, "bench-loop", None, STEPS_PER_METHOD)
    ms = np.array([(r.wall_s - r.tool_s - r.llm.seconds) * 1000 for r in inner[:calls]])
    return from_samples("inner step: planner overhead (no LLM, no tool)", ms)


def _instant(call: ScriptedCall) -> str:
    if call.kind == "select":
        return (call.choices or [""])[0]
    return "{}" if call.prompt.endswith("TOOL_ARGS_JSON: ") else "ok"


def prefill(backend: Metered, toolbox: Toolbox, world: object, *, inner_steps: int) -> list[PrefillRow]:
    """One explore-area call of `inner_steps` steps in the world given (the cave, for the README)."""
    return [
        PrefillRow(inner_step=r.inner_loop.inner_step, context_tokens=r.context_tokens,
                   prefilled_tokens=r.llm.prefilled_tokens, scored_tokens=r.llm.scored_tokens)
        for r in _method_steps(backend, toolbox, EXPLORE_METHOD, world, inner_steps) if r.inner_loop
    ]


def _method_steps(backend: Metered, toolbox: Toolbox, method: str, world: object, steps: int) -> list[MethodStep]:
    """The inner steps of one call of `method`, in a prompt of its own that opens with the whole
    catalog, as a method starts in `mcagent run`."""
    infospace = Infospace.open(":memory:")
    try:
        planner = Planner(backend, toolbox, PlannerOptions(method_max_steps=steps))
        executor = Executor(toolbox, infospace, world=world, llm=backend, method_runner=planner, subplanner=planner)
        executor.execute_action({"type": method})
    finally:
        infospace.close()
    return [r for r in planner.trace.events if isinstance(r, MethodStep)]


def prefill_table(rows: list[PrefillRow]) -> str:
    lines = [f"{'inner step':>10}  {'prompt tokens':>13}  {'prefilled':>9}  {'share':>6}  {'select scored':>13}"]
    lines += [
        f"{r.inner_step:>10}  {r.context_tokens:>13}  {r.prefilled_tokens:>9}  {r.share:>6.1%}  {r.scored_tokens:>13}"
        for r in rows
    ]
    later = [r.share for r in rows[1:]]
    if later:
        lines.append(f"after the first: median {np.median(later):.1%}, worst {max(later):.1%} (target <= 10%)")
    return "\n".join(lines)
