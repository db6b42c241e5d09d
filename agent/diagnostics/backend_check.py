"""`mcagent llm check SPEC`: what a backend can do and how fast, and whether it can serve the planner.

`check_backend` runs a few tiny SGLang programs on an open backend and returns a typed report:
the model and its context, one short generation, select, regex and JSON schema (each works, is
not offered, or is broken), the prefix cache, and tokens per second in and out. Every program is
`user(prompt)` then `assistant(gen|select)`, nothing of ours between the turn's opening and the
gen, so it runs unchanged on chat APIs (`whole_turns`). Temperature 0 throughout.

The backend can serve the planner unless it failed to open, its generation failed or returned
nothing, its context is known and too small, or a capability it advertises is broken. A
capability it does not offer is fine: the planner validates and retries instead.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, Literal

import sglang as sgl
from pydantic import BaseModel, ConfigDict, Field

from agent.diagnostics.measured import SetRun
from agent.llm.base import Metered, Usage

# The smallest context the planner can work in. `mcagent bench planner` measured its prompt over
# the whole catalog at 2,656 tokens on the first step, and 244 to 385 more per later step: 4096
# holds the catalog, a few steps and a reply; below it a method overflows in its first steps.
PLANNER_CONTEXT_TOKENS = 4096
# A second prompt that shares all but its last line with the first is a cache hit when the
# backend computes less than this share of it.
CACHE_HIT_SHARE = 0.25
# The generation probe's text is shown cut to this many characters.
SHOWN_CHARS = 40

State = Literal["ok", "failed", "not offered", "not said", "no hit", "skipped", "worthless"]
# The states that stop a backend from serving the planner.
FATAL: frozenset[str] = frozenset({"failed"})


class CheckRow(BaseModel):
    """One line of the check: what was asked, how it went, and what it cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    check: str
    state: State
    detail: str = Field("", description="what was seen, in words; for a failure, why")
    value: str | int | float | None = Field(None, description="the figure or answer itself, for --json")
    latency_s: float | None = None
    prompt_tokens: int | None = None
    prefilled_tokens: int | None = None
    completion_tokens: int | None = None

    @property
    def fatal(self) -> bool:
        return self.state in FATAL


class CheckReport(BaseModel):
    """Every row of the check and the verdict."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    spec: str
    rows: list[CheckRow]
    can_serve: bool
    reason: str = Field("", description="why it cannot serve the planner: the first failing row")
    notes: list[str] = []
    measured: list[SetRun] = Field(default_factory=list, description="the named sets run after the rows "
                                                                     "(measured.py): the reading set")

    @property
    def verdict(self) -> str:
        return "can serve the planner" if self.can_serve else f"cannot: {self.reason}"


def report_of(spec: str, rows: list[CheckRow], notes: list[str] | None = None) -> CheckReport:
    failing = next((row for row in rows if row.fatal), None)
    reason = f"{failing.check}: {failing.detail}" if failing else ""
    return CheckReport(spec=spec, rows=rows, can_serve=failing is None, reason=reason, notes=notes or [])


def not_opened(spec: str, error: Exception) -> CheckReport:
    """The report of a spec that is bad or names a server that does not answer."""
    return report_of(spec, [CheckRow(check="opened", state="failed", detail=str(error))])


# The thoughts probe: a planner's question, answered in one line. Its text is worth reading when it
# has at least this many words with letters, and this share of them distinct.
THOUGHT_WORDS, THOUGHT_DISTINCT = 4, 0.5
THOUGHTS_PROMPT = ("GOAL: get out of the cave to a place where you can see the sky.\n"
                   "TOOLS: explore-area (get out of a cave or tunnel), mc-map (the map of the surroundings), "
                   "mc-dig (break one block).\nIn one short sentence: which tool first, and why?")
LINE_PATTERN = r"[^ \t\n][^\n]*"  # the planner's one-line answer (agent/planner/prompts.py LINE)


# ---- the probes: each a tiny program, the gen or select right after the assistant turn opens ----

@sgl.function
def _say(s, prompt: str, reply_tokens: int):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.gen("reply", max_tokens=reply_tokens, temperature=0.0))


@sgl.function
def _choose(s, prompt: str, options: list[str]):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.select("reply", choices=options, temperature=0.0))


@sgl.function
def _match(s, prompt: str, pattern: str, reply_tokens: int):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.gen("reply", max_tokens=reply_tokens, regex=pattern, temperature=0.0))


@sgl.function
def _fill(s, prompt: str, schema: str, reply_tokens: int):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.gen("reply", max_tokens=reply_tokens, json_schema=schema, temperature=0.0))


@sgl.function
def _line(s, prompt: str, pattern: str | None, reply_tokens: int):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.gen("reply", max_tokens=reply_tokens, stop=["\n"], regex=pattern, temperature=0.0))


SAY_PROMPT = "Say hello to a Minecraft player."
SELECT_PROMPT = "What is the capital of France? Answer with the city's name only."
SELECT_CHOICES = ["Paris", "London", "Berlin"]
SELECT_EXPECTED = "Paris"
REGEX_PROMPT = "Write any three-digit number, digits only."
REGEX_PATTERN = "[0-9]{3}"
SCHEMA_PROMPT = 'Pick a color (red, green or blue) and a count from 1 to 9. Reply as JSON: {"color": ..., "count": ...}'
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "color": {"type": "string", "enum": ["red", "green", "blue"]},
        "count": {"type": "integer", "minimum": 1, "maximum": 9},
    },
    "required": ["color", "count"],
    "additionalProperties": False,
}
# The cache probe's two last lines: the second also asks for a long reply, so the warm call
# measures the output rate with its prompt cached.
COLD_LAST_LINE = "How many chests are listed? Answer with a number."
WARM_LAST_LINE = "Now count from 1 to 40, the numbers separated by spaces."
OUT_TOKENS = 32
CACHE_LINES = 32


def cache_prompt(nonce: str, last_line: str) -> str:
    """About 1,000 tokens of a chest inventory, then `last_line`. The nonce comes first so that no
    cache, however shared, holds the prompt before the first call."""
    items = ["oak logs", "cobblestone", "iron ingots", "torches", "wheat seeds", "coal", "bread", "redstone"]
    lines = [f"Inventory {nonce}, the chests of the base, one a line:"]
    lines += [f"Chest {i + 1} at ({i * 7 % 50 - 25}, {60 + i % 9}, {i * 13 % 40 - 20}) holds {3 + i * 5 % 61} "
              f"{items[i % len(items)]} and {1 + i * 3 % 17} {items[(i * 3 + 1) % len(items)]}."
              for i in range(CACHE_LINES)]
    return "\n".join([*lines, last_line])


class _Call(BaseModel):
    """One probe's program run: its reply (None if it raised), the error, time and token counts."""

    reply: str | None
    error: str = ""
    latency_s: float
    usage: Usage


