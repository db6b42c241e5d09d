"""`llama-server:URL[?slot=N]`: llama.cpp's own server (its tools/server), spoken to on its native
`/completion` route, where the OpenAI routes lose what many agents on one server need:

- `id_slot`: the agent keeps one slot, so that slot's KV cache holds its own prompt and each
  step computes only what it added (`?slot=N`, taken modulo the server's slots; without it the
  server picks the slot whose cached prompt is most like the request's);
- `cache_prompt`, and `timings` that say how much of each prompt came from the slot's cache;
- `n_probs`: the log-probability of each token it writes, from the raw logits (before a grammar
  filters them), which `select` scores the choices with;
- a GBNF `grammar` on every request: the one the in-process backend decodes under (grammar.py).

`select` scores the choices as the in-process backend does (loglik.py): by the mean
log-probability of the tokens each adds to the prompt, the choice tokenized together with the
prompt (the server's /tokenize), and forced token by token by a grammar of those token ids, one
request per choice after the same cached prompt. It is reproducible: the prompt is sent alone
first, so every choice's first token is scored from the same computation (the prompt's last
token evaluated by itself). Were the first choice scored from the batch that also computed the
prompt's new tokens, its score would differ in the last digits from a later call's, with the
whole prompt cached, and near-ties would change places.
"""

from __future__ import annotations

from typing import Any

from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import get_chat_template, get_chat_template_by_model_path
from sglang.lang.choices import ChoicesDecision, token_length_normalized

from agent.llm.base import (CHATML_MARK, THOUGHTS_MIN_PARAMS, Capabilities, LlmError, Meter, Metered, ModelInfo,
                            SlotState, choices_base, common_prefix, cut_at_stop, gbnf, stop_strings)
from agent.llm.http import HttpError, HttpPolicy, explained, get_json, post_json

# The in-process backend's sampling (llama.cpp's defaults), where the server's differ.
SAMPLING = {"repeat_penalty": 1.0}


