"""`mcagent bench planner`: what the planner itself costs, and how much of its prompt a
prefix-caching backend really computes.

1. Overhead per inner step, on the scripted backend with a no-op tool: each step's wall
   time less its LLM calls and its tool call, so what remains is the planner's (the SGLang
   interpreter, prompts, matching, records).
2. For llamacpp, the tokens prefilled per step against the prompt's total, where the model
   chooses every step: a plan over the whole catalog toward a check that cannot hold.
3. For llamacpp, from a real explore-area run (the demo's setting): the LLM calls per inner
   step, and where the run's wall time went (LLM calls, tools, the rest), read from its trace.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from agent.bench.stats import Figure, from_samples
from agent.checks import evaluate, parse_check
from agent.config import AgentConfig
from agent.eval.records import TraceCosts, trace_costs
from agent.infospace import Infospace
from agent.llm import Metered
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.llm.backend_spec import open_configured
from agent.planner import Planner, PlannerOptions
from agent.planner.offer import Catalog
from agent.session import WorldOptions, bot_session
from agent.trace.schema import Event, MethodStep, OuterStep, RunEnd
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.frontmatter import CORE_SOURCE
from agent.tools.loader import CORE_TOOLS_DIR, SKILLS_SOURCE

# noop takes an argument and bench-loop's branches are prose, so the model is asked THOUGHTS, the
# arguments and NEXT_TASK at every step: the overhead measured is that of a step the model decides.
NOOP_SKILL = ('---\nname: noop\ntype: python\ndescription: "Does nothing"\n'
              'schema_hint: {type: object, properties: {note: {type: string}}}\n---\n')
# Each call answers another word (numbers would not do: the loop watch reads past them), so that
# the runtime does not end bench-loop as going round in circles after a few steps.
NOOP_CODE = """import itertools
_calls = itertools.count()


def tool(input_value=None, **kwargs):
    n, word = next(_calls), ""
    while not word or n:
        n, letter = divmod(n, 26)
        word = chr(ord("a") + letter) + word
    return word
"""
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
- If there is more to measure: go back to STEP 1.
- If it is measured: proceed to TERMINATION (SUCCESS).
#TERMINATION CONDITIONS
SUCCESS:
- Never.
"""
# Inner steps per plan in the overhead run: the default bound, so prompts grow as far as in a run.
STEPS_PER_METHOD = 24
EXPLORE_METHOD = "explore-area"
LOOP_METHOD = "bench-loop"
# What the step's issue asks of the demo's setting with the embedded model.
TARGET_CALLS_PER_INNER_STEP = 1.5
# What Step 13 asks of a step's prompt over the ranked catalog.
TARGET_PROMPT_TOKENS = 2500


# The prefill run's goal and check: it cannot hold, so the model keeps choosing to the last step.
PREFILL_GOAL = "explore the area and report what is in it"
UNREACHABLE = {"feet_y_at_least": 400}


class PrefillRow(BaseModel):
    step: int
    context_tokens: int
    prefilled_tokens: int
    scored_tokens: int

    @property
    def share(self) -> float:
        return self.prefilled_tokens / self.context_tokens if self.context_tokens else 0.0


def overhead(*, calls: int) -> Figure:
    """`calls` inner steps of a method that calls a no-op tool, on instant scripted replies."""
    with tempfile.TemporaryDirectory() as tmp:
        toolbox = loop_toolbox(Path(tmp))
        inner: list[MethodStep] = []
        while len(inner) < calls:  # one prompt per method call: prompts of real size
            inner += _method_steps(ScriptedBackend(instant), toolbox, LOOP_METHOD, None, STEPS_PER_METHOD)
    ms = np.array([(r.wall_s - r.tool_s - r.llm.seconds) * 1000 for r in inner[:calls]])
    return from_samples("inner step: planner overhead (no LLM, no tool)", ms)


def loop_toolbox(folder: Path) -> Toolbox:
    """The core tools, noop and bench-loop (written into `folder`, which must outlive the toolbox's use)."""
    for name, files in {"noop": {"Skill.md": NOOP_SKILL, "tool.py": NOOP_CODE},
                        LOOP_METHOD: {"Skill.md": LOOP_SKILL}}.items():
        (folder / name).mkdir()
        for file, text in files.items():
            (folder / name / file).write_text(text, encoding="utf-8")
    return load_toolbox([ToolSource(label=CORE_SOURCE, folder=CORE_TOOLS_DIR),
                         ToolSource(label=SKILLS_SOURCE, folder=folder)])


def instant(call: ScriptedCall) -> str:
    """The scripted backend's reply: the first choice, empty args, "ok" for text."""
    if call.kind == "select":
        return (call.choices or [""])[0]
    return "{}" if call.prompt.endswith("TOOL_ARGS_JSON: ") else "ok"


class ExploreRun(BaseModel):
    """One explore-area call in the world: what the run cost."""

    costs: TraceCosts
    ended: str = Field(description="how the method ended, in its own summary")


def in_world(config: AgentConfig, world: WorldOptions, sources: list[ToolSource], llm: str, *, inner_steps: int,
             catalog: Catalog) -> tuple[ExploreRun, list[PrefillRow]]:
    """On the `llm` backend, in the world the config and `world` give: explore-area first, from
    the cave's spawn as in the demo, then the prefill plan over `catalog`."""
    backend = open_configured(config, llm)
    toolbox = load_toolbox(sources)
    with bot_session(config, world) as session:
        run = explore(backend, toolbox, session.bot, inner_steps=inner_steps)
        return run, catalog_prefill(backend, toolbox, session.bot, steps=inner_steps, catalog=catalog)