def _run(backend: Metered, program: Any, **arguments: Any) -> _Call:
    before = backend.usage.model_copy()
    started = time.perf_counter()
    try:
        state = program.run(backend=backend, use_thread=False, **arguments)
        reply, error = str(state["reply"]), ""
    except Exception as e:  # a broken backend may raise anything; the check reports it as one line
        reply, error = None, _one_line(f"{type(e).__name__}: {e}")
    return _Call(reply=reply, error=error, latency_s=time.perf_counter() - started, usage=backend.usage.minus(before))


def _row(check: str, state: State, detail: str, call: _Call | None = None, value: Any = None) -> CheckRow:
    if call is None:
        return CheckRow(check=check, state=state, detail=detail, value=value)
    return CheckRow(check=check, state=state, detail=detail, value=value, latency_s=call.latency_s,
                    prompt_tokens=call.usage.prompt_tokens, prefilled_tokens=call.usage.prefilled_tokens,
                    completion_tokens=call.usage.completion_tokens)


def check_backend(backend: Metered, spec: str | None = None, *, opened_s: float | None = None,
                  nonce: Callable[[], str] = lambda: secrets.token_hex(4)) -> CheckReport:
    """Every probe on `backend`, in order; a failed generation skips the probes after it."""
    spec = spec or backend.name
    turns = "whole chat turns" if backend.capabilities.whole_turns else "text completion"
    rows = [CheckRow(check="opened", state="ok", detail=f"{backend.name} ({turns})", latency_s=opened_s)]
    rows += _model_rows(backend)
    said = _run(backend, _say, prompt=SAY_PROMPT, reply_tokens=24)
    rows.append(_generation_row(said))
    if rows[-1].fatal:
        rows += [CheckRow(check=name, state="skipped", detail="the generation failed")
                 for name in ("select", "regex", "json schema", "thoughts", "prefix cache", "tokens/s in",
                              "tokens/s out")]
        return report_of(spec, rows)
    rows += [_select_row(backend), _regex_row(backend), _schema_row(backend), _thoughts_row(backend)]
    rows += _cache_rows(backend, nonce())
    rows += _slot_rows(backend)
    notes = [
        "tokens/s in: the cold call's prefilled tokens over its whole latency (its few reply tokens included)",
        f"tokens/s out: the warm call's reply tokens (up to {OUT_TOKENS}) over its whole latency, its prompt "
        "served from the cache as far as the backend caches",
    ]
    return report_of(spec, rows, notes)


