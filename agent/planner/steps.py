"""What outer and inner steps share: choosing a tool and its arguments, running it, showing
its result as ground truth, and timing the step."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

import sglang as sgl

from agent.infospace.models import preview
from agent.llm import Capabilities, Metered
from agent.planner import prompts
from agent.planner.args import decoding_schema, parse_args
from agent.tools.schema import DomainValues
from agent.planner.context import PlanContext
from agent.planner import whole_turns
from agent.planner.decide import Pick, match_name, pick
from agent.planner.prior import Prior, Weight, Weighed
from agent.tools import Toolbox, ToolResult
from agent.tools.interfaces import ToolContext
from agent.trace.schema import Choice, Decider, Decisions, MethodStep, OuterStep

# Token budgets per generated field: enough for a sentence, a JSON object, a task line.
THOUGHT_TOKENS, ARGS_TOKENS, TASK_TOKENS = 48, 160, 48
# How much of a result the model sees; the trace keeps all of it.
RESULT_CHARS = 700
# A prompt started afresh recaps each outer step cut to this many characters.
RECAP_CHARS = 120


@dataclass(frozen=True)
class Turn:
    """What was chosen: `tool` None when no valid name came; `args` None when they did not parse.
    `decided` says, for the tool and the arguments, whether the model chose them."""

    thoughts: str
    tool: str | None
    args: dict[str, Any] | None
    note: str | None = None
    decided: Decisions = field(default_factory=Decisions)
    choice: Choice | None = None  # how the tool was chosen among several (prior.py)

    def action(self, **meta: Any) -> dict[str, Any]:
        return {"type": self.tool, **(self.args or {}), **meta}

    def asked_model(self) -> bool:
        """Whether the model was asked for any of it (a failed reply was asked for)."""
        return self.tool is None or self.args is None or "model" in (self.decided.tool, self.decided.args)

    def format_problem(self) -> str | None:
        """What made the model's reply unusable: no valid tool name, arguments that did not parse."""
        if self.tool is None or self.args is None:
            return self.note or "no usable reply"
        return None


def choose_action(s, key: str, tools: list[str], toolbox: Toolbox, caps: Capabilities,
                  literal: dict[str, dict[str, Any]] | None = None, literal_by: Decider = "protocol",
                  values: DomainValues | None = None, prior: Prior | None = None, weight: Weight | None = None) -> Turn:
    """One assistant turn: THOUGHTS, TOOL_NAME (one of `tools`), TOOL_ARGS_JSON. The model is
    asked only where there is a choice: one tool offered is the tool; with the runtime's `prior`
    over the tools, one it decides (a decisive prior, or a model of no `weight`) is the tool, and
    else the model's scores are weighed against it (prior.py); arguments in `literal`
    (by tool: a method's protocol wrote them, or the goal check states them, as `literal_by`
    says) or for a tool that takes none are written, not generated; and
    THOUGHTS come only when the model chooses something and its free text is worth reading
    (Capabilities.thoughts). A name argument takes only the `values` its domain has in the world
    now (domains.py)."""
    literal, weight = literal or {}, weight or Weight(0.0, "not given")
    weighing = prior if prior is not None and len(tools) > 1 and not caps.baseline else None
    ruled = weighing.ruling(weight) if weighing is not None else None
    if ruled is not None:
        tools = [ruled[0]]
    if caps.whole_turns:
        turn = _choose_whole(s, key, tools, toolbox, caps, literal, literal_by, values)
    else:
        turn = _choose_fields(s, key, tools, toolbox, caps, literal, literal_by, values,
                              Weighed(weighing, weight.weight) if weighing is not None else None)
    if weighing is None:
        return _as_baseline(turn, prior, caps) if len(tools) > 1 else turn
    if ruled is not None:
        choice = weighing.record("runtime", ruled[0], weight.weight, ruled[1])
        return replace(turn, choice=choice, decided=turn.decided.model_copy(update={"tool": "runtime"}))
    model = (s.get_meta_info(key + "_tool") or {}).get("model") if caps.select and not caps.whole_turns else None
    why = f"prior x model^{weight.weight:.2f}" + ("" if model is not None else "; the model gave its pick, no scores")
    return replace(turn, choice=weighing.record("model", turn.tool, weight.weight, why, model))


def _as_baseline(turn: Turn, prior: Prior | None, caps: Capabilities) -> Turn:
    """A baseline's own pick, recorded beside the prior it did not use (for comparing the two)."""
    if prior is None or not caps.baseline:
        return turn
    return replace(turn, choice=prior.record("baseline", turn.tool, 0.0, "its own pick, no prior"))


