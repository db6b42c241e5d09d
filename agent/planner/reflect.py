"""After an outer step's tool ran and no check decided the run: the ACTUAL RESULT block, then
the model's DONE and NEXT_TASK, each asked only where the runtime cannot answer it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sglang as sgl

from agent.llm import Capabilities
from agent.planner import prompts, whole_turns
from agent.planner.context import BodyNews, Frame, PlanContext
from agent.planner.decide import match_yes_no, pick
from agent.planner.loops import Stale
from agent.planner.steps import TASK_TOKENS, Ran, asks_model, gen_line
from agent.trace.schema import Decider

# A NEXT_TASK without a letter or a digit in it says nothing (empty, punctuation, controls).
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Reflection:
    """The model's DONE (None: not asked, or no valid answer) and NEXT_TASK ("" when not asked),
    what was wrong with its reply, and who decided what comes next."""

    done: bool | None = None
    next_task: str = ""
    note: str | None = None
    by: Decider = "runtime"


def reflect(s, key: str, ctx: PlanContext, frame: Frame, ran: Ran, news: BodyNews | None, stale: Stale) -> Reflection:
    """Shows the step's result, what the runtime did about the bot and any loop, then asks DONE
    only where no check decides it (no check, or a sub-plan), and NEXT_TASK only when the next
    step leaves the model a choice and its free text is worth reading; neither once the loop
    bound ends the run."""
    # After a rejoin the plan resumes at the step it was in: the same task, nothing asked.
    resumes = news is not None and news.rejoined
    asks = stale.ended is None and not resumes
    asks_done = (frame.plan != 0 or ctx.judge is None) and asks
    asks_task = asks_model(frame.tools, ctx.toolbox) and ctx.caps.thoughts and asks
    s += sgl.user(ran.result_text(prompts.RESULT) + _told(news) + _line(stale.said) + _asked(asks_done, asks_task))
    # After the last unusable reply the bound allows, the model is asked nothing more.
    if not (asks_done or asks_task) or ctx.formats.spent:
        return Reflection()
    ask = _ask_whole if ctx.caps.whole_turns else _ask
    done, next_task, note = ask(s, key, asks_done, asks_task, ctx.caps)
    ctx.formats.saw(_unusable(asks_done and done is None, asks_task and not _WORD.search(next_task), note))
    return Reflection(done, next_task, note, "model")


def _ask(s, key: str, asks_done: bool, asks_task: bool, caps: Capabilities) -> tuple[bool | None, str, str | None]:
    """The model's DONE and NEXT_TASK, each only when asked: (done, next task, what was wrong)."""
    s += sgl.assistant_begin()
    done, note, next_task = None, None, ""
    if asks_done:
        s += prompts.DONE
        answer = pick(s, key + "_done", ["yes", "no"], caps, label=prompts.DONE, what="DONE answer",
                      matcher=match_yes_no)
        # An invalid DONE is no answer (None), not a "no": it counts as a format failure.
        done = None if answer.value is None else answer.value == "yes"
        note = answer.note
        s += "\n"
    if asks_task:
        s += prompts.NEXT_TASK + gen_line(key + "_next", TASK_TOKENS, caps)
        next_task = s[key + "_next"].strip()
    s += sgl.assistant_end()
    return done, next_task, note


def _ask_whole(s, key: str, asks_done: bool, asks_task: bool,
               caps: Capabilities) -> tuple[bool | None, str, str | None]:
    """_ask for a chat API: DONE and NEXT_TASK asked as one JSON reply."""
    done_key, task_key = whole_turns.key(prompts.DONE), whole_turns.key(prompts.NEXT_TASK)
    fields: dict[str, Any] = {}
    if asks_done:
        fields[done_key] = {"enum": ["yes", "no"]}
    if asks_task:
        fields[task_key] = whole_turns.thought_schema()

    def accept(reply: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
        answer = match_yes_no(str(reply.get(done_key, "")), ["yes", "no"]) if asks_done else None
        if asks_done and answer is None:
            return None, f"DONE must be yes or no, got {reply.get(done_key)!r}"
        return {"done": None if answer is None else answer == "yes",
                "task": str(reply.get(task_key, "")).strip()}, None

    chosen, note = whole_turns.ask(s, key + "_reflect", whole_turns.object_schema(fields), caps, accept)
    if chosen is None:
        return None, "", note
    return chosen["done"], chosen["task"], note


def _unusable(no_done: bool, no_task: bool, note: str | None) -> str | None:
    """What made the reflection's reply unusable (a DONE that is neither yes nor no, a NEXT_TASK
    that says nothing); None when it was usable."""
    if no_done:
        return f"DONE: {note or 'neither yes nor no'}"
    return f"NEXT_TASK: {note or 'empty'}" if no_task else None


def _line(text: str) -> str:
    """`text` as a line of its own after what came before; nothing when empty."""
    return "\n" + text if text else ""


def _told(news: BodyNews | None) -> str:
    """What the runtime did about the bot after the step, if anything."""
    return _line(news.said if news is not None else "")


def _asked(asks_done: bool, asks_task: bool) -> str:
    """What the model is asked after the result, if anything."""
    if asks_done:
        return "\n" + (prompts.OUTER_REFLECT if asks_task else prompts.DONE_ONLY)
    return "\n" + prompts.NEXT_ONLY if asks_task else ""