def _model_rows(backend: Metered) -> list[CheckRow]:
    try:
        info = backend.model_info()
    except Exception as e:  # the name and context are for the reader: not knowing them is no failure
        reason = _one_line(f"{type(e).__name__}: {e}")
        return [CheckRow(check="model", state="not said", detail=reason),
                CheckRow(check="context", state="not said", detail=reason)]
    model = CheckRow(check="model", state="ok", detail=info.model, value=info.model)
    needs = f"the planner needs {PLANNER_CONTEXT_TOKENS}"
    if info.context_tokens is None:
        context = CheckRow(check="context", state="not said", detail=f"the backend does not say ({needs})")
    elif info.context_tokens < PLANNER_CONTEXT_TOKENS:
        context = CheckRow(check="context", state="failed", value=info.context_tokens,
                           detail=f"{info.context_tokens} tokens, too small: {needs}")
    else:
        context = CheckRow(check="context", state="ok", value=info.context_tokens,
                           detail=f"{info.context_tokens} tokens ({needs})")
    return [model, context]


def _generation_row(call: _Call) -> CheckRow:
    if call.reply is None:
        return _row("generation", "failed", call.error, call)
    text = " ".join(call.reply.split())
    if not text:
        return _row("generation", "failed", "returned nothing", call)
    shown = text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
    return _row("generation", "ok", repr(shown), call, value=call.reply)


NOT_OFFERED = "the planner validates and retries instead"


def _select_row(backend: Metered) -> CheckRow:
    if not backend.capabilities.select:
        return _row("select", "not offered", NOT_OFFERED)
    call = _run(backend, _choose, prompt=SELECT_PROMPT, options=SELECT_CHOICES)
    if call.reply is None:
        return _row("select", "failed", f"broken: {call.error}", call)
    if call.reply not in SELECT_CHOICES:
        return _row("select", "failed", f"broken: chose {call.reply!r}, not one of {SELECT_CHOICES}", call, call.reply)
    expected = ("" if call.reply == SELECT_EXPECTED
                else f" (expected {SELECT_EXPECTED!r}: a weak model, not a broken select)")
    return _row("select", "ok", f"chose {call.reply!r} of {len(SELECT_CHOICES)}{expected}", call, call.reply)


def _regex_row(backend: Metered) -> CheckRow:
    if not backend.capabilities.regex:
        return _row("regex", "not offered", NOT_OFFERED)
    call = _run(backend, _match, prompt=REGEX_PROMPT, pattern=REGEX_PATTERN, reply_tokens=8)
    if call.reply is None:
        return _row("regex", "failed", f"broken: {call.error}", call)
    if not re.fullmatch(REGEX_PATTERN, call.reply):
        return _row("regex", "failed", f"broken: {call.reply!r} does not match {REGEX_PATTERN}", call, call.reply)
    return _row("regex", "ok", f"{call.reply!r} matches {REGEX_PATTERN}", call, call.reply)


def _schema_row(backend: Metered) -> CheckRow:
    if not backend.capabilities.json_schema:
        return _row("json schema", "not offered", NOT_OFFERED)
    call = _run(backend, _fill, prompt=SCHEMA_PROMPT, schema=json.dumps(SCHEMA), reply_tokens=48)
    if call.reply is None:
        return _row("json schema", "failed", f"broken: {call.error}", call)
    try:
        value = json.loads(call.reply)
    except json.JSONDecodeError as e:
        why = f"broken: {_clip(call.reply)!r} does not parse ({e.msg})"
        return _row("json schema", "failed", why, call, call.reply)
    reason = _misfit(value)
    if reason:
        return _row("json schema", "failed", f"broken: {_clip(call.reply)!r}: {reason}", call, call.reply)
    return _row("json schema", "ok", f"{json.dumps(value)} fits the schema", call, call.reply)


def _thoughts_row(backend: Metered) -> CheckRow:
    """Whether the model's free text reads as a plan, and whether the planner asks for it
    (Capabilities.thoughts: the backend's default, or config llm_thoughts)."""
    asked = "the planner asks for it" if backend.capabilities.thoughts else "the planner does not ask for it"
    pattern = LINE_PATTERN if backend.capabilities.regex else None
    call = _run(backend, _line, prompt=THOUGHTS_PROMPT, pattern=pattern, reply_tokens=48)
    if call.reply is None:
        return _row("thoughts", "failed", f"broken: {call.error}", call)
    words = re.findall(r"[A-Za-z][A-Za-z-]+", call.reply)
    readable = len(words) >= THOUGHT_WORDS and len({w.lower() for w in words}) >= THOUGHT_DISTINCT * len(words)
    verdict = "reads as a plan" if readable else "worthless as a plan"
    return _row("thoughts", "ok" if readable else "worthless", f"{_clip(call.reply)!r}: {verdict}; {asked} "
                "(config llm_thoughts)", call, call.reply)


