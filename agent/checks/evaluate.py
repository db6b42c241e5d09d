"""Judging a check against the world in one bridge call.

bridge/helpers/goal.js evaluates the whole tree and answers, for every node, whether it holds
and, for a predicate, what the world says (`the feet are at y=2.00`). The verdict's wording is
made here, from describe(), so a check reads the same in the trace, the prompt and the verdict.
"""

from __future__ import annotations

from agent.bridge import BotConnection, BridgeError
from agent.checks.model import COMBINATORS, All, AnyOf, Avoided, Check, Not
from agent.config.layers import StrictModel


class Verdict(StrictModel):
    """Whether a check holds, and one line saying why, for a model and a person. `lost`: false
    for good, wherever the bot goes from here (an `avoided` block was entered in this run)."""

    holds: bool
    detail: str
    lost: bool = False


class Finding(StrictModel):
    """goal.js's answer for one node: `says` for a predicate, `parts` (in order) for all/any/not."""

    holds: bool
    says: str = ""
    parts: list[Finding] = []


def evaluate(bot: BotConnection, check: Check) -> Verdict:
    """One round trip. Never raises: a check that cannot be evaluated (bot gone, bridge down) is
    reported as not holding, since an unverifiable check is never a success."""
    try:
        found = Finding.model_validate(bot.call("checkGoal", {"check": check.as_data()}))
    except BridgeError as e:
        return Verdict(holds=False, detail=f"cannot check: {e}")
    return Verdict(holds=found.holds, detail=_explain(check, found), lost=_lost(check, found))


def start_the_way(bot: BotConnection) -> None:
    """Marks the start of a run: an `avoided` check counts what the body is in from now on,
    not before (bridge/helpers/contact.js; until a run marks it, from the bot's join). A bot
    already lost is left to the run's rejoin: what it was in before still counts, which can
    fail a check but never pass one."""
    try:
        bot.call("forgetContacts", {})
    except BridgeError:
        pass


def _lost(check: Check, found: Finding) -> bool:
    """Whether the check is false for good: a body that entered a block cannot un-enter it. Only
    `avoided` is; a `not` of it is left to the world, as is every predicate of the place."""
    if isinstance(check, Avoided):
        return not found.holds
    if isinstance(check, All):
        return any(_lost(c, f) for c, f in zip(check.all, found.parts))
    if isinstance(check, AnyOf):
        return all(_lost(c, f) for c, f in zip(check.any, found.parts))
    return False


def _explain(check: Check, found: Finding) -> str:
    """The check, whether it holds, and what the world says; a combinator names only the parts
    that decided it (for all: the failing ones; for any: those that hold, or all when none does)."""
    if isinstance(check, Not):
        inner = _explain(check.not_, found.parts[0])
        return f"{check.describe()} {'holds' if found.holds else 'is false'}: {inner}"
    if isinstance(check, (All, AnyOf)):
        parts = check.all if isinstance(check, All) else check.any
        deciding = "; ".join(_nested(c, f) for c, f in zip(parts, found.parts) if f.holds == found.holds)
        if found.holds:
            return deciding
        return f"not all hold: {deciding}" if isinstance(check, All) else f"none holds: {deciding}"
    return f"{check.describe()} {'holds' if found.holds else 'is false'}: {found.says}"


def _nested(check: Check, found: Finding) -> str:
    """A part's explanation, in parentheses when it has parts of its own, so `;` stays unambiguous."""
    text = _explain(check, found)
    return f"({text})" if isinstance(check, COMBINATORS) else text
