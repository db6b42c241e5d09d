"""The planner: an SGLang program whose outer loop picks one tool per step toward a goal.

Each outer step: THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON, execute, ACTUAL RESULT (ground truth),
DONE, NEXT_TASK, all appended to one prompt that only grows at the end. The model is asked
only what the runtime cannot know: one tool offered is the tool, a tool without arguments
gets none, and THOUGHTS come only with a choice (steps.py). A method tool runs its protocol
as a bounded inner loop in the same prompt (method.py). Python tools can start a sub-plan: a
fresh prompt with its own goal, tools and step bound. Both loops share one PlanContext.

With a goal check (agent/checks), the world decides, not the model: after every step the
check is read, and once it holds the run ends as a verified success; while it does not, the
model is not asked DONE, since the world has answered it.

The outer step itself reads on one screen in loop.py; the Planner aims it (what is offered,
the sub-goal in focus, what failed steps lacked) and runs it between run_start and run_end.
The Planner is also the executor's MethodRunner and Subplanner, so those calls come back here.
"""

from __future__ import annotations

import time
import traceback
from pathlib import Path
from typing import Any

import sglang as sgl
from pydantic import Field

from agent.chat.team import Holdings
from agent.checks import Check, Verdict
from agent.goals import SubGoal
from agent.goals.asking import gives
from agent.goals.needs import exactly, lacked, supported
from agent.llm import LlmError, Metered
from agent.mc.names import Item
from agent.planner import prompts
from agent.planner.context import BodyKeeper, Digest, Frame, Judge, Offers, PlanContext, PlannerOptions, Team
from agent.planner.domains import callable_now, lacking
from agent.tools.schema import DomainValues
from agent.planner.control import ENDINGS, LlmFailed, RunControl, ending
from agent.planner.focus import Focus, achievers, aimed_words
from agent.planner.given import given_args, made_with, supporting_args
from agent.planner.loop import outer_loop
from agent.planner.method import run_method
from agent.planner.offer import Offering, StepOffer, offer_text
from agent.planner.prior import Prior, Standing
from agent.planner.steps import Ran
from agent.tools import Toolbox, ToolResult, ToolSpec
from agent.tools.interfaces import ToolContext
from agent.trace import RunSetup, TraceWriter
from agent.trace.schema import Error, Focused, GoalAdded, MessageRead, Needed, RunEnd, RunStart, RunTotals, SubGoalRead, Understood

# Room in the prompt for one more step: its result block, step line and reply.
STEP_TOKENS = 700
# A prompt started afresh recaps this many of the last outer steps (each cut to steps.RECAP_CHARS).
RECAP_STEPS = 6
# Exit codes by outcome: 0 for a verified success or an unverified DONE (no check to hold it
# to), 130 for Ctrl-C as everywhere in mcagent; 1 for the rest, a player's !stop included.
EXIT_CODES: dict[str, int] = {"success": 0, "done": 0, "interrupted": 130}


class RunResult(RunTotals):
    trace: Path | None = None
    llm: str = ""
    final_check: Verdict | None = Field(None, description="the check read after the run; None without one")
    judged: Verdict | None = Field(None, description="the hidden judge's verdict after the run; None without one")

    @property
    def exit_code(self) -> int:
        return EXIT_CODES.get(self.outcome, 1)


@sgl.function
def _plan(s, planner: Planner, frame: Frame):
    outer_loop(planner, s, frame)


@sgl.function
def _lone_method(s, planner: Planner, frame: Frame, spec: ToolSpec, args: dict):
    planner.start_prompt(s, frame)
    frame.outer_step = 1
    planner.ctx.stamp(frame)
    result = run_method(planner.ctx, frame, spec, args)
    frame.finish("done" if result.ok else "failed", result.value)
    return result


def _teammates_carry(lacking: list[Item], holdings: Holdings | None) -> bool:
    """Whether teammates carry some of every item a step lacked."""
    return bool(lacking and holdings is not None) and all(holdings.mates_carry(item.name) for item in lacking)


