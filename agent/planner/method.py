"""A method tool's protocol as a bounded inner loop, in the same prompt as the outer loop.

At entry the protocol text is injected whole. Each internal step shows the current protocol
step (and the method's state, and any loop the runtime noticed), runs the step's tool, shows
its result as ground truth, and goes on to the next task. The model is asked only what the
protocol leaves open: the tool when the step offers several, the arguments when the protocol
does not write them, the next task when no checked condition decides it (branches.py). The
runtime, not the model, enforces the step limit, the no-recursion rule and the loop bounds,
and ends the method (GOAL_REACHED) once the run's goal check holds after an internal step.
"""

from __future__ import annotations

import time
from typing import Any

import sglang as sgl

from agent.checks import read_fact, read_goal
from agent.llm import LlmError
from agent.planner import prompts, whole_turns
from agent.planner.branches import Next, decide, outcome_holds
from agent.planner.labels import ended_in, step_of, task_labels
from agent.planner.scope import Scope, apply_sets
from agent.planner.context import Frame, PlanContext
from agent.planner.control import StopRequested
from agent.planner.decide import match_task, pick
from agent.planner.domains import callable_now
from agent.planner.loops import LoopWatch
from agent.planner.offer import is_action
from agent.planner.steps import Ran, StepClock, choose_action, chosen, execute
from agent.tools import Toolbox, ToolResult, ToolSpec
from agent.protocol.models import MethodProtocol
from agent.tools.spec import DEFAULT_MAX_STEPS
from agent.trace.schema import Decider, InnerLoop, MethodEnd, MethodStart, MethodStep

# The outcome the runtime gives a method that is not `resumable` when the bot had to rejoin mid-way.
INTERRUPTED = "INTERRUPTED"
# Outcomes that mean the method did not do its job; any other outcome (SUCCESS, DISCOVERY, ...) did.
FAILING_OUTCOMES = frozenset({"FAILED", "FAILURE", "INAPPLICABLE", "ABORTED", "ERROR", INTERRUPTED})
# The outcome the runtime gives a method when the run's goal check held after one of its steps.
GOAL_REACHED = "GOAL_REACHED"


def method_tools(spec: ToolSpec, toolbox: Toolbox, task: str | None = None) -> list[str]:
    """The tools the current step (`task`) calls, never a method nor an instruction; when it calls
    none, the whole protocol's; when that calls none, every other action.

    A call is written `Call NAME`, `Execute NAME`, `Use NAME` (the seed's forms, also
    `Call tool: NAME`) or `NAME` in backticks (agent/protocol/protocol_rules.py): a bare word
    would catch primitives named like plain English (head, map, sort)."""
    usable = {t.name for t in toolbox.tools.values() if t.type != "method" and is_action(t)}
    protocol = spec.protocol
    step = step_of(protocol, task or "") if protocol is not None else None
    scopes = [step.calls] if step is not None else []
    scopes.append([call for s in protocol.steps for call in s.calls] if protocol is not None else [])
    for calls in scopes:
        named = sorted({call.tool for call in calls if call.tool in usable})
        if named:
            return named
    return sorted(usable)


