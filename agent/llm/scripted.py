"""`scripted:PATH`: canned replies for tests and examples, served through the SGLang interface.

A script is a list of replies, one per gen or select call in order, or a callable that
gets each call (prompt, choices, stop strings, schema) and returns the reply. Replies are
cut at the call's stop strings, as a real backend's would be. A select reply that is not
one of the choices resolves to a choice it begins or nearly spells; anything else (empty,
garbage) is answered as it is, and the planner counts it as a format failure. Every call is
recorded, so tests can assert on the prompts.
"""

from __future__ import annotations

import difflib
import json
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict
from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import get_chat_template
from sglang.lang.choices import ChoicesDecision, token_length_normalized

from agent.errors import ConfigError
from agent.llm.base import (CHARS_PER_TOKEN, Capabilities, LlmError, Meter, Metered, chat_messages, common_prefix,
                            cut_at_stop, stop_strings)

# Calls kept in `calls`.
CALLS_KEPT = 200
# How similar (difflib's ratio) a select reply must be to a choice to be taken for it.
CLOSE_ENOUGH = 0.6


class ScriptedCall(BaseModel):
    """One call as the backend received it, and what it answered."""

    model_config = ConfigDict(frozen=True)
    index: int
    kind: Literal["gen", "select"]
    prompt: str
    choices: list[str] | None = None
    stop: list[str] = []
    max_tokens: int | None = None
    json_schema: str | None = None
    reply: str = ""


Script = Sequence[str] | Callable[[ScriptedCall], str]


class ScriptedBackend(Metered, BaseBackend):
    """Serves `script`. `constrained=False` makes it a backend that can neither select nor follow a
    schema, so the planner's validate-and-retry path runs against it; `whole_turns=True` makes it
    answer as a chat API does, a whole turn at a time."""

    def __init__(self, script: Script, *, constrained: bool = True, whole_turns: bool = False,
                 name: str = "scripted", baseline: bool = False):
        super().__init__()
        self.name = name
        self.chat_template = get_chat_template("default")
        self.capabilities = Capabilities(select=constrained, json_schema=constrained, whole_turns=whole_turns,
                                         baseline=baseline)
        # The calls, for tests to read; only the latest CALLS_KEPT once there are twice as many
        # (a soak makes them by the thousand).
        self.calls: list[ScriptedCall] = []
        self._count = 0
        self._script = script
        self._cached = ""  # the previous prompt: what a KV cache would hold

    def get_model_name(self) -> str:
        return self.name

    def generate(self, s, sampling_params):
        if self.capabilities.whole_turns:
            chat_messages(s, self.name)  # refuses what a chat server could not take
        call = ScriptedCall(
            index=self._count,
            kind="gen",
            prompt=s.text_,
            stop=stop_strings(sampling_params.stop),
            max_tokens=sampling_params.max_new_tokens,
            json_schema=sampling_params.json_schema,
        )
        with self.metered("gen", call.prompt) as meter:
            meter.completion = cut_at_stop(self._answer(call, meter), call.stop)
        return meter.completion, {"index": call.index}

    def select(self, s, choices, temperature, choices_method=None):
        call = ScriptedCall(index=self._count, kind="select", prompt=s.text_, choices=list(choices))
        with self.metered("select", call.prompt, call.choices) as meter:
            wanted = self._answer(call, meter)
            scores = _scores(wanted, list(choices))
            if scores is not None:  # scored as a model would: the choices_method decides
                decision = (choices_method or token_length_normalized)(
                    choices=list(choices), normalized_prompt_logprobs=scores,
                    input_token_logprobs=[[(lp, None, None)] for lp in scores], output_token_logprobs=[[] for _ in choices])
                meter.completion = decision.decision
                return decision
            meter.completion = wanted if wanted in choices else _closest(wanted, list(choices))
        return ChoicesDecision(decision=meter.completion, meta_info={"scripted": wanted})

    def _answer(self, call: ScriptedCall, meter: Meter) -> str:
        reply = self._reply(call)
        self.calls.append(call.model_copy(update={"reply": reply}))
        self._count += 1
        if len(self.calls) > 2 * CALLS_KEPT:
            del self.calls[:-CALLS_KEPT]
        common = common_prefix(self._cached, call.prompt)
        self._cached = call.prompt
        meter.prompt_tokens = len(call.prompt) // CHARS_PER_TOKEN
        meter.prefilled_tokens = (len(call.prompt) - common) // CHARS_PER_TOKEN
        meter.completion_tokens = len(reply) // CHARS_PER_TOKEN
        return reply

    def _reply(self, call: ScriptedCall) -> str:
        if callable(self._script):
            return str(self._script(call))
        if call.index >= len(self._script):
            wanted = f"the script has {len(self._script)} replies and call {call.index + 1} wants another"
            raise LlmError(f"{self.name}: {wanted}")
        return str(self._script[call.index])


def _scores(reply: str, choices: list[str]) -> list[float] | None:
    """A select reply that scores every choice, `{"craft": -0.1, "mc-dig": -3.0}` (the mean token
    log-probability a model would give each); None for a reply that names a choice."""
    try:
        scored = json.loads(reply)
    except ValueError:
        return None
    if not isinstance(scored, dict) or set(scored) != set(choices):
        return None
    return [float(scored[choice]) for choice in choices]


def _closest(wanted: str, choices: list[str]) -> str:
    """A choice the reply begins (e.g. "[METHOD: STEP 2]"), else one it nearly spells; else the
    reply as it is, which the planner counts as a format failure. An empty or garbage reply
    never lands on a choice: it once made "" a DONE "yes"."""
    wanted = wanted.strip()
    started = [choice for choice in choices if wanted and choice.startswith(wanted)]
    if started:
        return started[0]
    close = difflib.get_close_matches(wanted, choices, n=1, cutoff=CLOSE_ENOUGH)
    return close[0] if close else wanted


def load_script(path: Path) -> ScriptedBackend:
    """A .yaml/.yml/.json list of replies (or {replies: [...], constrained: bool}), or a .py file
    defining reply(call) -> str (and optionally CONSTRAINED = False, WHOLE_TURNS = True, and
    BASELINE = True for a baseline policy, which chooses without the runtime's prior)."""
    if not path.is_file():
        raise ConfigError(f"scripted: {path} does not exist")
    name = f"scripted:{path}"
    if path.suffix == ".py":
        module = _import(path)
        reply = getattr(module, "reply", None)
        if not callable(reply):
            raise ConfigError(f"scripted: {path} defines no reply(call) -> str")
        return ScriptedBackend(reply, constrained=bool(getattr(module, "CONSTRAINED", True)),
                               whole_turns=bool(getattr(module, "WHOLE_TURNS", False)), name=name,
                               baseline=bool(getattr(module, "BASELINE", False)))
    try:
        loaded: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ConfigError(f"scripted: {path}: {e}") from None
    if isinstance(loaded, dict):
        replies, constrained = loaded.get("replies"), loaded.get("constrained", True)
    else:
        replies, constrained = loaded, True
    if not (isinstance(replies, list) and all(isinstance(r, str) for r in replies)):
        raise ConfigError(f"scripted: {path}: expected a list of reply strings (or replies: [...])")
    return ScriptedBackend(replies, constrained=bool(constrained), name=name)


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(f"mcagent_script_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"scripted: cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
