"""`sglang:URL`: a real SGLang server, the production path on a GPU.

The backend speaks SGLang's native HTTP API itself, through agent/llm/http.py, so that every
request has a timeout, 429/5xx/dropped connections are retried, failures are one-line
LlmErrors with the server's message, and every body it sends is ours (and tested:
tests/unit/test_sglang_wire.py). It does what sglang's own `RuntimeEndpoint` does
(sglang/lang/backend/runtime_endpoint.py in sglang==0.5.2), no more:

    generate       POST /generate  {"text", "sampling_params": {max_new_tokens, temperature, top_p,
                   top_k, min_p, penalties, stop, regex | json_schema, ...}} -> {"text", "meta_info"}
    select         POST /generate  the prompt with max_new_tokens 0 (prefill it, count its tokens),
                   then prompt+choice for every choice in one batch with return_logprob,
                   return_text_in_logprobs and logprob_start_len = prompt tokens - 2; the
                   choices are compared by sglang.lang.choices (token-length-normalised mean
                   log-probability by default, or the `choices_method` the program names)
    model_info     GET /get_model_info (model_path), GET /get_server_info (max_req_input_len)

The meter reads meta_info: prompt_tokens, cached_tokens (served from the radix cache) and
completion_tokens; prefilled = prompt_tokens - cached_tokens.

The API as documented, which the tests check our requests against:
- docs/basic_usage/sampling_params.md (sgl-project/sglang @ 0a0dd3590799de5344ff8db9b1886105d4c18af9):
  the /generate arguments and the sampling parameters, json_schema as a JSON string;
- docs/basic_usage/native_api.ipynb (@ 06c48ca8da0b2c8aac15df74a768e6a012444064): /generate,
  /get_model_info and its keys, /get_server_info ("CLI arguments, token limits");
- the sglang==0.5.2 sources this project installs: srt/managers/io_struct.py GenerateReqInput
  (request fields and types), srt/sampling/sampling_params.py SamplingParams,
  srt/entrypoints/http_server.py (the endpoints and their replies), srt/managers/
  tokenizer_manager.py (meta_info: id, finish_reason, prompt_tokens, completion_tokens,
  cached_tokens, input_token_logprobs as [logprob, token_id, text]).
The shapes are copied into tests/fixtures/sglang/native_api.json. The tests run against a fake
server that checks our requests against them; no real SGLang server has run this code here.

Opening asks /get_model_info once, without retries (a server that is down is said at once);
every later request gets the HttpPolicy's timeout and retries.

Differences from RuntimeEndpoint: streaming answers in one chunk; `concatenate_and_append`
(fork/join sharing KV cache) is not offered, since /concate_and_append_request is not among
0.5.2's endpoints, so the interpreter joins forks as text; select's unconditional pass (for
unconditional_likelihood_normalized) asks logprob_start_len 0, where RuntimeEndpoint's default
(-1) returns the last token's log-probability only; and the first scored entry, which 0.5.2
always pads with a None log-probability, is dropped before the choices are compared (in
RuntimeEndpoint it reaches sglang.lang.choices, where greedy_token_selection fails on it).
"""

from __future__ import annotations

from typing import Any

from sglang.global_config import global_config
from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import get_chat_template_by_model_path
from sglang.lang.choices import ChoicesDecision, ChoicesSamplingMethod, token_length_normalized
from sglang.lang.ir import REGEX_BOOL, REGEX_FLOAT, REGEX_INT, REGEX_STR, SglSamplingParams

from agent.llm.base import Capabilities, LlmError, Metered, ModelInfo
from agent.llm.http import HttpError, HttpPolicy, get_json, post_json

# sgl.gen(dtype=...) as the regex RuntimeEndpoint sends for it, and whether a number ends at a space.
_DTYPE_REGEX = {"int": (REGEX_INT, True), "float": (REGEX_FLOAT, True), "str": (REGEX_STR, False),
                "bool": (REGEX_BOOL, False)}
# SglSamplingParams fields that go into "sampling_params" as they are, when set.
_SAMPLING_FIELDS = ("max_new_tokens", "min_new_tokens", "n", "temperature", "top_p", "top_k", "min_p",
                    "frequency_penalty", "presence_penalty", "ignore_eos", "regex", "json_schema")
# SglSamplingParams fields that are GenerateReqInput's own, beside "sampling_params".
_LOGPROB_FIELDS = ("return_logprob", "logprob_start_len", "top_logprobs_num", "return_text_in_logprobs")