def _misfit(value: Any) -> str:
    """Why `value` does not fit SCHEMA, or "" when it does (checked by hand: agent.llm stays below
    agent.tools and its schema checker)."""
    properties = SCHEMA["properties"]
    if not isinstance(value, dict) or set(value) != set(properties):
        return f"expected an object with exactly {', '.join(properties)}"
    if value["color"] not in properties["color"]["enum"]:
        return f"color {value['color']!r} is not one of {properties['color']['enum']}"
    count, low, high = value["count"], properties["count"]["minimum"], properties["count"]["maximum"]
    if not (isinstance(count, int) and not isinstance(count, bool) and low <= count <= high):
        return f"count {count!r} is not an integer from {low} to {high}"
    return ""


def _cache_rows(backend: Metered, nonce: str) -> list[CheckRow]:
    """The prefix cache, and the rates: a cold call on a new prompt, then a warm one that changes
    only its last line and asks for a longer reply."""
    cold = _run(backend, _say, prompt=cache_prompt(nonce, COLD_LAST_LINE), reply_tokens=4)
    warm = _run(backend, _say, prompt=cache_prompt(nonce, WARM_LAST_LINE), reply_tokens=OUT_TOKENS)
    failed = next((call for call in (cold, warm) if call.reply is None), None)
    if failed is not None:
        which = "cold" if failed is cold else "warm"
        return [_row("prefix cache", "failed", f"the {which} call failed: {failed.error}", failed),
                CheckRow(check="tokens/s in", state="skipped", detail="the cache probe failed"),
                CheckRow(check="tokens/s out", state="skipped", detail="the cache probe failed")]
    prompt, prefilled = warm.usage.prompt_tokens, warm.usage.prefilled_tokens
    times = f"cold {cold.latency_s:.2f} s, warm {warm.latency_s:.2f} s"
    if not prompt:
        cache = _row("prefix cache", "not said", f"the backend counts no prompt tokens; {times}", warm)
    else:
        share = prefilled / prompt
        hit = share < CACHE_HIT_SHARE
        said = f"{prefilled} of {prompt} prompt tokens computed ({share:.0%}); {times}"
        cache = _row("prefix cache", "ok" if hit else "no hit",
                     said if hit else f"{said} (or the backend does not report its cache)", warm, round(share, 4))
    return [cache, _rate("tokens/s in", cold.usage.prefilled_tokens, cold, "prefilled on the cold call"),
            _rate("tokens/s out", warm.usage.completion_tokens, warm, "generated on the warm call")]


def _slot_rows(backend: Metered) -> list[CheckRow]:
    """A server with slots: how many, and each one's context and what its cache holds (after the
    cache probe, the probe's slot holds the warm call's prompt and reply)."""
    try:
        slots = backend.slot_states()
    except Exception as e:  # for the reader: a server that does not list its slots still serves
        return [CheckRow(check="slots", state="not said", detail=_one_line(f"{type(e).__name__}: {e}"))]
    if not slots:
        return []
    pinned = getattr(backend, "slot", None)
    rows = [CheckRow(check="slots", state="ok", value=len(slots),
                     detail=f"{len(slots)}, each with a prompt cache of its own; this backend uses "
                            + ("the one the server picks" if pinned is None else f"slot {pinned}"))]
    for slot in slots:
        latest = f"its cache holds {slot.held_tokens} tokens" if slot.held_tokens else "unused"
        rows.append(CheckRow(check=f"slot {slot.id}", state="ok", value=slot.held_tokens,
                             detail=f"{slot.context_tokens} tokens of context, {'busy' if slot.busy else 'idle'}; "
                                    f"{latest}"))
    return rows


def _rate(check: str, tokens: int, call: _Call, what: str) -> CheckRow:
    if not tokens or call.latency_s <= 0:
        return _row(check, "not said", f"the backend counted no tokens {what}", call)
    rate = tokens / call.latency_s
    return _row(check, "ok", f"{rate:.0f}: {tokens} tokens {what} in {call.latency_s:.2f} s", call, round(rate, 1))


def _clip(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def _one_line(text: str) -> str:
    return " ".join(text.split())