def _choose_fields(s, key: str, tools: list[str], toolbox: Toolbox, caps: Capabilities,
                   literal: dict[str, dict[str, Any]], literal_by: Decider, values: DomainValues | None,
                   method: Weighed | None) -> Turn:
    """choose_action field by field, inside an open assistant turn; `method` weighs a select."""
    tool_by = "forced" if len(tools) == 1 else "model"
    s += sgl.assistant_begin()
    thoughts = ""
    if caps.thoughts and asks_model(tools, toolbox, literal):
        s += prompts.THOUGHTS + gen_line(key + "_thoughts", THOUGHT_TOKENS, caps)
        thoughts = s[key + "_thoughts"].strip()
        s += "\n"
    s += prompts.TOOL_NAME
    if tool_by == "forced":
        s += tools[0]
        name = Pick(tools[0])
    else:
        name = pick(s, key + "_tool", tools, caps, label=prompts.TOOL_NAME, what="tool name", method=method)
    args, args_by, problem = _arguments(s, key, name.value, toolbox, caps, literal, literal_by, values)
    s += sgl.assistant_end()
    note = "; ".join(n for n in (name.note, problem) if n) or None
    return Turn(thoughts, name.value, args, note, Decisions(tool=tool_by, args=args_by))


def gen_line(key: str, max_tokens: int, caps: Capabilities):
    """One line of free text, within `max_tokens`; where the backend can, held to a line that is
    not empty (SmolLM2 answered THOUGHTS with a lone newline)."""
    return sgl.gen(key, max_tokens=max_tokens, stop=["\n"], regex=prompts.LINE if caps.regex else None,
                   temperature=0.0)


def asks_model(tools: list[str], toolbox: Toolbox, literal: dict[str, dict[str, Any]] | None = None) -> bool:
    """Whether choosing among `tools` leaves the model anything to choose: a tool, or arguments."""
    return len(tools) > 1 or not _given(tools[0], literal or {}, toolbox)


def _given(tool: str, literal: dict[str, dict[str, Any]], toolbox: Toolbox) -> bool:
    """Whether the arguments need no model: the protocol writes them, or the tool takes none."""
    schema = toolbox.tools[tool].schema_hint
    return tool in literal or schema is None or not (schema.properties or schema.additional_properties)


def _schema(toolbox: Toolbox, tool: str, values: DomainValues | None) -> dict[str, Any]:
    """The tool's decoding schema with its names held to the world's values; where a required
    name has none (a tool the protocol or the only offer forces), as written."""
    hint = toolbox.tools[tool].schema_hint
    return decoding_schema(hint, values) or decoding_schema(hint)


def _arguments(s, key: str, tool: str | None, toolbox: Toolbox, caps: Capabilities, literal: dict[str, dict[str, Any]],
               literal_by: Decider, values: DomainValues | None) -> tuple[dict[str, Any] | None, Decider | None, str | None]:
    """TOOL_ARGS_JSON for `tool`: (arguments, who decided them, what was wrong)."""
    if tool is None:
        return {}, None, None
    s += "\n" + prompts.TOOL_ARGS
    if _given(tool, literal, toolbox):
        args = literal.get(tool, {})
        s += prompts.shown(args)
        return args, _given_by(tool, literal, literal_by), None
    if caps.json_schema:
        schema = json.dumps(_schema(toolbox, tool, values))
        s += sgl.gen(key + "_args", max_tokens=ARGS_TOKENS, json_schema=schema, temperature=0.0)
    else:
        s += sgl.gen(key + "_args", max_tokens=ARGS_TOKENS, stop=["\n"], temperature=0.0)
    args, problem = parse_args(s[key + "_args"])
    return args, "model", problem


def _given_by(tool: str, literal: dict[str, dict[str, Any]], literal_by: Decider) -> Decider:
    return literal_by if tool in literal else "forced"