class SglangBackend(Metered, BaseBackend):
    capabilities = Capabilities(select=True, json_schema=True, regex=True)
    is_chat_model = False  # a completion endpoint: the interpreter renders the chat template

    def __init__(self, url: str, policy: HttpPolicy | None = None, *, api_key: str = ""):
        self.name = f"sglang:{url}"
        self.base_url = url.rstrip("/")
        self.policy = policy or HttpPolicy()
        self.api_key = api_key
        super().__init__()
        # RuntimeEndpoint says True, but 0.5.2 serves no /concate_and_append_request: forks join as text.
        self.support_concate_and_append = False
        try:  # asked once: a server that is down is said at once, as agent/diagnostics/backend_probe.py does
            info = self._get("/get_model_info", self.policy.model_copy(update={"retries": 0}))
        except LlmError as e:
            raise LlmError(f"{self.name}: cannot reach an SGLang server: {e}") from None
        if not isinstance(info, dict) or not isinstance(info.get("model_path"), str):
            raise LlmError(f"{self.name}: /get_model_info did not answer like an SGLang server: {str(info)[:200]!r}")
        self.server_model = info
        self.chat_template = get_chat_template_by_model_path(info["model_path"])

    # --- what the interpreter calls -------------------------------------------------------

    def get_model_name(self) -> str:
        return self.server_model["model_path"]

    def model_info(self) -> ModelInfo:
        """The model's path, and the most prompt tokens the server takes (max_req_input_len:
        the context length or the KV pool, whichever is smaller, less a few); None when
        /get_server_info does not say."""
        try:
            server = self._get("/get_server_info")
        except LlmError:
            server = {}
        limit = next((server.get(key) for key in ("max_req_input_len", "context_length")
                      if isinstance(server, dict) and _is_int(server.get(key))), None)
        return ModelInfo(model=self.get_model_name(), context_tokens=limit)

    def get_server_info(self) -> dict[str, Any]:
        return self._get("/get_server_info")

    def flush_cache(self) -> None:
        try:
            post_json(self.base_url + "/flush_cache", {}, api_key=self.api_key, policy=self.policy)
        except HttpError as e:
            if e.status != 200:  # it answers 200 with plain text: that is success
                raise

    def cache_prefix(self, prefix_str: str) -> None:
        self._post({"text": prefix_str, "sampling_params": {"max_new_tokens": 0}})

    def commit_lazy_operations(self, s) -> None:
        self._post(self._with_images(s, {"text": s.text_, "sampling_params": {"max_new_tokens": 0}}))

    fill_image = commit_lazy_operations

    def generate(self, s, sampling_params: SglSamplingParams):
        body = self._with_images(s, {"text": s.text_, "sampling_params": _sampling(sampling_params)})
        for field in _LOGPROB_FIELDS:
            value = getattr(sampling_params, field, None)
            if value is not None and not isinstance(value, tuple):  # (None,) is SglSamplingParams' "unset"
                body[field] = value
        with self.metered("gen", s.text_) as meter:
            reply = self._post(body)
            if not isinstance(reply, dict) or not isinstance(reply.get("text"), str):
                raise LlmError(f"{self.name}: /generate answered without a text: {str(reply)[:200]!r}")
            meta = reply.get("meta_info") or {}
            meter.completion = reply["text"]
            _count(meter, meta)
            meter.completion_tokens = int(meta.get("completion_tokens", 0))
        return meter.completion, meta

    def generate_stream(self, s, sampling_params: SglSamplingParams):
        """One chunk: the planner does not stream, and a chunk is a valid stream."""
        yield self.generate(s, sampling_params)

    def select(self, s, choices, temperature, choices_method: ChoicesSamplingMethod | None = None) -> ChoicesDecision:
        """As RuntimeEndpoint.select: the choices' log-probabilities after the prompt, compared
        by `choices_method` (token-length-normalised by default)."""
        method = choices_method or token_length_normalized
        choices = list(choices)
        with self.metered("select", s.text_, choices) as meter:
            if temperature > 1e-5:
                raise LlmError(f"{self.name}: select compares log-probabilities; temperature must be 0")
            # Prefill the prompt (it stays in the radix cache) and learn its length in tokens.
            meta = self._meta(self._post(self._with_images(s, {"text": s.text_, "sampling_params": {"max_new_tokens": 0}})))
            prompt_tokens = int(meta.get("prompt_tokens", 0))
            _count(meter, meta)
            start = max(prompt_tokens - 2, 0)  # two tokens back: the choice may merge with the prompt's end
            replies = self._batch(self._with_images(s, {
                "text": [s.text_ + choice for choice in choices],
                "sampling_params": {"max_new_tokens": 0, "temperature": 0},
                "return_logprob": True,
                "return_text_in_logprobs": True,
                "logprob_start_len": start,
            }), len(choices))
            metas = [self._meta(reply) for reply in replies]
            meter.scored_tokens = sum(_computed(m) for m in metas)
            input_logprobs = [m.get("input_token_logprobs") or [] for m in metas]
            output_logprobs = [m.get("output_token_logprobs") or [] for m in metas]
            if not all(input_logprobs):
                raise LlmError(f"{self.name}: /generate returned no input_token_logprobs for select")
            input_logprobs = [_choice_tokens(s.text_, tokens) for tokens in input_logprobs]
            normalized = [_mean_logprob(tokens) for tokens in input_logprobs]
            unconditional = None
            if method.requires_unconditional_logprobs:
                replies = self._batch({
                    "input_ids": [[token[1] for token in tokens] for tokens in input_logprobs],
                    "sampling_params": {"max_new_tokens": 0},
                    "return_logprob": True,
                    "logprob_start_len": 0,
                }, len(choices))
                metas = [self._meta(reply) for reply in replies]
                meter.scored_tokens += sum(_computed(m) for m in metas)
                unconditional = [m.get("input_token_logprobs") or [] for m in metas]
            decision = method(choices=choices, normalized_prompt_logprobs=normalized,
                              input_token_logprobs=input_logprobs, output_token_logprobs=output_logprobs,
                              unconditional_token_logprobs=unconditional)
            meter.completion = decision.decision
        return decision

    # --- HTTP --------------------------------------------------------------------------

    def _get(self, path: str, policy: HttpPolicy | None = None) -> Any:
        return get_json(self.base_url + path, api_key=self.api_key, policy=policy or self.policy)

    def _post(self, body: dict[str, Any]) -> Any:
        return post_json(self.base_url + "/generate", body, api_key=self.api_key, policy=self.policy)

    def _batch(self, body: dict[str, Any], size: int) -> list[Any]:
        replies = self._post(body)
        if not isinstance(replies, list) or len(replies) != size:
            raise LlmError(f"{self.name}: /generate answered a batch of {size} with {str(replies)[:200]!r}")
        return replies

    def _meta(self, reply: Any) -> dict[str, Any]:
        if not isinstance(reply, dict) or not isinstance(reply.get("meta_info"), dict):
            raise LlmError(f"{self.name}: /generate answered without meta_info: {str(reply)[:200]!r}")
        return reply["meta_info"]

    @staticmethod
    def _with_images(s, body: dict[str, Any]) -> dict[str, Any]:
        if s.images_:
            if len(s.images_) > 1:
                raise LlmError("sglang: one image per program at most")
            body["image_data"] = s.images_[0][1]
        return body


