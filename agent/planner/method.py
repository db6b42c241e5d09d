"""A method tool's protocol as a bounded inner loop, in the same prompt as the outer loop.

At entry the protocol text is injected whole. Each internal step shows the current protocol
step, chooses one tool with its arguments, runs it, shows its result as ground truth, and
chooses NEXT_TASK. Where the backend can constrain, the runtime holds the model to the
protocol: the tool is one the current step calls, and NEXT_TASK is a step the current step
goes to or a termination outcome. The runtime, not the model, also enforces the step limit
and the no-recursion rule, and ends the method (GOAL_REACHED) once the run's goal check holds
after an internal step. A non-failing termination reaches the outer loop with the check's verdict.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import sglang as sgl

from agent.checks import Verdict
from agent.llm import LlmError
from agent.planner import prompts
from agent.planner.decide import match_task, pick
from agent.planner.control import StopRequested
from agent.planner.steps import StepClock, Turn, choose_action, describe, execute
from agent.tools import Toolbox, ToolResult, ToolSpec
from agent.tools.spec import DEFAULT_MAX_STEPS, MethodProtocol
from agent.trace.schema import InnerLoop, MethodEnd, MethodStart, MethodStep

if TYPE_CHECKING:
    from agent.planner.planner import Frame, Planner

# Outcomes that mean the method did not do its job; any other outcome (SUCCESS, DISCOVERY, ...) did.
FAILING_OUTCOMES = frozenset({"FAILED", "FAILURE", "INAPPLICABLE", "ABORTED", "ERROR"})
# The outcome the runtime gives a method when the run's goal check held after one of its steps.
GOAL_REACHED = "GOAL_REACHED"
_TERMINATION = re.compile(r"TERMINATION \((\w+)\)")
_STEP_LABEL = re.compile(r"\[METHOD: STEP (\d+)\]")
_CALL = r"`{name}`|\b(?:call|execute|use)(?:\s+tool)?:?\s+{name}(?![\w-])"


def task_labels(protocol: MethodProtocol) -> list[str]:
    """Every NEXT_TASK: `[METHOD: STEP X] TITLE` for each step, `TERMINATION (OUTCOME)` for each outcome."""
    return [_step_label(protocol, n) for n in range(1, len(protocol.steps) + 1)] + _outcome_labels(protocol)


def next_tasks(protocol: MethodProtocol, task: str) -> list[str]:
    """What may follow `task`: the steps it goes to and every outcome (a method may always end);
    a step that names no step to go to may go to any."""
    number = _STEP_LABEL.match(task)
    goes_to = protocol.steps[int(number[1]) - 1].goes_to if number else []
    if not goes_to:
        return task_labels(protocol)
    return [_step_label(protocol, n) for n in sorted(goes_to)] + _outcome_labels(protocol)


def method_tools(spec: ToolSpec, toolbox: Toolbox, task: str | None = None) -> list[str]:
    """The tools the current step (`task`) calls, never a method; when it calls none, the whole
    protocol's; when that calls none, every non-method tool.

    A call is written `Call NAME`, `Execute NAME`, `Use NAME` (the seed's forms, also
    `Call tool: NAME`) or `NAME` in backticks: a bare word would catch primitives named
    like plain English (head, map, sort)."""
    usable = [t.name for t in toolbox.tools.values() if t.type != "method" and not t.hidden]
    number = _STEP_LABEL.match(task or "")
    texts = [spec.body] if number is None or spec.protocol is None else [
        spec.protocol.steps[int(number[1]) - 1].text, spec.body]
    for text in texts:
        named = [name for name in usable if re.search(_CALL.format(name=re.escape(name)), text, re.IGNORECASE)]
        if named:
            return sorted(named)
    return sorted(usable)


def _step_label(protocol: MethodProtocol, number: int) -> str:
    return f"[METHOD: STEP {number}] {protocol.steps[number - 1].title}".rstrip()


def _outcome_labels(protocol: MethodProtocol) -> list[str]:
    return [f"TERMINATION ({outcome.name})" for outcome in protocol.outcomes]


def run_method(planner: Planner, frame: Frame, spec: ToolSpec, args: dict[str, Any]) -> ToolResult:
    s, started = frame.state, time.perf_counter()
    protocol = spec.protocol
    assert protocol is not None, "the loader parses every method's protocol"
    bound = planner.options.method_max_steps or spec.max_steps or DEFAULT_MAX_STEPS
    labels = task_labels(protocol)
    s += sgl.user(prompts.METHOD_START.format(
        method=spec.name, args=json.dumps(args, ensure_ascii=False), max_steps=bound,
        tools=", ".join(method_tools(spec, planner.toolbox)), protocol=spec.body.strip(),
        steps="; ".join(labels[: len(protocol.steps)]), outcomes=", ".join(o.name for o in protocol.outcomes),
    ))
    planner.trace.add(MethodStart(plan=frame.plan, method=spec.name, args=args, outer_step=frame.outer_step,
                                  max_steps=bound))
    task, inner, result = labels[0], 0, None
    try:
        while result is None and inner < bound:
            planner.control.check()
            inner += 1
            meta = InnerLoop(method_name=spec.name, inner_step=inner, max_steps=bound, outer_step=frame.outer_step)
            planner.stamp(frame, inner)
            record, reached = _inner_step(planner, frame, spec, meta, task)
            frame.inner_steps += 1
            if reached is not None:
                summary = f"{GOAL_REACHED} | the goal check holds after internal step {inner}: {reached.detail}"
                result = ToolResult.success({"outcome": GOAL_REACHED, "inner_steps": inner}, summary)
            elif record.tool is not None and planner.toolbox.tools[record.tool].type == "method":
                data = {"outcome": "FAILED", "inner_steps": inner}
                result = ToolResult.failure("tool_failed", record.result["reason"], data)
            elif (ended := _TERMINATION.fullmatch(record.next_task)) is not None:
                result = _ended(planner, frame, spec, ended[1], inner, record)
            task = record.next_task or task
    except (StopRequested, LlmError) as e:
        _end(planner, frame, spec, "STOPPED" if isinstance(e, StopRequested) else "FAILED", inner, str(e), started)
        raise
    finally:
        planner.stamp(frame)
    if result is None:
        data = {"outcome": "FAILED", "inner_steps": inner, "max_steps": bound}
        result = ToolResult.failure("tool_failed", f"FAILED | Method {spec.name} exceeded max_steps", data)
    outcome = result.data["outcome"] if isinstance(result.data, dict) else "FAILED"
    _end(planner, frame, spec, outcome, inner, result.value, started)
    return result


def _end(planner: Planner, frame: Frame, spec: ToolSpec, outcome: str, inner: int, summary: str,
         started: float) -> None:
    planner.trace.add(MethodEnd(plan=frame.plan, outer_step=frame.outer_step, method=spec.name, outcome=outcome,
                                inner_steps=inner, summary=summary, wall_s=time.perf_counter() - started))


def _inner_step(planner: Planner, frame: Frame, spec: ToolSpec, meta: InnerLoop,
                task: str) -> tuple[MethodStep, Verdict | None]:
    """One internal step; with the check's verdict when it holds after the tool ran (the model is
    then not asked for NEXT_TASK)."""
    s, clock, caps = frame.state, StepClock(planner.backend), planner.caps
    key = f"p{frame.plan}s{meta.outer_step}m{meta.inner_step}"
    s += sgl.user(prompts.METHOD_STEP.format(method=spec.name, inner=meta.inner_step, max_steps=meta.max_steps,
                                             task=task))
    # Where the backend cannot constrain, every tool name is valid, methods included, so that
    # the runtime refuses a method in words the model can read.
    offered = method_tools(spec, planner.toolbox, task) if caps.select else sorted(planner.toolbox.tools)
    turn = choose_action(s, key, offered, planner.toolbox, caps)
    if turn.tool is not None and planner.toolbox.tools[turn.tool].type == "method":
        refusal = f"FAILED | Method {spec.name} cannot invoke method tool '{turn.tool}'"
        return _record(planner, frame, meta, turn, ToolResult.failure("tool_failed", refusal), "", clock, 0.0), None
    result, tool_s = execute(frame.executor, turn)
    reached = planner.goal_reached()
    if reached is not None:
        return _record(planner, frame, meta, turn, result, "", clock, tool_s), reached
    s += sgl.user(prompts.METHOD_RESULT.format(tool=turn.tool, result=describe(result)))
    s += sgl.assistant_begin()
    s += prompts.NEXT_TASK
    choices = next_tasks(spec.protocol, task) if caps.select else task_labels(spec.protocol)
    chosen = pick(s, key + "_next", choices, caps, label=prompts.NEXT_TASK, what="NEXT_TASK", matcher=match_task)
    s += sgl.assistant_end()
    next_task = chosen.value or task  # a NEXT_TASK that stayed invalid keeps the current step
    if chosen.note:
        turn = Turn(turn.thoughts, turn.tool, turn.args, "; ".join(n for n in (turn.note, chosen.note) if n))
    return _record(planner, frame, meta, turn, result, next_task, clock, tool_s), None


def _record(planner: Planner, frame: Frame, meta: InnerLoop, turn: Turn, result: ToolResult, next_task: str,
            clock: StepClock, tool_s: float) -> MethodStep:
    record = MethodStep(
        plan=frame.plan, outer_step=meta.outer_step, inner_loop=meta, thoughts=turn.thoughts, tool=turn.tool,
        action=turn.action(_inner_loop=meta.model_dump()), result=result.as_dict(), note=turn.note,
        next_task=next_task, **clock.fields(tool_s),
    )
    planner.trace.add(record)
    return record


def _ended(planner: Planner, frame: Frame, spec: ToolSpec, outcome: str, inner: int, last: MethodStep) -> ToolResult:
    """The short summary the outer loop reads: the outcome first, then how it got there, and for
    an outcome that claims success, what the goal check says of it."""
    summary = (f"{outcome} | Method {spec.name} ended in {outcome} after {inner} internal steps; "
               f"last: {last.tool} {last.status}")
    data = {"outcome": outcome, "inner_steps": inner, "last_result": last.result.get("value")}
    if outcome in FAILING_OUTCOMES:
        return ToolResult.failure("tool_failed", summary, data)
    verdict = planner.claim(frame, "method", method=spec.name) if planner.judge is not None else None
    if verdict is not None:
        summary += f"; goal check: {verdict.detail}"
        data["goal_check"] = verdict.model_dump()
    return ToolResult.success(data, summary)