class MethodRun:
    """One run of a method's protocol inside the running plan's prompt."""

    def __init__(self, ctx: PlanContext, frame: Frame, spec: ToolSpec, args: dict[str, Any]):
        assert spec.protocol is not None, "the loader parses every method's protocol"
        self.ctx, self.frame, self.spec, self.args = ctx, frame, spec, args
        self.protocol: MethodProtocol = spec.protocol
        self.bound = ctx.options.method_max_steps or spec.max_steps or DEFAULT_MAX_STEPS
        self.state = {v.name: v.initial for v in self.protocol.state}
        self.watch = LoopWatch()
        self.task = task_labels(self.protocol)[0]
        self.inner = 0
        self.loop_said = ""
        self.started = time.perf_counter()

    def run(self) -> ToolResult:
        self._open()
        result: ToolResult | None = None
        try:
            while result is None and self.inner < self.bound:
                self.ctx.control.check()
                self.ctx.formats.check()
                self.inner += 1
                self.ctx.stamp(self.frame, self.inner)
                result = self._step()
                self.frame.inner_steps += 1
        except (StopRequested, LlmError) as e:
            self._finish("STOPPED" if isinstance(e, StopRequested) else "FAILED", str(e))
            raise
        finally:
            self.ctx.stamp(self.frame)
        if result is None:
            result = self._finish("FAILED", f"FAILED | Method {self.spec.name} exceeded max_steps", max_steps=self.bound)
        return result

    def _open(self) -> None:
        labels = task_labels(self.protocol)
        self.frame.prompt += sgl.user(prompts.METHOD_START.format(
            method=self.spec.name, args=prompts.shown(self.args), max_steps=self.bound,
            tools=", ".join(method_tools(self.spec, self.ctx.toolbox)), protocol=self.spec.body.strip(),
            steps="; ".join(labels[: len(self.protocol.steps)]),
            outcomes=", ".join(o.name for o in self.protocol.outcomes),
        ))
        self.ctx.trace.add(MethodStart(plan=self.frame.plan, method=self.spec.name, args=self.args,
                                       outer_step=self.frame.outer_step, max_steps=self.bound))

    def _step(self) -> ToolResult | None:
        """One internal step; the method's result when it ends here."""
        s, ctx, clock = self.frame.prompt, self.ctx, StepClock(self.ctx.backend)
        meta = InnerLoop(method_name=self.spec.name, inner_step=self.inner, max_steps=self.bound,
                         outer_step=self.frame.outer_step)
        key = f"p{self.frame.plan}s{meta.outer_step}m{meta.inner_step}"
        shown = dict(self.state)
        s += sgl.user(self._step_text())
        turn = chosen(ctx, self._turn(s, key))
        if turn.tool is not None and ctx.toolbox.tools[turn.tool].type == "method":
            refusal = f"FAILED | Method {self.spec.name} cannot invoke method tool '{turn.tool}'"
            self._record(Ran(turn, ToolResult.failure("tool_failed", refusal)), meta, clock, "", None, shown)
            return self._finish("FAILED", refusal)
        ran = execute(self.frame.executor, turn)
        news = ctx.keep_body()
        if news is not None and news.rejoined and not self.spec.resumable:
            self._record(ran, meta, clock, "", "runtime", shown, [news.said])
            return self._finish(INTERRUPTED, f"{INTERRUPTED} | Method {self.spec.name} was interrupted at internal "
                                             f"step {self.inner}, and it is not resumable. {news.said}")
        decided = ctx.goal_decided()
        if decided is not None:
            self._record(ran, meta, clock, "", "runtime", shown)
            if not decided.holds:
                return self._finish("FAILED", f"FAILED | the goal can no longer be reached after internal step "
                                              f"{self.inner}: {decided.detail}")
            summary = f"{GOAL_REACHED} | the goal check holds after internal step {self.inner}: {decided.detail}"
            return self._finish(GOAL_REACHED, summary)
        scope = Scope(ran.turn.tool, ran.turn.args, ran.result, self.state, self._read_goal,
                      lambda name: read_fact(self.frame.executor, name))
        problems = apply_sets(step_of(self.protocol, self.task), self.protocol, scope, self.state)
        loop = self.watch.see(ran.turn.tool, ran.turn.args, ran.result, self._cell())
        self.loop_said = loop.said
        s += sgl.user(ran.result_text(prompts.METHOD_RESULT) + ("" if news is None else "\n" + news.said))
        if news is not None and news.rejoined:  # resumable: the same protocol step again
            self._record(ran, meta, clock, self.task, "runtime", shown, [*problems, news.said], loop.said)
            return None
        decided = decide(self.protocol, self.task, scope)
        if loop.ended is not None and not (decided.decided and ended_in(decided.decided)):
            self._record(ran, meta, clock, "", "runtime", shown, problems, loop.said)
            return self._finish("FAILED", f"FAILED | Method {self.spec.name} went round in circles: {loop.ended}")
        next_task, by, note = self._next(s, key, decided)
        self._record(ran, meta, clock, next_task or "", by, shown, [*problems, note], loop.said)
        if next_task is None:
            return self._finish("FAILED", f"FAILED | Method {self.spec.name}: after {self.task} no branch holds "
                                          "and none is left to choose")
        outcome = ended_in(next_task)
        if outcome is not None:
            return self._ended(outcome, ran, scope)
        self.task = next_task
        return None

    def _step_text(self) -> str:
        lines = [prompts.METHOD_STEP.format(method=self.spec.name, inner=self.inner, max_steps=self.bound,
                                            task=self.task)]
        if self.state:
            lines.append(prompts.METHOD_STATE.format(state=prompts.shown(self.state)))
        if self.loop_said:
            lines.append(self.loop_said)
        return "\n".join(lines)

    def _turn(self, s, key: str):
        caps, toolbox = self.ctx.caps, self.ctx.toolbox
        step = step_of(self.protocol, self.task)
        # Where the backend cannot constrain, every action's name is valid, methods included, so that
        # the runtime refuses a method in words the model can read.
        offered = (method_tools(self.spec, toolbox, self.task) if caps.select
                   else sorted(name for name, spec in toolbox.tools.items() if is_action(spec)))
        written = {c.tool: c.args for c in step.calls if c.args is not None} if step is not None else {}
        # Under the top plan the run's goal check is the method's too: what it states (given.py) fills
        # the arguments the protocol leaves open ("Call mc-collect." gets the block and the count).
        given = self.ctx.given if self.frame.plan == 0 else {}
        literal = {tool: {**given.get(tool, {}), **written.get(tool, {})} for tool in {*given, *written}}
        values = self.ctx.values()
        # As in the outer loop, a tool whose needs the world leaves empty is not offered; a step
        # the protocol leaves no callable tool calls as written, and the tool says what it lacks.
        offered = [n for n in offered if callable_now(toolbox.tools[n], values, n in literal)] or offered
        return choose_action(s, key, offered, toolbox, caps, literal, values=values)

    def _next(self, s, key: str, decided: Next) -> tuple[str | None, Decider, str | None]:
        """(next task, who decided it, what was wrong): the runtime's where it decided, else the
        model's among what is open; None when nothing is open."""
        whole = self.ctx.caps.whole_turns
        if decided.decided is not None:
            if whole:
                whole_turns.write(s, {whole_turns.key(prompts.NEXT_TASK): decided.decided})
            else:
                s += sgl.assistant(prompts.NEXT_TASK + decided.decided)
            return decided.decided, decided.decider, None
        if not decided.choices:
            return None, "runtime", None
        if self.ctx.formats.spent:  # the model's last chance went by: the run ends before the next step
            return self.task, "runtime", None
        if whole:
            return self._next_whole(s, key, decided.choices)
        s += sgl.assistant_begin()
        s += prompts.NEXT_TASK
        answer = pick(s, key + "_next", decided.choices, self.ctx.caps, label=prompts.NEXT_TASK, what="NEXT_TASK",
                      matcher=match_task)
        s += sgl.assistant_end()
        self.ctx.formats.saw(None if answer.value else f"NEXT_TASK: {answer.note}")
        return answer.value or self.task, "model", answer.note  # an invalid NEXT_TASK keeps the current step

    def _next_whole(self, s, key: str, choices: list[str]) -> tuple[str | None, Decider, str | None]:
        """_next for a chat API: NEXT_TASK asked as one JSON reply."""
        label = whole_turns.key(prompts.NEXT_TASK)

        def accept(reply: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
            found = match_task(str(reply.get(label, "")), choices)
            if found is None:
                return None, f"NEXT_TASK {reply.get(label)!r} is not one of {', '.join(choices)}"
            return {"task": found}, None

        answer, note = whole_turns.ask(s, key + "_next", whole_turns.choice_schema(prompts.NEXT_TASK, choices),
                                       self.ctx.caps, accept)
        self.ctx.formats.saw(None if answer else f"NEXT_TASK: {note}")
        return (answer["task"] if answer else self.task), "model", note

    def _read_goal(self) -> bool | None:
        verdict = read_goal(self.frame.executor)
        return None if verdict is None else verdict.holds

    def _cell(self) -> tuple[int, int, int] | None:
        world_map = getattr(self.frame.executor, "world_map", None)
        return getattr(world_map, "feet", None)

    def _record(self, ran: Ran, meta: InnerLoop, clock: StepClock, next_task: str, next_by: Decider | None,
                shown: dict[str, Any], notes: list[str | None] | None = None, loop: str = "") -> None:
        note = "; ".join(n for n in notes or [] if n) or None
        record = ran.record(MethodStep, clock, note=note, next_by=next_by, plan=self.frame.plan,
                            outer_step=meta.outer_step, inner_loop=meta, state=shown or None, loop=loop,
                            action=ran.turn.action(_inner_loop=meta.model_dump()), next_task=next_task)
        self.ctx.trace.add(record)

    def _ended(self, outcome: str, ran: Ran, scope: Scope) -> ToolResult:
        """The short summary the outer loop reads: the outcome first, then how it got there, and for
        an outcome that claims success, what the goal check says of it."""
        summary = (f"{outcome} | Method {self.spec.name} ended in {outcome} after {self.inner} internal steps; "
                   f"last: {ran.turn.tool} {ran.result.status}")
        data: dict[str, Any] = {"last_result": ran.result.value}
        holds = outcome_holds(next(o for o in self.protocol.outcomes if o.name == outcome), scope)
        verdict = None
        if outcome not in FAILING_OUTCOMES and self.ctx.judge is not None:
            verdict = self.ctx.claim(self.frame, "method", method=self.spec.name)
        if verdict is not None:
            self.frame.claims += 1
            self.frame.claims_refused += not verdict.holds
            summary += f"; goal check: {verdict.detail}"
            data["goal_check"] = verdict.model_dump()
        return self._finish(outcome, summary, holds, **data)

    def _finish(self, outcome: str, summary: str, holds: bool | None = None, **data: Any) -> ToolResult:
        """Ends the method: its method_end, and the result the outer loop reads. `holds`: the
        outcome's checks, read; None for an outcome the runtime gave (a bound, a refusal)."""
        self.ctx.trace.add(MethodEnd(plan=self.frame.plan, outer_step=self.frame.outer_step, method=self.spec.name,
                                     outcome=outcome, inner_steps=self.inner, summary=summary,
                                     wall_s=time.perf_counter() - self.started, outcome_holds=holds))
        data = {"outcome": outcome, "inner_steps": self.inner, **data}
        if outcome in FAILING_OUTCOMES:
            return ToolResult.failure("tool_failed", summary, data)
        return ToolResult.success(data, summary)


def run_method(ctx: PlanContext, frame: Frame, spec: ToolSpec, args: dict[str, Any]) -> ToolResult:
    return MethodRun(ctx, frame, spec, args).run()