def _choose_whole(s, key: str, tools: list[str], toolbox: Toolbox, caps: Capabilities,
                  literal: dict[str, dict[str, Any]], literal_by: Decider, values: DomainValues | None) -> Turn:
    """choose_action for a chat API: the turn asked as one JSON reply (whole_turns.py). The
    schema has one alternative per tool, so each tool's arguments are held to its own schema."""
    names = {label: whole_turns.key(label) for label in (prompts.THOUGHTS, prompts.TOOL_NAME, prompts.TOOL_ARGS)}
    tool_by: Decider = "forced" if len(tools) == 1 else "model"
    if not asks_model(tools, toolbox, literal):
        args = literal.get(tools[0], {})
        whole_turns.write(s, {names[prompts.TOOL_NAME]: tools[0], names[prompts.TOOL_ARGS]: args})
        return Turn("", tools[0], args, decided=Decisions(tool=tool_by, args=_given_by(tools[0], literal, literal_by)))

    def alternative(tool: str) -> dict[str, Any]:
        fields = {names[prompts.THOUGHTS]: whole_turns.thought_schema()} if caps.thoughts else {}
        fields[names[prompts.TOOL_NAME]] = {"const": tool}
        if not _given(tool, literal, toolbox):
            fields[names[prompts.TOOL_ARGS]] = _schema(toolbox, tool, values)
        return whole_turns.object_schema(fields)

    def accept(reply: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
        tool = match_name(str(reply.get(names[prompts.TOOL_NAME], "")), tools)
        if tool is None:
            return None, f"TOOL_NAME {reply.get(names[prompts.TOOL_NAME])!r} is not one of {', '.join(tools)}"
        chosen = {"thoughts": str(reply.get(names[prompts.THOUGHTS], "")).strip(), "tool": tool}
        if _given(tool, literal, toolbox):
            return {**chosen, "args": literal.get(tool, {}), "by": _given_by(tool, literal, literal_by)}, None
        if names[prompts.TOOL_ARGS] not in reply:  # as an empty TOOL_ARGS_JSON: no answer, not "no arguments"
            return None, f"TOOL_ARGS_JSON is missing ({tool} takes arguments)"
        args = reply[names[prompts.TOOL_ARGS]]
        if not isinstance(args, dict):
            return None, f"TOOL_ARGS_JSON must be a JSON object, got {type(args).__name__}"
        return {**chosen, "args": args, "by": "model"}, None

    alternatives = [alternative(tool) for tool in tools]
    schema = alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
    chosen, note = whole_turns.ask(s, key + "_turn", schema, caps, accept)
    if chosen is None:
        return Turn("", None, None, note, Decisions(tool=tool_by))
    return Turn(chosen["thoughts"], chosen["tool"], chosen["args"], note, Decisions(tool=tool_by, args=chosen["by"]))


@dataclass(frozen=True)
class Ran:
    """A turn and what its tool did: the step's memory. It renders the prompt's RESULT block and
    becomes the trace's step record, so that the prompt and the trace say the same."""

    turn: Turn
    result: ToolResult
    tool_s: float = 0.0

    def result_text(self, template: str) -> str:
        """`template` (prompts.RESULT or METHOD_RESULT) filled with this step's call and result."""
        args = prompts.shown(self.turn.args or {})
        return template.format(tool=self.turn.tool or "(none)", args=args, result=describe(self.result))

    def recap_line(self, step: int) -> str:
        """This step as outer step `step` in the recap of a prompt started afresh."""
        args = prompts.shown(self.turn.args or {})
        return prompts.RECAP_STEP.format(step=step, tool=self.turn.tool or "(none)", args=args,
                                         result=preview(describe(self.result), RECAP_CHARS))

    def record(self, kind: type[OuterStep | MethodStep], clock: StepClock, *, note: str | None = None,
               next_by: Decider | None = None, **fields: Any) -> OuterStep | MethodStep:
        """The trace's record of this step (an OuterStep or a MethodStep)."""
        notes = "; ".join(n for n in (self.turn.note, note) if n) or None
        decided = self.turn.decided.model_copy(update={"next": next_by})
        return kind(thoughts=self.turn.thoughts, tool=self.turn.tool, result=self.result.as_dict(), note=notes,
                    decided=decided, **clock.fields(self.tool_s), **fields)


def chosen(ctx: PlanContext, turn: Turn) -> Turn:
    """`turn`, counted by the run's format watch when the model was asked for any of it."""
    if turn.asked_model():
        ctx.formats.saw(turn.format_problem())
    return turn


def execute(executor: ToolContext, turn: Turn) -> Ran:
    """Runs the turn's action; a turn with no valid name or unparsed args fails without running."""
    if turn.tool is None:
        return Ran(turn, ToolResult.failure("bad_action", f"no valid tool name was chosen ({turn.note})"))
    if turn.args is None:
        return Ran(turn, ToolResult.failure("bad_args", f"{turn.tool}: {turn.note}"))
    started = time.perf_counter()
    result = executor.execute_action(turn.action())
    return Ran(turn, result, time.perf_counter() - started)


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