def explore(backend: Metered, toolbox: Toolbox, world: object, *, inner_steps: int,
            method: str = EXPLORE_METHOD) -> ExploreRun:
    """One explore-area call (or `method`'s) of at most `inner_steps` steps in the world given (the
    cave, for the README): what it cost and how it ended."""
    events = _method_run(backend, toolbox, method, world, inner_steps)
    end = next((e for e in events if isinstance(e, RunEnd) and e.plan == 0), None)
    return ExploreRun(costs=trace_costs(events), ended=end.reason if end else "the trace has no run_end")


def catalog_prefill(backend: Metered, toolbox: Toolbox, world: object, *, steps: int,
                    catalog: Catalog = "ranked") -> list[PrefillRow]:
    """Prefill per outer step of a plan over the catalog a run gets (ranked for the goal, or the
    whole one) in the world given, toward a check that cannot hold: the model chooses every tool
    and its arguments (and NEXT_TASK, where its free text is asked for), until the step bound or
    the loop watch ends the plan. Methods it calls run their inner steps in the same prompt; they
    count in their outer step."""
    infospace = Infospace.open(":memory:")
    check = parse_check(UNREACHABLE, "check")
    try:
        planner = Planner(backend, toolbox, PlannerOptions(max_steps=steps, method_max_steps=steps, catalog=catalog))
        events = _kept(planner)
        executor = Executor(toolbox, infospace, world=world, llm=backend, method_runner=planner, subplanner=planner,
                            goal_check=check)
        planner.run(PREFILL_GOAL, executor, judge=lambda: evaluate(world, check), check=check)
    finally:
        infospace.close()
    return [PrefillRow(step=r.outer_step, context_tokens=r.context_tokens, prefilled_tokens=r.llm.prefilled_tokens,
                       scored_tokens=r.llm.scored_tokens)
            for r in events if isinstance(r, OuterStep) and r.plan == 0 and r.llm.calls]


def _kept(planner: Planner) -> list[Event]:
    """Every event of the planner's run: its trace writer keeps only the recent ones in memory."""
    events: list[Event] = []
    planner.trace.subscribe(events.append)
    return events


def _method_steps(backend: Metered, toolbox: Toolbox, method: str, world: object, steps: int) -> list[MethodStep]:
    return [r for r in _method_run(backend, toolbox, method, world, steps) if isinstance(r, MethodStep)]


def _method_run(backend: Metered, toolbox: Toolbox, method: str, world: object, steps: int) -> list[Event]:
    """The trace of one call of `method`, in a prompt of its own that opens with the whole
    catalog, as a method starts in `mcagent run`."""
    infospace = Infospace.open(":memory:")
    try:
        planner = Planner(backend, toolbox, PlannerOptions(method_max_steps=steps))
        events = _kept(planner)
        executor = Executor(toolbox, infospace, world=world, llm=backend, method_runner=planner, subplanner=planner)
        executor.execute_action({"type": method})
    finally:
        infospace.close()
    return events


def prefill_table(rows: list[PrefillRow]) -> str:
    lines = [f"{'step':>10}  {'prompt tokens':>13}  {'prefilled':>9}  {'share':>6}  {'select scored':>13}"]
    lines += [
        f"{r.step:>10}  {r.context_tokens:>13}  {r.prefilled_tokens:>9}  {r.share:>6.1%}  {r.scored_tokens:>13}"
        for r in rows
    ]
    later = [r.share for r in rows[1:]]
    if later:
        lines.append(f"after the first: median {np.median(later):.1%}, worst {max(later):.1%} (target <= 10%)")
    if rows:
        lines.append(f"largest prompt: {max(r.context_tokens for r in rows):,} tokens "
                     f"(target < {TARGET_PROMPT_TOKENS:,} with the ranked catalog)")
    return "\n".join(lines)


def costs_text(costs: TraceCosts) -> str:
    """LLM calls per inner step against the target, and where the run's wall time went: in all,
    and per inner step; then who decided, and any method outcome its condition refuted."""
    per_step = costs.llm_calls_per_inner_step
    if per_step is None:
        calls = "- (no inner step ran)"
    else:
        verdict = "meets it" if per_step <= TARGET_CALLS_PER_INNER_STEP else "MISSES it"
        calls = (f"{per_step:.2f}: {costs.inner_llm_calls} calls in {costs.inner_steps} inner steps "
                 f"(target <= {TARGET_CALLS_PER_INNER_STEP:g}: {verdict})")
    run, steps = costs.run_s or 1.0, max(costs.inner_steps, 1)
    parts = {"LLM": costs.llm_s, "tools": costs.tool_s, "other": costs.other_s}
    decided = costs.decisions
    lines = [
        f"LLM calls per inner step: {calls}",
        f"wall time of the run, {costs.run_s:.2f} s: "
        + ", ".join(f"{name} {seconds:.2f} s ({seconds / run:.0%})" for name, seconds in parts.items()),
        "per inner step: " + ", ".join(f"{name} {seconds / steps:.2f} s" for name, seconds in parts.items()),
        "decisions: " + (", ".join(f"{name} {n}" for name, n in decided.model_dump().items()) if decided.total
                         else "none recorded"),
    ]
    if costs.refuted_outcomes:
        lines.append(f"refuted method outcomes: {'; '.join(costs.refuted_outcomes)}")
    return "\n".join(lines)