def _sampling(params: SglSamplingParams) -> dict[str, Any]:
    """SGLang's sampling_params for an sgl.gen: what is set, stop strings as a list, and
    dtype as the regex RuntimeEndpoint would send for it."""
    out: dict[str, Any] = {
        "skip_special_tokens": global_config.skip_special_tokens_in_output,
        "spaces_between_special_tokens": global_config.spaces_between_special_tokens_in_out,
    }
    for field in _SAMPLING_FIELDS:
        value = getattr(params, field)
        if value is not None:
            out[field] = value
    stop = [params.stop] if isinstance(params.stop, str) else list(params.stop or [])
    if params.dtype is not None:
        name = params.dtype if isinstance(params.dtype, str) else getattr(params.dtype, "__name__", "")
        if name not in _DTYPE_REGEX:
            raise LlmError(f"sglang: sgl.gen dtype {params.dtype!r} is not one of int, float, str, bool")
        out["regex"], stops_at_space = _DTYPE_REGEX[name]
        stop += [" ", "\n"] if stops_at_space else []
    if stop:
        out["stop"] = list(dict.fromkeys(stop))
    if params.stop_token_ids:
        out["stop_token_ids"] = list(params.stop_token_ids)
    return out


def _count(meter, meta: dict[str, Any]) -> None:
    meter.prompt_tokens = int(meta.get("prompt_tokens", 0))
    meter.prefilled_tokens = _computed(meta)


def _computed(meta: dict[str, Any]) -> int:
    """Prompt tokens the server computed: not served from its radix cache."""
    return max(int(meta.get("prompt_tokens", 0)) - int(meta.get("cached_tokens", 0)), 0)


def _choice_tokens(prompt: str, tokens: list[list[Any]]) -> list[list[Any]]:
    """The scored entries [logprob, token_id, text] that belong to the choice. Scoring starts
    two prompt tokens back; SGLang 0.5.2 gives the first entry no logprob (None), so it goes;
    the next is the prompt's last token unless the choice merged with it (token healing):
    RuntimeEndpoint's test for that is whether the prompt ends with its text."""
    while len(tokens) > 1 and tokens[0][0] is None:
        tokens = tokens[1:]
    if len(tokens) > 1 and isinstance(tokens[0][2], str) and prompt.endswith(tokens[0][2]):
        tokens = tokens[1:]
    return tokens


def _mean_logprob(tokens: list[list[Any]]) -> float:
    """RuntimeEndpoint's compute_normalized_prompt_logprobs: the mean over tokens that have one."""
    values = [token[0] for token in tokens if token[0]]
    return sum(values) / len(values) if values else 0.0


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