class Planner:
    def __init__(self, backend: Metered, toolbox: Toolbox, options: PlannerOptions | None = None,
                 trace: TraceWriter | None = None, control: RunControl | None = None):
        """`control`: how the run is steered from outside (a team's, shared with its teammates);
        None: a control of its own."""
        self.ctx = PlanContext(backend, toolbox, options or PlannerOptions(), trace or TraceWriter(),
                               control=control or RunControl())
        self._offering = Offering(toolbox, self.ctx.options.catalog, self.ctx.options.catalog_size)
        backend.on_call = self.ctx.trace.llm_call
        self._frames: list[Frame] = []
        self._plans = 0
        self._leading: list[str] = []  # tools that take the arguments the check or its focus states (given.py)
        self._lacking: dict[str, tuple[list[Item], bool]] = {}  # what each lacked when it failed, named exactly? (heed)
        self._focus: Focus | None = None  # the sub-goal worked on, when the run's goal has several
        self._aim_check: Check | None = None  # what the plan works towards now: the focus's check, else the run's
        self._achievers: list[str] = []  # the tools whose Skill.md achieves its kind
        self._stated: list[str] = []  # the tools a team sub-goal in focus states: offered first (agent/goals/asking.py)
        self._method: str | None = None  # the method running now: methods never nest
        self._check: Check | None = None

    @property
    def trace(self) -> TraceWriter:
        return self.ctx.trace

    @property
    def control(self) -> RunControl:
        return self.ctx.control

    @property
    def toolbox(self) -> Toolbox:
        return self.ctx.toolbox

    def run(self, goal: str, executor: ToolContext, world: str = "", setup: RunSetup | None = None,
            judge: Judge | None = None, check: Check | None = None, body: BodyKeeper | None = None,
            digest: Digest | None = None, focus: Focus | None = None, offers: Offers | None = None,
            team: Team | None = None) -> RunResult:
        """Plans until the goal is reached (verified by `judge`, which reads `check` in the
        world) or can no longer be (failed), or is reported done (unverified, without a judge),
        the step bound, a loop, an LLM failure, a lost world, a stop request or Ctrl-C. `setup`
        and `check` go into the trace's run_start; `body` keeps the bot in the world between
        steps; `digest` tells a step that changed nothing in the world; `focus` reads the goal's
        sub-goals before each step and the plan works on the first unmet (focus.py); `offers` reads
        what each argument domain offers in the world (domains.py); `team` reads what players said
        to the bot before each step, and what its teammates carry when a step lacks something
        (agent/goals/asking.py)."""
        self.ctx.judge, self._check, self.ctx.body, self.ctx.digest = judge, check, body, digest
        self.ctx.offers, self.ctx.team = offers, team
        self._focus = focus
        aim = focus.update() if focus is not None else None
        self._aim(aim.check if aim is not None else check, executor)
        executor.heard(goal)  # the user's words: they confirm the values they name
        frame = self._frame(goal, self.ctx.options.tools, self.ctx.options.max_steps, executor, world)
        return self._run(frame, _plan, top=True, setup=setup)[0]

    def _aim(self, check: Check | None, executor: ToolContext, stated: dict[str, dict[str, Any]] | None = None) -> None:
        """What the plan works towards: `check`, pursued by mc-explore and a method's [when: goal];
        the offer aims at what of it does not hold yet (Focus.unmet), or holds the tools `stated`
        by a team sub-goal."""
        if check is None:
            return
        if self._focus is not None:
            executor.goal_check = check
        self._point(self._focus.unmet() or check if self._focus is not None else check, stated)

    def _point(self, check: Check, stated: dict[str, dict[str, Any]] | None = None) -> None:
        """The offer holds the tools that achieve `check` (a Skill.md's achieves:; team_has as
        this bot's has_item), those that take the arguments it states first (given.py), and those
        arguments are given; or, `stated` by a team sub-goal (an ask, a give), those tools ahead
        with their arguments."""
        self._aim_check = check
        mine = check.mine()
        given = dict(stated) if stated else given_args(mine, self.toolbox)
        self._stated = [tool for tool in stated or {} if tool in self.toolbox.tools]
        self._leading = list(given)
        self._achievers = achievers(mine, self.toolbox)
        self.ctx.given = given if stated else {**supporting_args(mine, self.toolbox), **given}
        self._lacking = {}

    def _understood(self, frame: Frame) -> None:
        """The trace's record of what the run understood of its goal, and the sub-goal it starts on."""
        if self._focus is None:
            return
        goals = self._focus.goals
        self.trace.add(Understood(plan=frame.plan, goal=goals.goal, subgoals=[
            SubGoalRead(says=g.says, check=g.check.as_data(), described=g.check.describe(), by=g.by,
                        lasting=g.lasting) for g in goals.subgoals], not_understood=[u.line() for u in goals.unread],
            model_reading=self._focus.model_reading))
        if (first := self._focus.current) is not None:
            self._focused(frame, first, outer_step=1)

    def reading(self) -> str:
        """Where a verified success's check was read from: `, read from "put the dirt you are carrying
        into the chest"` for what the words asked and the rules read; empty for a check given."""
        if self._focus is None:
            return ""
        said = [g.says for g in self._focus.goals.subgoals if g.lasting and g.by == "rules"]
        return f', read from "{" and ".join(dict.fromkeys(said))}"' if said else ""

    def _reads_the_check(self, name: str) -> bool:
        """An achiever that takes no arguments: a method or skill that reads the check itself (gather,
        build), as fully told what to do as a tool given the check's arguments."""
        schema = self.toolbox.tools[name].schema_hint
        return name in self._achievers and (schema is None or not (schema.properties or schema.additional_properties))

    def progress(self, frame: Frame) -> str | None:
        """What the check in focus counts in the world now, in words (an item count, a distance, a
        height, a share of cells): equal before and after a step that succeeded, the step moved
        nothing the goal counts closer (loops.py). None in a sub-plan or without a check."""
        if frame.plan != 0 or self._focus is None or self._aim_check is None:
            return None
        return self._focus.read(self._aim_check).detail

    def _focused(self, frame: Frame, subgoal: SubGoal, outer_step: int, left: Check | None = None) -> Focused:
        """The trace's record that the plan works on `subgoal` (the focus's) from `outer_step`, or,
        given `left`, on those parts of its check."""
        assert self._focus is not None and self._focus.index is not None
        event = Focused(plan=frame.plan, index=self._focus.index + 1, of=len(self._focus.goals.subgoals),
                        check=(left or subgoal.check).describe(), outer_step=outer_step)
        self.trace.add(event)
        return event

    def _refocus(self, s, frame: Frame) -> None:
        """Before an outer step of the main plan: when the first unmet sub-goal is another, the
        plan turns to it, and the prompt says so, with the tools that fit it (stale ones too, where
        it gives them a call not made yet); when only the parts of its check left to do changed,
        the offer turns to those."""
        if self._focus is None:
            return
        if (moved := self._focus.update()) is not None:
            frame.failed.clear()  # another sub-goal: what failed on the last says nothing of this one
            self._aim(moved.check, frame.executor, moved.given)
            frame.watch.offer_again(self.ctx.given)
            focused = self._focused(frame, moved, outer_step=frame.outer_step)
            said = prompts.FOCUS.format(index=focused.index, of=focused.of, says=moved.says)
        elif (left := self._focus.unmet()) is not None and left != self._aim_check:
            self._point(left)
            self._focused(frame, self._focus.current, outer_step=frame.outer_step, left=left)
            said = prompts.FOCUS_LEFT.format(left=left.describe())
        else:
            return
        if frame.offer.catalog != "named":
            words = self._focus.current.says if self._focus.current is not None else frame.goal
            frame.offer = self._offering.for_goal(aimed_words(words, self._aim_check), first=self._leading,
                                                  among=self._achievers, stated=self._stated)
            said += "\n" + prompts.FOCUS_OFFER.format(offer=offer_text(frame.offer, self.toolbox))
        s += sgl.user(said)

    def heed(self, frame: Frame, ran: Ran) -> None:
        """A failed step's report names what it lacked: carrying that becomes a sub-goal before the
        focus's (Focus.need), which the next step turns to. Only a step towards the focus counts:
        one called with the arguments its check states (mc-craft the pickaxe asked for), not a
        step aside (smelting the logs meant for planks lacks coal, which the goal never needed),
        and only once every such tool offered has failed."""
        if self._focus is None or ran.result.status != "failed" or ran.turn.tool is None:
            return
        stated = self.ctx.given.get(ran.turn.tool)
        if stated is None or not made_with(stated, ran.turn.args):
            return
        values = self.ctx.values() or {}
        at_hand = [*values.get("carried", []), *values.get("block_seen", [])]  # a crafting table among them
        self._lacking[ran.turn.tool] = (lacked(ran.result.data, at_hand), exactly(ran.result.data))
        # Needs only once every offered tool given the check's arguments has failed: a tool that
        # does the whole job (craft, from the recipe tree down) is tried before its parts. One the
        # world does not let be called now (mc-chest, no chest in sight) is not waited for. What
        # teammates carry is asked for at once: no other tool would get it sooner.
        callable_now = self._callable(frame, [t for t in frame.tools if t not in frame.watch.withheld], values)
        holdings = self.ctx.holdings()
        if not _teammates_carry(self._lacking[ran.turn.tool][0], holdings) and \
                any(tool in callable_now and tool not in self._lacking for tool in self._leading):
            return
        items = [item if exact else supported(item, values.get("carried", []), values.get("block_seen", []))
                 for lacking, exact in self._lacking.values() for item in lacking]
        self._lacking = {}
        for index, subgoal in self._focus.need(items, ran.turn.tool, holdings):
            self.trace.add(Needed(plan=frame.plan, tool=ran.turn.tool, check=subgoal.check.describe(), index=index + 1,
                                  depth=subgoal.depth, outer_step=frame.outer_step))

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
        frame = self._frame(goal, tools, max_steps or self.ctx.options.subplan_max_steps, executor)
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
                return run_method(self.ctx, self._frames[-1], spec, args)
            frame = self._frame(prompts.STANDALONE_GOAL.format(method=spec.name), None, 1, executor)
            return self._run(frame, _lone_method, top=False, spec=spec, args=args)[1]
        except LlmError as e:
            plan = self._frames[-1].plan if self._frames else self._plans - 1
            self.trace.add(Error(plan=plan, source="llm", message=str(e)))
            raise LlmFailed(str(e)) from e
        finally:
            self._method = None

    def start_prompt(self, s, frame: Frame) -> None:
        """The system prompt, the goal, the world state and the offer; in a prompt started afresh,
        the recap of the outer steps so far."""
        frame.prompt = s
        if frame.opened_tokens is None:
            frame.opened_tokens = self.ctx.backend.count_tokens(s.text())
        recap = prompts.RECAP.format(steps="\n".join(frame.recap[-RECAP_STEPS:])) if frame.recap else ""
        s += sgl.system(prompts.system(self.ctx.caps.thoughts, self.ctx.caps.whole_turns))
        s += sgl.user(prompts.START.format(goal=frame.goal, world=frame.world or prompts.NO_WORLD,
                                           offer=offer_text(frame.offer, self.toolbox)) + recap)

    def offer(self, s, frame: Frame) -> StepOffer | None:
        """What the next outer step offers: in the main plan, after any new goal and a moved focus;
        the tools not withheld as stale (loops.py) that the world lets be called now. None when no
        tool is left, the frame finished with why."""
        if frame.plan == 0:
            self._add_goals(s, frame)
            self._hear(s, frame)
            self._refocus(s, frame)
        fresh = [name for name in frame.tools if name not in frame.watch.withheld]
        if not fresh:
            return frame.finish("failed", f"the plan went round in circles: every tool offered ("
                                          f"{', '.join(frame.tools)}) was tried and nothing changed")
        values = self.ctx.values()
        offered = self._callable(frame, fresh, values)
        if not offered:
            return frame.finish("failed", "no tool left to try can be called with what the world holds ("
                                + "; ".join(self._uncallable(frame, fresh, values)) + ")")
        return StepOffer(offered, values, self._given(frame), self._prior(frame, offered))

    def _prior(self, frame: Frame, offered: list[str]) -> Prior:
        """The runtime's prior over the `offered` tools (prior.py); in a sub-plan, by the offer's
        order and failures alone (its goal is not the check's)."""
        top = frame.plan == 0
        ordered = frame.offer.catalog != "full"  # the full catalog is in alphabetical order
        standings = [Standing(tool=name, place=place if ordered else None, achieves=top and name in self._achievers,
                              given=top and (name in self._leading or self._reads_the_check(name)),
                              stated=top and name in self._stated, failed=frame.failed.get(name, 0))
                     for place, name in enumerate(offered)]
        aim = self._aim_check.describe() if top and self._aim_check is not None else ""
        return Prior(standings, aim)

    def accept_done(self, frame: Frame) -> None:
        """A DONE: yes from the model, asked only where no check decides: in a sub-plan (its goal
        is its caller's) or a run without a check. It stands, unverified."""
        if frame.plan != 0:
            return frame.finish("done", f"unverified: the sub-plan reported done at step {frame.outer_step}")
        frame.claims += 1
        self.ctx.claim(frame, "model")
        return frame.finish("done", f"unverified: no check; the model reported done at step {frame.outer_step}")

    def _hear(self, s, frame: Frame) -> None:
        """Before a step of the main plan: what players said to the bot since the last step, in
        the prompt and the trace; an ask for an item the bot carries becomes a sub-goal to hand
        it over, before the focus (agent/goals/asking.py)."""
        messages = self.ctx.team.unread() if self.ctx.team is not None else []
        if not messages:
            return
        holdings = self.ctx.holdings() if self._focus is not None else None
        for message in messages:
            taken = gives([message], holdings.me) if holdings is not None and self._focus is not None else []
            if taken:
                self._focus.take(taken)
            self.trace.add(MessageRead(plan=frame.plan, player=message.player, text=message.text,
                                       whispered=message.whispered, became=taken[0].says if taken else None,
                                       outer_step=frame.outer_step))
        s += sgl.user(prompts.MESSAGES.format(lines="\n".join(message.line() for message in messages)))

    def _add_goals(self, s, frame: Frame) -> None:
        for goal in self.control.new_goals():
            frame.executor.heard(goal)
            said = prompts.NEW_GOAL.format(goal=goal)
            if frame.offer.catalog != "named":  # the catalog that fits the new goal, with its guidance
                offer = self._offering.for_goal(goal)
                new = offer.model_copy(update={"guidance": [n for n in offer.guidance if n not in frame.offer.guidance]})
                frame.offer = offer
                said += "\n" + prompts.NEW_OFFER.format(offer=offer_text(new, self.toolbox))
            s += sgl.user(said)
            frame.goal = goal
            self.ctx.judge = self._focus = None  # the check was the old goal's: claims about the new one are unverified
            self.trace.add(GoalAdded(plan=frame.plan, goal=goal, outer_step=frame.outer_step))

    def prompt_full(self, frame: Frame) -> bool:
        """Whether the next step could take the prompt `prompt_growth` tokens past the plan's
        first: the prompt now (a method's inner steps included), and room for one more step."""
        now = self.ctx.backend.count_tokens(frame.prompt.text())
        return now - (frame.opened_tokens or 0) + STEP_TOKENS > self.ctx.options.prompt_growth

    def _callable(self, frame: Frame, tools: list[str], values: DomainValues | None) -> list[str]:
        """The `tools` the step can offer: those given the check's arguments, and those whose
        needs the world fills now (domains.py): no model or random draw is handed a name
        argument with nothing in the world to take."""
        given = self._given(frame) or {}
        return [n for n in tools if callable_now(self.ctx.toolbox.tools[n], values, n in given)]

    def _uncallable(self, frame: Frame, tools: list[str], values: DomainValues | None) -> list[str]:
        """Each of `tools` with the domains it lacks, for the run's last word."""
        given = self._given(frame) or {}
        return [f"{n} lacks {', '.join(lacking(self.ctx.toolbox.tools[n], values, n in given)) or 'a form the world fills'}"
                for n in tools]

    def _given(self, frame: Frame) -> dict[str, dict[str, Any]] | None:
        """The arguments the check states, by tool; None in a sub-plan, whose goal is not the check's."""
        return self.ctx.given if frame.plan == 0 else None

    def _frame(self, goal: str, tools: list[str] | None, max_steps: int, executor: ToolContext,
               world: str = "") -> Frame:
        top = self._plans == 0
        aimed = aimed_words(goal, self._aim_check) if top else goal
        offer = self._offering.for_goal(aimed, tools, first=self._leading if top else None,
                                        among=self._achievers if top else None)
        frame = Frame(plan=self._plans, goal=goal, offer=offer, max_steps=max_steps, executor=executor, world=world)
        self._plans += 1
        return frame

    def _run(self, frame: Frame, program: sgl.SglFunction, *, top: bool, setup: RunSetup | None = None,
             **arguments: Any) -> tuple[RunResult, Any]:
        """Runs the SGLang `program` for `frame` between its run_start and run_end; returns the
        result and what the program returned. Only the top plan turns Ctrl-C, stop requests, a
        lost world and LLM failures into its outcome; a nested one passes them up after recording
        (control.ENDINGS)."""
        backend = self.ctx.backend
        usage, body = backend.usage.model_copy(), (self.ctx.rejoins, self.ctx.deaths)
        check = self._check.as_data() if self._check is not None and frame.plan == 0 else None
        self.trace.add(RunStart(plan=frame.plan, goal=frame.goal, max_steps=frame.max_steps, tools=frame.tools,
                                catalog=frame.offer.catalog, guidance=frame.offer.guidance, world=frame.world,
                                llm=backend.name, capabilities=self.ctx.caps, setup=setup, check=check,
                                weight=None if self.ctx.caps.baseline else self.ctx.weight.weight,
                                weight_why="a baseline: it chooses alone" if self.ctx.caps.baseline
                                else self.ctx.weight.why))
        if top:
            self._understood(frame)
        stamped = (self.trace.plan, self.trace.outer_step, self.trace.inner_step)
        self._frames.append(frame)
        returned = None
        try:
            state = program.run(planner=self, frame=frame, backend=backend, use_thread=False, **arguments)
            while frame.afresh:  # the outer loop goes on in a prompt started afresh
                frame.afresh = False
                state = program.run(planner=self, frame=frame, backend=backend, use_thread=False, **arguments)
            returned = state.ret_value
        except tuple(ENDINGS) as e:
            end = ending(e)
            frame.finish(end.outcome, end.reason or str(e))
            if end.error is not None and (top or not end.recorded_at_top):
                self.trace.add(Error(plan=frame.plan, source=end.error, message=str(e)))
            if not top:
                if end.passed_as is None:
                    raise
                raise end.passed_as(str(e)) from e
        except Exception as e:  # our bug: recorded, then raised
            self.trace.add(Error(plan=frame.plan, source="planner", message=f"{type(e).__name__}: {e}",
                                 traceback=traceback.format_exc()))
            raise
        finally:
            self._frames.pop()
            self.trace.plan, self.trace.outer_step, self.trace.inner_step = stamped
            result = RunResult(
                outcome=frame.outcome, reason=frame.reason, steps=frame.outer_step, inner_steps=frame.inner_steps,
                wall_s=time.perf_counter() - frame.started, usage=backend.usage.minus(usage),
                claims=frame.claims, claims_refused=frame.claims_refused, trace=self.trace.path, llm=backend.name,
                rejoins=self.ctx.rejoins - body[0], deaths=self.ctx.deaths - body[1],
            )
            ended = result.model_dump(include=set(RunTotals.model_fields))
            self.trace.add(RunEnd(plan=frame.plan, goal=frame.goal, **ended))
        return result, returned
