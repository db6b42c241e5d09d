"""Choosing one of a fixed set of strings inside an open assistant turn.

Where the backend can, `select` constrains the choice (by log-likelihood), so it is always
valid. Elsewhere the model writes freely; the text is matched leniently against the choices,
and when nothing matches the model is told what is valid and gets one corrective retry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sglang as sgl
from sglang.lang.choices import ChoicesSamplingMethod, token_length_normalized

from agent.llm import Capabilities
from agent.planner import prompts

# Enough for any tool name or step label; a name that needs more is not one.
NAME_TOKENS = 24
# How much of a reply that names no choice a note quotes: enough to see what it was.
REPLY_CHARS = 80
_STEP = re.compile(r"\bSTEP\s+(\d+)\b", re.IGNORECASE)
_TERMINATION = re.compile(r"\bTERMINATION\s*\(\s*([A-Za-z_]+)\s*\)", re.IGNORECASE)

Matcher = Callable[[str, list[str]], "str | None"]


@dataclass(frozen=True)
class Pick:
    """The valid choice (None when even the retry missed) and what was wrong on the way."""

    value: str | None
    note: str | None = None


def pick(
    s, key: str, choices: list[str], caps: Capabilities, *, label: str, what: str, matcher: Matcher | None = None,
    method: ChoicesSamplingMethod | None = None,
) -> Pick:
    """Appends the choice after `label` (already written); a `select` decides by `method` (the
    prior's rule, prior.py) where given, else by the mean token log-probability. On a retry the
    turn is closed, the correction said as the user, and a new assistant turn opened with `label` again."""
    if caps.select:
        s += sgl.select(key, choices=choices, choices_method=method or token_length_normalized)
        if s[key] in choices:
            return Pick(s[key])
        # A real constrained backend cannot miss; a scripted one answering garbage can.
        return Pick(None, f"{s[key][:REPLY_CHARS]!r} is not a valid {what}")
    match = matcher or match_name
    s += sgl.gen(key, max_tokens=NAME_TOKENS, stop=["\n"], temperature=0.0)
    first = s[key].strip()
    found = match(first, choices)
    if found is not None:
        return Pick(found)
    s += sgl.assistant_end()
    s += sgl.user(prompts.CORRECTION.format(got=first, what=what, choices=", ".join(choices)))
    s += sgl.assistant_begin()
    s += label + sgl.gen(key + "_retry", max_tokens=NAME_TOKENS, stop=["\n"], temperature=0.0)
    second = s[key + "_retry"].strip()
    found = match(second, choices)
    outcome = f"retry gave {found!r}" if found is not None else f"retry gave {second!r}, also invalid"
    return Pick(found, f"{first!r} is not a valid {what}; {outcome}")


def _clean(text: str) -> str:
    return text.strip().strip("`'\"*").rstrip(".,;:").strip()


def match_name(text: str, choices: list[str]) -> str | None:
    """A tool name as written, give or take quotes, case and anything after the first word."""
    cleaned = _clean(text)
    words = cleaned.split()
    first_word = _clean(words[0]) if words else ""
    lowered = {choice.lower(): choice for choice in choices}
    return lowered.get(cleaned.lower()) or lowered.get(first_word.lower())


def match_task(text: str, choices: list[str]) -> str | None:
    """A NEXT_TASK label: its step number or its termination outcome decides, not its wording."""
    exact = match_name(text, choices)
    if exact is not None:
        return exact
    termination = _TERMINATION.search(text)
    if termination:
        wanted = f"TERMINATION ({termination[1].upper()})"
        return next((c for c in choices if c == wanted), None)
    step = _STEP.search(text)
    if step:
        return next((c for c in choices if _STEP.search(c) and _STEP.search(c)[1] == step[1]), None)
    return None


def match_yes_no(text: str, choices: list[str]) -> str | None:
    word = _clean(text).split()[0].lower() if _clean(text) else ""
    return {"yes": "yes", "true": "yes", "no": "no", "false": "no"}.get(word.rstrip(".,"))
