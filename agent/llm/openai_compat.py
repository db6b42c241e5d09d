"""`openai:BASE_URL[?mode=…]#MODEL`: any OpenAI-compatible server (llama.cpp's servers, vLLM,
SGLang's OpenAI API, Ollama, LM Studio, hosted APIs), spoken to over HTTP directly.

Two things differ between such servers, and the backend finds both out when it opens
(openai_traits.py), or is told them in the spec:
- **mode**: `completion` (/completions: the prompt rendered with the model's chat template,
  so the planner's programs run as they do in-process) or `chat` (/chat/completions: whole
  turns only, so the planner asks each decision as one JSON reply; Capabilities.whole_turns).
  A server that serves /completions is used in completion mode.
- **constraint**: `grammar` (llama.cpp servers take a GBNF `grammar`: select, regex and JSON
  schema all hold, bounds included, see grammar.py), `json_schema` (chat only:
  `response_format` with a JSON schema, as OpenAI, vLLM and SGLang take it), or `none` (the
  planner validates and retries).
`select` is by log-likelihood on a llama.cpp server in completion mode, as in-process: each
choice forced by a grammar, scored by the log-probabilities the server reports for its
tokens. Elsewhere it is constrained decoding of the choices: those servers do not score text.

The API key goes in a header (http.py); the backend's name, the trace and every message
leave it out. Prompt-cache hits are read from `usage.prompt_tokens_details.cached_tokens`
where the server reports them; elsewhere the whole prompt counts as prefilled.
"""

from __future__ import annotations

import json
from typing import Any

from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import get_chat_template, get_chat_template_by_model_path
from sglang.lang.choices import ChoicesDecision, ChoicesSamplingMethod, token_length_normalized

from agent.llm.base import LlmError, Meter, Metered, ModelInfo, chat_messages, cut_at_stop, gbnf, stop_strings
from agent.llm.http import HttpError, HttpPolicy, explained, get_json, post_json
from agent.llm.openai_traits import (Constraint, Mode, ServerTraits, capabilities_for, first_choice, probe_constraint,
                                     probe_mode, reply_text, response_format)

# A chat template the planner renders completion prompts with when the model's name says nothing:
# the most common among instruct models served by name (SmolLM2, Qwen, Hermes, …).
FALLBACK_TEMPLATE = "chatml"
# Where servers put a model's context window in /models (vLLM, llama.cpp's llama-server, others).
CONTEXT_KEYS = ("max_model_len", "context_length", "context_window", "n_ctx", "n_ctx_train")


