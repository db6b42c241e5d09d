"""What outer and inner steps share: choosing a tool and its arguments, running it, showing
its result as ground truth, and timing the step."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sglang as sgl

from agent.infospace.models import preview
from agent.llm import Capabilities, Metered
from agent.planner import prompts
from agent.planner.args import decoding_schema, parse_args
from agent.planner.decide import pick
from agent.tools import Toolbox, ToolResult
from agent.tools.context import ToolContext

# Token budgets per generated field: enough for a sentence, a JSON object, a task line.
THOUGHT_TOKENS, ARGS_TOKENS, TASK_TOKENS = 48, 160, 48
# How much of a result the model sees; the trace keeps all of it.
RESULT_CHARS = 700


@dataclass(frozen=True)
class Turn:
    """What the model chose: `tool` None when no valid name came; `args` None when they did not parse."""

    thoughts: str
    tool: str | None
    args: dict[str, Any] | None
    note: str | None = None

    def action(self, **meta: Any) -> dict[str, Any]:
        return {"type": self.tool, **(self.args or {}), **meta}


def choose_action(s, key: str, tools: list[str], toolbox: Toolbox, caps: Capabilities) -> Turn:
    """One assistant turn: THOUGHTS, TOOL_NAME (one of `tools`), TOOL_ARGS_JSON."""
    s += sgl.assistant_begin()
    s += prompts.THOUGHTS + sgl.gen(key + "_thoughts", max_tokens=THOUGHT_TOKENS, stop=["\n"], temperature=0.0)
    s += "\n" + prompts.TOOL_NAME
    name = pick(s, key + "_tool", tools, caps, label=prompts.TOOL_NAME, what="tool name")
    args: dict[str, Any] | None = {}
    notes = [name.note]
    if name.value is not None:
        s += "\n" + prompts.TOOL_ARGS
        if caps.json_schema:
            schema = json.dumps(decoding_schema(toolbox.tools[name.value].schema_hint))
            s += sgl.gen(key + "_args", max_tokens=ARGS_TOKENS, json_schema=schema, temperature=0.0)
        else:
            s += sgl.gen(key + "_args", max_tokens=ARGS_TOKENS, stop=["\n"], temperature=0.0)
        args, problem = parse_args(s[key + "_args"])
        notes.append(problem)
    s += sgl.assistant_end()
    note = "; ".join(n for n in notes if n) or None
    return Turn(s[key + "_thoughts"].strip(), name.value, args, note)


def execute(executor: ToolContext, turn: Turn) -> tuple[ToolResult, float]:
    """Runs the turn's action; a turn with no valid name or unparsed args fails without running."""
    if turn.tool is None:
        return ToolResult.failure("bad_action", f"no valid tool name was chosen ({turn.note})"), 0.0
    if turn.args is None:
        return ToolResult.failure("bad_args", f"{turn.tool}: {turn.note}"), 0.0
    started = time.perf_counter()
    result = executor.execute_action(turn.action())
    return result, time.perf_counter() - started


def describe(result: ToolResult) -> str:
    """What goes inside the ACTUAL RESULT block: what happened, in the words the tool chose, clipped."""
    if result.ok:
        shown = f"success: {preview(result.value or 'done', RESULT_CHARS)}"
        return shown + (f" (saved as {result.resource_id})" if result.resource_id else "")
    shown = f"failed ({result.code}): {preview(result.reason or '', RESULT_CHARS)}"
    if result.data is not None and result.data != result.reason:
        shown += f"\ndata: {preview(result.data, RESULT_CHARS)}"
    return shown


class StepClock:
    """Wall time and LLM usage of one step, from its start."""

    def __init__(self, backend: Metered):
        self._backend = backend
        self._started = time.perf_counter()
        self._usage = backend.usage.model_copy()

    def fields(self, tool_s: float) -> dict[str, Any]:
        return {
            "wall_s": time.perf_counter() - self._started,
            "tool_s": tool_s,
            "llm": self._backend.usage.minus(self._usage),
            "context_tokens": self._backend.context_tokens,
        }
