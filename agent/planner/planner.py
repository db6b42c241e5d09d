"""The planner: an SGLang program whose outer loop picks one tool per step toward a goal.

Each outer step: THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON, execute, ACTUAL RESULT (ground truth),
DONE, NEXT_TASK, all appended to one prompt that only grows at the end. A method tool runs
its protocol as a bounded inner loop in the same prompt (method.py). Python tools can start a
sub-plan: a fresh prompt with its own goal, tools and step bound.

With a goal check (agent/checks), the world decides, not the model: after every step the
check is read, and once it holds the run ends as a verified success without asking the
model; a DONE: yes it refuses is answered in the prompt with what the world says.

The Planner is also the executor's MethodRunner and Subplanner, so those calls come back here.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import sglang as sgl
from pydantic import BaseModel, ConfigDict, Field

from agent.checks import Check, Verdict
from agent.llm import LlmError, Metered
from agent.planner import prompts
from agent.planner.control import LlmFailed, RunControl, StopRequested
from agent.planner.decide import match_yes_no, pick
from agent.planner.method import run_method
from agent.planner.steps import TASK_TOKENS, StepClock, choose_action, describe, execute
from agent.tools import Toolbox, ToolResult, ToolSpec, catalog_text
from agent.tools.context import ToolContext
from agent.trace import Outcome, RunSetup, TraceWriter
from agent.trace.schema import DoneClaim, Error, GoalAdded, OuterStep, RunEnd, RunStart, RunTotals

# Exit codes by outcome: 0 for a verified success or an unverified DONE (no check to hold it
# to), 130 for Ctrl-C as everywhere in mcagent; 1 for the rest, a player's !stop included.
EXIT_CODES: dict[str, int] = {"success": 0, "done": 0, "interrupted": 130}
# What reads the goal check in the world now; the session builds it from the bot and the check.
Judge = Callable[[], Verdict]


class PlannerOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    max_steps: int = Field(20, ge=1, le=1000, description="outer steps per run")
    method_max_steps: int | None = Field(None, ge=1, le=1000, description="overrides every method's own bound")
    tools: list[str] | None = Field(None, description="what the outer loop may choose; None: the whole catalog")
    subplan_max_steps: int = Field(8, ge=1, le=1000, description="a sub-plan's bound when its caller gives none")


class RunResult(RunTotals):
    trace: Path | None = None
    llm: str = ""
    final_check: Verdict | None = Field(None, description="the check read after the run; None without one")

    @property
    def exit_code(self) -> int:
        return EXIT_CODES.get(self.outcome, 1)


@dataclass
class Frame:
    """One running plan: the main one, or a sub-plan started by a python tool."""

    plan: int
    goal: str
    tools: list[str]
    max_steps: int
    executor: ToolContext
    world: str = ""  # the world-state summary the prompt opens with
    state: Any = None  # the SGLang program state: the prompt
    outer_step: int = 0
    inner_steps: int = 0
    claims: int = 0
    claims_refused: int = 0
    outcome: Outcome = "failed"
    reason: str = "stopped by an error"
    started: float = field(default_factory=time.perf_counter)

    def finish(self, outcome: Outcome, reason: str) -> None:
        self.outcome, self.reason = outcome, reason


@sgl.function
def _plan(s, planner: Planner, frame: Frame):
    planner.outer_loop(s, frame)


@sgl.function
def _lone_method(s, planner: Planner, frame: Frame, spec: ToolSpec, args: dict):
    planner.start_prompt(s, frame)
    frame.outer_step = 1
    planner.stamp(frame)
    result = run_method(planner, frame, spec, args)
    frame.finish("done" if result.ok else "failed", result.value)
    return result


class Planner:
    def __init__(self, backend: Metered, toolbox: Toolbox, options: PlannerOptions | None = None,
                 trace: TraceWriter | None = None):
        self.backend = backend
        self.caps = backend.capabilities
        self.toolbox = toolbox
        self.options = options or PlannerOptions()
        self.trace = trace or TraceWriter()
        self.control = RunControl()
        backend.on_call = self.trace.llm_call
        self._frames: list[Frame] = []
        self._plans = 0
        self._method: str | None = None  # the method running now: methods never nest
        self.judge: Judge | None = None  # the main goal's check; None: claims stay unverified
        self._check: Check | None = None

    def run(self, goal: str, executor: ToolContext, world: str = "", setup: RunSetup | None = None,
            judge: Judge | None = None, check: Check | None = None) -> RunResult:
        """Plans until the goal is reached (verified by `judge`, which reads `check` in the
        world) or reported done (unverified, without a judge), the step bound, an LLM failure,
        a stop request or Ctrl-C. `setup` and `check` go into the trace's run_start."""
        self.judge, self._check = judge, check
        frame = self._frame(goal, self.options.tools, self.options.max_steps, executor, world)
        return self._run(frame, _plan, top=True, setup=setup)[0]

    def goal_reached(self) -> Verdict | None:
        """The check's verdict when it holds now; None when it does not, or there is none.
        Read after every step, in every plan: the world, not the model, ends the run."""
        if self.judge is None:
            return None
        verdict = self.judge()
        return verdict if verdict.holds else None

    def claim(self, frame: Frame, by: Literal["model", "method", "world"], method: str | None = None,
              verdict: Verdict | None = None) -> Verdict | None:
        """Judges a claim that the goal is reached (with `verdict` when it was just read) and
        records it; None when there is no check."""
        if verdict is None and self.judge is not None:
            verdict = self.judge()
        detail = verdict.detail if verdict is not None else "unverified: no check"
        holds = verdict.holds if verdict is not None else None
        accepted = by == "world" or (by == "model" and holds is not False)
        self.trace.add(DoneClaim(plan=frame.plan, outer_step=frame.outer_step, by=by, method=method, holds=holds,
                                 detail=detail, accepted=accepted))
        return verdict

    def status_line(self) -> str:
        """One line on where the run is, for a player asking: step, method, last tool, goal."""
        if not self._frames:
            return "idle"
        frame = self._frames[-1]
        where = f"step {frame.outer_step}/{frame.max_steps}" + (f", in {self._method}" if self._method else "")
        last = next((e for e in reversed(self.trace.events) if e.event in ("outer_step", "method_step")), None)
        done = f"; last: {last.tool} {last.status}" if last is not None else ""
        return f"{where}{done}; goal: {frame.goal}"

    def subplan(self, goal: str, tools: list[str] | None, max_steps: int | None, executor: ToolContext) -> ToolResult:
        """A fresh plan for a python tool. Ctrl-C and LLM failures end the whole run, not just this."""
        unknown = [name for name in tools or [] if name not in self.toolbox.tools]
        if unknown:
            return ToolResult.failure("bad_args", f"subplan: no tool named {unknown[0]!r}")
        frame = self._frame(goal, tools, max_steps or self.options.subplan_max_steps, executor)
        run = self._run(frame, _plan, top=False)[0]
        data = {"outcome": run.outcome, "steps": run.steps, "reason": run.reason}
        if run.outcome in ("done", "success"):
            return ToolResult.success(data, f"sub-plan done in {run.steps} steps: {run.reason}")
        return ToolResult.failure("tool_failed", f"sub-plan ended with {run.outcome}: {run.reason}", data)

    def __call__(self, spec: ToolSpec, args: dict[str, Any], executor: ToolContext) -> ToolResult:
        """MethodRunner: the inner loop, inside the running plan's prompt (or a prompt of its own)."""
        if self._method is not None:
            refusal = f"FAILED | Method {self._method} cannot invoke method tool '{spec.name}'"
            return ToolResult.failure("tool_failed", refusal)
        self._method = spec.name
        try:
            if self._frames:
                return run_method(self, self._frames[-1], spec, args)
            frame = self._frame(prompts.STANDALONE_GOAL.format(method=spec.name), None, 1, executor)
            return self._run(frame, _lone_method, top=False, spec=spec, args=args)[1]
        except LlmError as e:
            plan = self._frames[-1].plan if self._frames else self._plans - 1
            self.trace.add(Error(plan=plan, source="llm", message=str(e)))
            raise LlmFailed(str(e)) from e
        finally:
            self._method = None

    def start_prompt(self, s, frame: Frame) -> None:
        frame.state = s
        catalog = catalog_text(Toolbox(tools={name: self.toolbox.tools[name] for name in frame.tools}))
        s += sgl.system(prompts.SYSTEM)
        s += sgl.user(prompts.START.format(goal=frame.goal, world=frame.world or prompts.NO_WORLD, catalog=catalog))

    def outer_loop(self, s, frame: Frame) -> None:
        self.start_prompt(s, frame)
        task = prompts.FIRST_TASK
        for step in range(1, frame.max_steps + 1):
            self.control.check()
            frame.outer_step = step
            self.stamp(frame)
            if frame.plan == 0:
                self._add_goals(s, frame)
            record, reached = self._outer_step(s, frame, task)
            if reached is not None:
                if frame.plan == 0:
                    self.claim(frame, "world", verdict=reached)
                return frame.finish("success", f"verified: {reached.detail}")
            if record.done and self._accept_done(s, frame):
                return None
            task = record.next_task or task
        claims = f"; {frame.claims_refused} DONE claim(s) refused" if frame.claims_refused else ""
        frame.finish("max_steps", f"the goal was not reached within {frame.max_steps} steps{claims}")

    def _accept_done(self, s, frame: Frame) -> bool:
        """A DONE: yes from the model. The main plan's is held to the check: accepted and
        verified when it holds, otherwise refused in the prompt with what the world says.
        Without a check, and in sub-plans (their goals are their callers'), it stands unverified."""
        if frame.plan != 0:
            frame.finish("done", f"unverified: the sub-plan reported done at step {frame.outer_step}")
            return True
        frame.claims += 1
        verdict = self.claim(frame, "model")
        if verdict is None:
            frame.finish("done", f"unverified: no check; the model reported done at step {frame.outer_step}")
            return True
        if verdict.holds:
            frame.finish("success", f"verified: {verdict.detail}")
            return True
        frame.claims_refused += 1
        s += sgl.user(prompts.DONE_REFUSED.format(detail=verdict.detail))
        return False

    def stamp(self, frame: Frame, inner_step: int | None = None) -> None:
        """Where the run is, for the tool calls the trace records meanwhile."""
        self.trace.plan, self.trace.outer_step, self.trace.inner_step = frame.plan, frame.outer_step, inner_step

    def _add_goals(self, s, frame: Frame) -> None:
        for goal in self.control.new_goals():
            s += sgl.user(prompts.NEW_GOAL.format(goal=goal))
            frame.goal = goal
            self.judge = None  # the check was the old goal's: claims about the new one are unverified
            self.trace.add(GoalAdded(plan=frame.plan, goal=goal, outer_step=frame.outer_step))

    def _outer_step(self, s, frame: Frame, task: str) -> tuple[OuterStep, Verdict | None]:
        """One step; with the check's verdict when it holds after the tool ran, in which case the
        model is not asked whether it is done."""
        clock, key = StepClock(self.backend), f"p{frame.plan}s{frame.outer_step}"
        s += sgl.user(prompts.OUTER_STEP.format(step=frame.outer_step, max_steps=frame.max_steps, task=task))
        turn = choose_action(s, key, frame.tools, self.toolbox, self.caps)
        result, tool_s = execute(frame.executor, turn)
        reached = self.goal_reached()
        done, next_task, notes = None, "", [turn.note]
        if reached is None:
            shown = prompts.RESULT.format(tool=turn.tool or "(none)",
                                          args=json.dumps(turn.args or {}, ensure_ascii=False), result=describe(result))
            s += sgl.user(shown + "\n" + prompts.OUTER_REFLECT)
            s += sgl.assistant_begin()
            s += prompts.DONE
            answer = pick(s, key + "_done", ["yes", "no"], self.caps, label=prompts.DONE, what="DONE answer",
                          matcher=match_yes_no)
            s += "\n" + prompts.NEXT_TASK + sgl.gen(key + "_next", max_tokens=TASK_TOKENS, stop=["\n"], temperature=0.0)
            s += sgl.assistant_end()
            done, next_task = answer.value == "yes", s[key + "_next"].strip()
            notes.append(answer.note)
        record = OuterStep(
            plan=frame.plan, outer_step=frame.outer_step, thoughts=turn.thoughts, tool=turn.tool,
            action=turn.action(), result=result.as_dict(), note="; ".join(n for n in notes if n) or None,
            done=done, next_task=next_task, **clock.fields(tool_s),
        )
        self.trace.add(record)
        return record, reached

    def _frame(self, goal: str, tools: list[str] | None, max_steps: int, executor: ToolContext,
               world: str = "") -> Frame:
        offered = tools or sorted(name for name, spec in self.toolbox.tools.items() if not spec.hidden)
        frame = Frame(plan=self._plans, goal=goal, tools=offered, max_steps=max_steps, executor=executor, world=world)
        self._plans += 1
        return frame

    def _run(self, frame: Frame, program: sgl.SglFunction, *, top: bool, setup: RunSetup | None = None,
             **arguments: Any) -> tuple[RunResult, Any]:
        """Runs the SGLang `program` for `frame` between its run_start and run_end; returns the
        result and what the program returned. Only the top plan turns Ctrl-C, stop requests and
        LLM failures into its outcome; a nested one passes them up after recording."""
        usage = self.backend.usage.model_copy()
        check = self._check.as_data() if self._check is not None and frame.plan == 0 else None
        self.trace.add(RunStart(plan=frame.plan, goal=frame.goal, max_steps=frame.max_steps, tools=frame.tools,
                                world=frame.world, llm=self.backend.name, capabilities=self.caps, setup=setup,
                                check=check))
        stamped = (self.trace.plan, self.trace.outer_step, self.trace.inner_step)
        self._frames.append(frame)
        returned = None
        try:
            state = program.run(planner=self, frame=frame, backend=self.backend, use_thread=False, **arguments)
            returned = state.ret_value
        except KeyboardInterrupt:
            frame.finish("interrupted", "interrupted by Ctrl-C")
            if not top:
                raise
        except StopRequested as e:
            frame.finish("stopped", str(e))
            if not top:
                raise
        except (LlmError, LlmFailed) as e:
            frame.finish("failed", str(e))
            if isinstance(e, LlmError):  # a nested plan's failure was recorded where it happened
                self.trace.add(Error(plan=frame.plan, source="llm", message=str(e)))
            if not top:
                raise LlmFailed(str(e)) from e
        except Exception as e:  # our bug: recorded, then raised
            self.trace.add(Error(plan=frame.plan, source="planner", message=f"{type(e).__name__}: {e}",
                                 traceback=traceback.format_exc()))
            raise
        finally:
            self._frames.pop()
            self.trace.plan, self.trace.outer_step, self.trace.inner_step = stamped
            result = RunResult(
                outcome=frame.outcome, reason=frame.reason, steps=frame.outer_step, inner_steps=frame.inner_steps,
                wall_s=time.perf_counter() - frame.started, usage=self.backend.usage.minus(usage),
                claims=frame.claims, claims_refused=frame.claims_refused, trace=self.trace.path, llm=self.backend.name,
            )
            ended = result.model_dump(include=set(RunTotals.model_fields))
            self.trace.add(RunEnd(plan=frame.plan, goal=frame.goal, **ended))
        return result, returned