class LlamaServerBackend(Metered, BaseBackend):
    capabilities = Capabilities(select=True, json_schema=True, regex=True)

    def __init__(self, base_url: str, *, slot: int | None = None, api_key: str = "",
                 key_variable: str = "OPENAI_API_KEY", policy: HttpPolicy = HttpPolicy()):
        """`slot`: the server slot this backend's requests go to (modulo the server's slots);
        None: the server's choice. `key_variable`: where `api_key` came from, named (never the
        key) when the server refuses it."""
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.name = f"llama-server:{self.base_url}" + (f"?slot={slot}" if slot is not None else "")
        self._api_key, self._key_variable, self._policy = api_key, key_variable, policy
        self.props = self._get("/props")
        self.slots = int(self.props.get("total_slots") or 1)
        self.slot = None if slot is None else slot % self.slots
        thoughts = int(self._model_meta().get("n_params") or 0) >= THOUGHTS_MIN_PARAMS
        self.capabilities = self.capabilities.model_copy(update={"thoughts": thoughts})
        template = str(self.props.get("chat_template") or "")
        path = str(self.props.get("model_path") or "")
        self.chat_template = get_chat_template("chatml") if CHATML_MARK in template else get_chat_template_by_model_path(path)

    def get_model_name(self) -> str:
        return self.name

    def model_info(self) -> ModelInfo:
        """The model's alias (its file's name when it has none) and the context of one slot."""
        settings = self.props.get("default_generation_settings") or {}
        context = settings.get("n_ctx")
        name = self.props.get("model_alias") or str(self.props.get("model_path") or self.name).rsplit("/", 1)[-1]
        return ModelInfo(model=str(name), context_tokens=int(context) if isinstance(context, int) else None)

    def slot_states(self) -> list[SlotState]:
        """The server's slots as /slots lists them: context, whether busy, what its cache holds."""
        listed = self._get("/slots")
        return [SlotState(id=int(entry["id"]), context_tokens=int(entry.get("n_ctx") or 0),
                          busy=bool(entry.get("is_processing")), held_tokens=int(entry.get("n_prompt_tokens") or 0))
                for entry in listed if isinstance(entry, dict) and isinstance(entry.get("id"), int)]

    def generate(self, s, sampling_params):
        stop = stop_strings(sampling_params.stop)
        with self.metered("gen", s.text_) as meter:
            reply = self._complete(s.text_, meter, n_predict=sampling_params.max_new_tokens,
                                   temperature=sampling_params.temperature, top_p=sampling_params.top_p,
                                   top_k=max(sampling_params.top_k, 0), stop=stop,
                                   **_grammar(sampling_params.json_schema, sampling_params.regex))
            meter.completion_tokens = int(reply.get("tokens_predicted") or 0)
            meter.completion = cut_at_stop(str(reply.get("content") or ""), stop)
        return meter.completion, {"prompt_tokens": meter.prompt_tokens}

    def select(self, s, choices, temperature, choices_method=None):
        choices, method = list(choices), choices_method or token_length_normalized
        if method.requires_unconditional_logprobs:
            raise LlmError(f"{self.name}: select with {type(method).__name__} is not supported")
        with self.metered("select", s.text_, choices) as meter:
            prompt = self._tokens(s.text_)
            full = [self._tokens(s.text_ + choice) for choice in choices]
            base = choices_base(prompt, full, self.name)
            self._complete(prompt[:base], meter, n_predict=0)  # the prompt alone: see the module's docstring
            meter.prompt_tokens = len(prompt)
            paths = self._scored(prompt[:base], [tokens[base:] for tokens in full], meter)
            decision = method(choices=choices, normalized_prompt_logprobs=[sum(p) / len(p) for p in paths],
                              input_token_logprobs=[[(lp, None, None) for lp in p] for p in paths],
                              output_token_logprobs=[[] for _ in choices])
            meter.completion = decision.decision
        return decision

    def _scored(self, prompt: list[int], choices: list[list[int]], meter: Meter) -> list[list[float]]:
        """The log-probabilities of each choice's tokens after `prompt`. Each choice is one
        request whose tokens a grammar of token ids forces; the tokens it shares with a choice
        scored before go in its prompt instead (the slot's cache holds them), their
        log-probabilities known already."""
        paths: list[list[float]] = []
        for tokens in choices:
            shared, known = max(((common_prefix(tokens, done), path) for done, path in zip(choices, paths)),
                                default=(0, []))
            shared = min(shared, len(tokens) - 1)  # a choice inside another: its last token asked again
            rest = tokens[shared:]
            forced = "root ::= " + " ".join(f"<[{token}]>" for token in rest) + "\n"
            reply = self._complete(prompt + tokens[:shared], meter, scoring=True, n_predict=len(rest),
                                   temperature=0.0, n_probs=1, grammar=forced)
            paths.append(known[:shared] + self._logprobs(reply, len(rest)))
        return paths

    def _logprobs(self, reply: dict[str, Any], expected: int) -> list[float]:
        scored = [item.get("logprob") for item in reply.get("completion_probabilities") or [] if isinstance(item, dict)]
        if len(scored) != expected or not all(isinstance(v, (int, float)) for v in scored):
            raise LlmError(f"{self.name}: asked to score {expected} tokens, the server gave {len(scored)} "
                           "log-probabilities")
        return [float(v) for v in scored]

    def _tokens(self, text: str) -> list[int]:
        """`text` as the server tokenizes a prompt: its BOS if the model wants one, special tokens as tokens."""
        reply = self._post("/tokenize", {"content": text, "add_special": True, "parse_special": True})
        tokens = reply.get("tokens") if isinstance(reply, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
            raise LlmError(f"{self.name}: /tokenize answered {str(reply)[:120]!r}")
        return tokens

    def _complete(self, prompt: str | list[int], meter: Meter, *, scoring: bool = False,
                  **fields: Any) -> dict[str, Any]:
        """One /completion on this backend's slot, its prompt (text, or token ids) kept in the
        slot's cache; its tokens counted in `meter` as the in-process backend counts them (_count)."""
        body = {"prompt": prompt, "cache_prompt": True, **SAMPLING, **fields}
        if self.slot is not None:
            body["id_slot"] = self.slot
        reply = self._post("/completion", body)
        if not isinstance(reply, dict):
            raise LlmError(f"{self.name}: /completion answered {str(reply)[:120]!r}, not an object")
        _count(meter, reply, scoring=scoring)
        return reply

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        try:
            return post_json(self.base_url + path, body, api_key=self._api_key, policy=self._policy)
        except HttpError as e:
            raise explained(e, self.name, self._api_key, self._key_variable) from None

    def _get(self, path: str) -> Any:
        try:
            return get_json(self.base_url + path, api_key=self._api_key, policy=self._policy)
        except HttpError as e:
            raise explained(e, self.name, self._api_key, self._key_variable) from None

    def _model_meta(self) -> dict[str, Any]:
        """The model's figures (n_params, n_ctx_train) from the server's OpenAI model listing."""
        listing = self._get("/v1/models")
        data = listing.get("data") if isinstance(listing, dict) else None
        first = data[0] if isinstance(data, list) and data and isinstance(data[0], dict) else {}
        meta = first.get("meta")
        return meta if isinstance(meta, dict) else {}


def _count(meter: Meter, reply: dict[str, Any], *, scoring: bool) -> None:
    """Adds one reply's tokens to the call's meter: the first request's prompt, and what the
    server computed of it (`timings.prompt_n`; `cache_n` came from the slot's cache), as the
    call's prompt and prefill; what it wrote as completion, or when `scoring` (select's
    choices) as scored tokens with what those requests recomputed."""
    timings = reply.get("timings") or {}
    computed, cached = int(timings.get("prompt_n") or 0), int(timings.get("cache_n") or 0)
    written = int(reply.get("tokens_predicted") or 0)
    if not meter.prompt_tokens:
        meter.prompt_tokens, meter.prefilled_tokens = computed + cached, computed
    elif scoring:
        meter.scored_tokens += computed + written


def _grammar(schema: str | None, regex: str | None) -> dict[str, str]:
    """The grammar field that holds a generation to `schema` (JSON text) or `regex`, as in-process."""
    if schema:
        return {"grammar": gbnf(lambda g: g.gbnf_for(schema))}
    return {"grammar": gbnf(lambda g: g.gbnf_for_pattern(regex))} if regex else {}
