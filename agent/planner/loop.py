"""The outer loop on one screen. Each step: offer the tools the moment allows (the planner aims
the offer), let the model choose one (steps.py), execute it, let the world judge (the goal
check, the stale watch of loops.py) and, where nothing else decided, let the model reflect
(reflect.py); the step is recorded as it happened."""

from __future__ import annotations

from typing import Protocol

import sglang as sgl

from agent.checks import Verdict
from agent.planner import prompts
from agent.planner.context import Frame, PlanContext
from agent.planner.loops import Stale
from agent.planner.offer import StepOffer
from agent.planner.reflect import Reflection, reflect
from agent.planner.steps import Ran, StepClock, choose_action, chosen, execute
from agent.trace.schema import OuterStep


class Steering(Protocol):
    """What the loop asks of the planner that runs it (planner.py)."""

    ctx: PlanContext

    def start_prompt(self, s, frame: Frame) -> None: ...
    def offer(self, s, frame: Frame) -> StepOffer | None: ...  # None: nothing to offer, the frame says why
    def heed(self, frame: Frame, ran: Ran) -> None: ...  # what a step of the main plan lacked
    def prompt_full(self, frame: Frame) -> bool: ...
    def accept_done(self, frame: Frame) -> None: ...
    def reading(self) -> str: ...  # where the check of a verified success was read from
    def progress(self, frame: Frame) -> str | None: ...  # what the check in focus counts now (None: no check)


def outer_loop(planner: Steering, s, frame: Frame) -> None:
    """The outer steps from where the frame is; it stops early, `frame.afresh`, for the prompt to
    start afresh once it has grown too long (Planner._run runs it again)."""
    ctx = planner.ctx
    planner.start_prompt(s, frame)
    for step in range(frame.outer_step + 1, frame.max_steps + 1):
        ctx.control.check()
        ctx.formats.check()
        frame.outer_step = step
        ctx.stamp(frame)
        offer = planner.offer(s, frame)
        if offer is None:
            return None
        record, decided, stale = outer_step(planner, s, frame, offer)
        if decided is not None:
            if not decided.holds:
                return frame.finish("failed", f"the goal can no longer be reached: {decided.detail}")
            if frame.plan == 0:
                ctx.claim(frame, "world", verdict=decided)
            return frame.finish("success", f"verified: {decided.detail}{planner.reading()}")
        if record.done:
            return planner.accept_done(frame)
        if stale.ended is not None:
            return frame.finish("failed", f"the plan went round in circles: {stale.ended}")
        frame.task = record.next_task or prompts.NEXT_TOOL_TASK
        if step < frame.max_steps and planner.prompt_full(frame):
            frame.afresh = True
            return None
    claims = f"; {frame.claims_refused} success claim(s) refused" if frame.claims_refused else ""
    frame.finish("max_steps", f"the goal was not reached within {frame.max_steps} steps{claims}")


def outer_step(planner: Steering, s, frame: Frame, offer: StepOffer) -> tuple[OuterStep, Verdict | None, Stale]:
    """One step among the offered tools; with the check's verdict when it decides the run after
    the tool ran (it holds, or can no longer hold: ctx.goal_decided), and what the loop watch saw."""
    ctx = planner.ctx
    clock, key = StepClock(ctx.backend), f"p{frame.plan}s{frame.outer_step}"
    withheld = [name for name in frame.tools if name not in offer.tools]
    s += sgl.user(prompts.OUTER_STEP.format(step=frame.outer_step, max_steps=frame.max_steps, task=frame.task)
                  + (prompts.WITHHELD.format(tool=", ".join(withheld)) if withheld else ""))
    before, aim = ctx.sense(), planner.progress(frame)
    turn = choose_action(s, key, offer.tools, ctx.toolbox, ctx.caps, offer.given, "checked", offer.values,
                         offer.prior, ctx.weight)
    ran = execute(frame.executor, chosen(ctx, turn))
    if ran.result.status == "failed" and ran.turn.tool is not None:
        frame.failed[ran.turn.tool] = frame.failed.get(ran.turn.tool, 0) + 1
    news = ctx.keep_body()
    decided = ctx.goal_decided()
    stale, reflection = Stale(), Reflection()
    if decided is None:
        closer = None if aim is None or not ran.result.ok else planner.progress(frame) != aim
        stale = frame.watch.see(ran.turn.tool, ran.turn.args, ran.result, ctx.changed(ran.turn.tool, before, news),
                                closer)
        reflection = reflect(s, key, ctx, frame, ran, news, stale)
    record = ran.record(OuterStep, clock, note=reflection.note, next_by=reflection.by, plan=frame.plan,
                        outer_step=frame.outer_step, action=ran.turn.action(), done=reflection.done,
                        next_task=reflection.next_task, offered=offer.tools, loop=stale.said, choice=ran.turn.choice)
    ctx.trace.add(record)
    if frame.plan == 0 and decided is None:
        planner.heed(frame, ran)
    frame.recap.append(ran.recap_line(frame.outer_step))
    if decided is None:
        ctx.formats.check()  # the step is recorded; too many unusable replies in a row end the run here
    return record, decided, stale