class OpenAiBackend(Metered, BaseBackend):
    def __init__(self, base_url: str, model: str, *, mode: Mode | None = None, constraint: Constraint | None = None,
                 template: str | None = None, api_key: str = "", key_variable: str = "OPENAI_API_KEY",
                 policy: HttpPolicy = HttpPolicy()):
        """`key_variable`: where `api_key` came from, named (never the key) when the server refuses it."""
        super().__init__()
        given = {"mode": mode, "constraint": constraint, "template": template}
        options = "&".join(f"{name}={value}" for name, value in given.items() if value)
        self.name = f"openai:{base_url}{'?' + options if options else ''}#{model}"
        self.base_url, self.model, self._api_key, self._policy = base_url.rstrip("/"), model, api_key, policy
        self._key_variable = key_variable
        self._listed = self._model_entry()
        mode = mode or probe_mode(self._post)
        self.traits = ServerTraits(mode=mode, constraint=constraint or probe_constraint(self._post, mode))
        self.capabilities = capabilities_for(self.traits)
        # A chat server applies the model's template itself; ours then only renders the trace's text.
        self.chat_template = get_chat_template((template or _template_for(model)) if mode == "completion" else "default")

    def get_model_name(self) -> str:
        return self.model

    def model_info(self) -> ModelInfo:
        meta = self._listed.get("meta") or {}
        found = [self._listed.get(key, meta.get(key) if isinstance(meta, dict) else None) for key in CONTEXT_KEYS]
        return ModelInfo(model=self.model, context_tokens=next((int(v) for v in found if isinstance(v, int)), None))

    def generate(self, s, sampling_params):
        stop = stop_strings(sampling_params.stop)
        with self.metered("gen", s.text_) as meter:
            body = {"max_tokens": sampling_params.max_new_tokens, "temperature": sampling_params.temperature,
                    "top_p": sampling_params.top_p, **({"stop": stop} if stop else {}), **self._llama_sampling(),
                    **self._constrained(sampling_params.json_schema, sampling_params.regex)}
            meter.completion = cut_at_stop(self._ask(s, body, meter), stop)
        return meter.completion, {"prompt_tokens": meter.prompt_tokens}

    def select(self, s, choices, temperature, choices_method=None):
        choices = list(choices)
        with self.metered("select", s.text_, choices) as meter:
            if self.traits.mode == "completion" and self.traits.constraint == "grammar":
                decision = self._likeliest(s, choices, choices_method or token_length_normalized, meter)
                if decision is not None:
                    meter.completion = decision.decision
                    return decision
            if self.traits.constraint == "grammar":
                body = {"grammar": gbnf(lambda g: g.gbnf_choices(choices))}
            elif self.traits.constraint == "json_schema":
                body = response_format({"type": "object", "properties": {"choice": {"enum": choices}},
                                         "required": ["choice"], "additionalProperties": False})
            else:
                raise LlmError(f"{self.name}: select needs a grammar or a JSON schema, which this server does not take")
            reply = self._ask(s, {"max_tokens": _longest(choices), "temperature": 0.0, **self._llama_sampling(), **body},
                              meter)
            meter.completion = _chosen(reply, choices, self.traits.constraint, self.name)
        return ChoicesDecision(decision=meter.completion, meta_info={"reply": reply})

    def _likeliest(self, s, choices: list[str], method: ChoicesSamplingMethod,
                   meter: Meter) -> ChoicesDecision | None:
        """`select` by log-likelihood, as in-process: each choice is forced by a grammar that allows
        only it, and scored by the log-probabilities the server gives its tokens (taken before
        the grammar filters them). One request per choice, each after the same cached prompt.
        None when the server gives no log-probabilities: the choice is then decoded under a grammar."""
        if method.requires_unconditional_logprobs:
            raise LlmError(f"{self.name}: select with {type(method).__name__} is not supported")
        paths: list[list[float]] = []
        for choice in choices:
            body = {"prompt": s.text_, "max_tokens": _longest([choice]), "temperature": 0.0, "logprobs": 1,
                    "grammar": gbnf(lambda g: g.gbnf_choices([choice])), **self._llama_sampling()}
            reply = self._post("/completions", body)
            _count(meter, reply, scoring=True)
            scored = _token_logprobs(first_choice(reply, self.name))
            if not scored:
                return None
            paths.append(scored)
        return method(choices=choices, normalized_prompt_logprobs=[sum(p) / max(len(p), 1) for p in paths],
                      input_token_logprobs=[[(lp, None, None) for lp in p] for p in paths],
                      output_token_logprobs=[[] for _ in choices])

    def _llama_sampling(self) -> dict[str, Any]:
        """A llama.cpp server samples with its own defaults (repeat_penalty 1.1, top_k 40) where the
        in-process backend uses llama.cpp's (1.0, none): the same model must decode the same."""
        return {"repeat_penalty": 1.0, "top_k": 0} if self.traits.constraint == "grammar" else {}

    def _constrained(self, schema: str | None, regex: str | None) -> dict[str, Any]:
        """The request fields that hold a generation to `schema` (JSON text) or `regex`, as this server takes them."""
        if self.traits.constraint == "grammar" and (schema or regex):
            return {"grammar": gbnf(lambda g: g.gbnf_for(schema) if schema else g.gbnf_for_pattern(regex))}
        if self.traits.constraint == "json_schema" and schema:
            return response_format(json.loads(schema))
        return {}

    def _ask(self, s, body: dict[str, Any], meter: Meter) -> str:
        """One request for the program's state `s`; fills the meter's tokens, returns the reply's text."""
        if self.traits.mode == "chat":
            reply = self._post("/chat/completions", {"messages": chat_messages(s, self.name), **body})
        else:
            reply = self._post("/completions", {"prompt": s.text_, **body})
        _count(meter, reply)
        return reply_text(reply, self.traits.mode, self.name)

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            return post_json(self.base_url + path, {"model": self.model, **body}, api_key=self._api_key,
                             policy=self._policy)
        except HttpError as e:
            raise explained(e, self.name, self._api_key, self._key_variable) from None

    def _model_entry(self) -> dict[str, Any]:
        """The server's /models entry for our model: it answers, takes the key, and serves the model."""
        try:
            listing = get_json(self.base_url + "/models", api_key=self._api_key, policy=self._policy)
        except HttpError as e:
            raise explained(e, self.name, self._api_key, self._key_variable) from None
        data = listing.get("data") if isinstance(listing, dict) else None
        entries = [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []
        ids = [str(e.get("id")) for e in entries]
        if ids and self.model not in ids:
            raise LlmError(f"{self.name}: the server does not serve {self.model!r}; it serves {', '.join(ids[:8])}")
        return next((e for e in entries if e.get("id") == self.model), {})


def _count(meter: Meter, reply: dict[str, Any], *, scoring: bool = False) -> None:
    """Adds one reply's usage to the call's meter, as the in-process backend counts: the first
    request's prompt, and what the server computed of it (all of it unless it reports cache
    hits), as the call's prompt and prefill; what it wrote as completion, or when `scoring`
    (select's requests) as scored tokens, with whatever the later requests recomputed."""
    usage = reply.get("usage") or {}
    prompt = int(usage.get("prompt_tokens") or 0)
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens")
    computed = prompt - (int(cached) if isinstance(cached, int) else 0)
    written = int(usage.get("completion_tokens") or 0)
    first = not meter.prompt_tokens
    if first:
        meter.prompt_tokens, meter.prefilled_tokens = prompt, computed
    if scoring:
        meter.scored_tokens += written + (0 if first else computed)
    else:
        meter.completion_tokens += written


def _token_logprobs(choice: dict[str, Any]) -> list[float]:
    """The log-probabilities of a completion's tokens: OpenAI's `token_logprobs` (llama-cpp-python),
    or the `content` list llama.cpp's llama-server gives."""
    logprobs = choice.get("logprobs") or {}
    values = logprobs.get("token_logprobs") or [item.get("logprob") for item in logprobs.get("content") or []
                                                if isinstance(item, dict)]
    return [float(v) for v in values if isinstance(v, (int, float))]


def _chosen(reply: str, choices: list[str], constraint: Constraint, name: str) -> str:
    """The choice a constrained reply names; a reply that names none means the server did not hold to it."""
    text = reply.strip()
    if constraint == "json_schema":
        try:
            text = str(json.loads(text)["choice"])
        except (json.JSONDecodeError, KeyError, TypeError):
            pass
    found = text if text in choices else next((c for c in choices if c.strip() == text), None)
    if found is None:
        raise LlmError(f"{name}: asked to choose among {choices}, the server answered {reply[:80]!r}")
    return found


def _longest(choices: list[str]) -> int:
    """Enough tokens for the longest choice (a token is at least one character), and JSON around it."""
    return max(len(c) for c in choices) + 16


def _template_for(model: str) -> str:
    found = get_chat_template_by_model_path(model).name
    return FALLBACK_TEMPLATE if found == "default" else found
