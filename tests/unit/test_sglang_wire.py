"""`sglang:URL` on the wire: SglangBackend against a FAKE SGLang server that checks our requests
against SGLang's documented native API. No real SGLang server ran for these tests (none can
run here: no GPU); what they prove is that every request we send is one the documented API
accepts, with its fields where SGLang reads them, and that we read SGLang's documented
replies right.

The fake (a stdlib http.server on 127.0.0.1, tests/support/http_server.py) answers /generate,
/get_model_info and /get_server_info with the reply shapes in tests/fixtures/sglang/
native_api.json, and checks every /generate body against the fields and types listed there.
Sources (also in the fixture): docs/basic_usage/sampling_params.md at sgl-project/sglang
0a0dd3590799de5344ff8db9b1886105d4c18af9, docs/basic_usage/native_api.ipynb at
06c48ca8da0b2c8aac15df74a768e6a012444064, and the sglang==0.5.2 sources this project installs
(srt/managers/io_struct.py GenerateReqInput, srt/sampling/sampling_params.py,
srt/entrypoints/http_server.py, srt/managers/tokenizer_manager.py for meta_info and logprobs).

It "tokenizes" by words (each with its leading whitespace), keeps a radix cache of what it has
seen (so cached_tokens is real arithmetic), trims stop strings as SGLang does, and scores a
token's log-probability by whether its word is one it `likes`: that is how select is steered.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Union, get_args, get_origin

import pytest
import sglang as sgl
from sglang.lang.choices import greedy_token_selection, unconditional_likelihood_normalized
from sglang.lang.ir import REGEX_INT

from agent.errors import ConfigError
from agent.llm import LlmError
from agent.llm.base import ModelInfo
from agent.llm.http import HttpPolicy
from agent.llm.loglik import common_prefix
from agent.diagnostics.backend_probe import probe_backend
from agent.llm.sglang_native import SglangBackend
from agent.tools.schema import check_args
from agent.trace.schema import OuterStep
from support.http_server import FakeHttpServer, Reply, closed_port_url
from support.planning import rig

API = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "sglang" / "native_api.json").read_text())
FAST = HttpPolicy(timeout_s=5.0, retries=2, backoff_s=0.001)
_TYPES = {"Any": Any, "Dict": Dict, "List": List, "Optional": Optional, "Union": Union,
          "str": str, "int": int, "float": float, "bool": bool, "None": None}


def documented_type(text: str) -> Any:
    return eval(text, {"__builtins__": {}}, _TYPES)  # the fixture's own typing expressions


def conforms(value: Any, tp: Any) -> bool:
    """Whether a JSON value has the documented Python type (as FastAPI would read it)."""
    if tp is Any:
        return True
    if tp is None or tp is type(None):
        return value is None
    origin, args = get_origin(tp), get_args(tp)
    if origin is Union:
        return any(conforms(value, arg) for arg in args)
    if tp is list or origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value) if args else isinstance(value, list)
    if tp is dict or origin is dict:
        return isinstance(value, dict) and (not args or all(conforms(v, args[1]) for v in value.values()))
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    raise AssertionError(f"no check for {tp!r}")


REQUEST_FIELDS = {name: documented_type(t) for name, t in API["generate_request_fields"].items()}
SAMPLING_FIELDS = {name: documented_type(t) for name, t in API["sampling_params_fields"].items()}


def wire_problems(body: Any) -> list[str]:
    """What in a /generate body the documented API does not accept."""
    if not isinstance(body, dict):
        return [f"the body is not a JSON object: {body!r}"]
    problems = [f"undocumented field {k!r}" for k in body if k not in REQUEST_FIELDS]
    problems += [f"{k}={v!r} is not {API['generate_request_fields'][k]}" for k, v in body.items()
                 if k in REQUEST_FIELDS and not conforms(v, REQUEST_FIELDS[k])]
    if sum(k in body for k in ("text", "input_ids", "input_embeds")) != 1:
        problems.append("exactly one of text, input_ids, input_embeds")
    params = body.get("sampling_params") or {}
    for group in params if isinstance(params, list) else [params]:
        problems += [f"undocumented sampling param {k!r}" for k in group if k not in SAMPLING_FIELDS]
        problems += [f"sampling_params.{k}={v!r} is not {API['sampling_params_fields'][k]}" for k, v in group.items()
                     if k in SAMPLING_FIELDS and not conforms(v, SAMPLING_FIELDS[k])]
        constraints = [k for k in API["one_constraint_per_request"] if group.get(k) is not None]
        if len(constraints) > 1:
            problems.append(f"more than one constraint: {constraints}")
        if isinstance(group.get("json_schema"), str) and not isinstance(json.loads(group["json_schema"]), dict):
            problems.append("json_schema is not a JSON object")
    return problems


def test_the_wire_check_refuses_what_the_documented_api_does_not_take():
    assert wire_problems({"text": "hi", "sampling_params": {"max_new_tokens": 8, "stop": ["\n"]}}) == []
    bad = {
        "text": "hi", "prompt": "hi", "logprob_start_len": [None],  # RuntimeEndpoint's (None,) default
        "sampling_params": {"max_tokens": 8, "temperature": "0", "regex": "a", "json_schema": {"type": "object"}},
    }
    assert set(wire_problems(bad)) == {
        "undocumented field 'prompt'", "logprob_start_len=[None] is not Optional[Union[List[int], int]]",
        "undocumented sampling param 'max_tokens'", "sampling_params.temperature='0' is not float",
        "sampling_params.json_schema={'type': 'object'} is not Optional[str]",
        "more than one constraint: ['json_schema', 'regex']",
    }
    assert wire_problems({"sampling_params": {}}) == ["exactly one of text, input_ids, input_embeds"]


def words(text: str) -> list[str]:
    return re.findall(r"\s*\S+|\s+", text)


class FakeSglang:
    """Answers like SGLang 0.5.2 (shapes from the fixture) and keeps what it was sent."""

    def __init__(self, *, likes: set[str] = frozenset(), writes=None, model_path: str | None = None):
        self.likes = set(likes)
        self.writes = writes or (lambda prompt, params: "a line of text")
        self.model_info = dict(API["get_model_info_reply"], **({"model_path": model_path} if model_path else {}))
        self.bodies: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.metas: list[dict[str, Any]] = []  # every meta_info answered, in order
        self._seen: list[list[str]] = []  # the radix cache: token sequences already computed
        self._vocab: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, request) -> Reply:
        if request.method == "GET" and request.path == "/get_model_info":
            return Reply(200, self.model_info)
        if request.method == "GET" and request.path == "/get_server_info":
            return Reply(200, API["get_server_info_reply"])
        if request.method == "POST" and request.path == "/generate":
            with self._lock:
                return self._generate(request.json)
        return Reply(404, {"detail": "Not Found"})

    def _generate(self, body: dict[str, Any]) -> Reply:
        self.bodies.append(body)
        problems = wire_problems(body)
        if problems:
            self.problems += problems
            return Reply(422, {"detail": problems})  # FastAPI's answer to a body it cannot read
        batch = isinstance(body.get("text"), list) or (
            isinstance(body.get("input_ids"), list) and body["input_ids"] and isinstance(body["input_ids"][0], list))
        items = body.get("text") if "text" in body else body["input_ids"]
        replies = [self._one(item, body) for item in (items if batch else [items])]
        return Reply(200, replies if batch else replies[0])

    def _one(self, item: str | list[int], body: dict[str, Any]) -> dict[str, Any]:
        tokens = words(item) if isinstance(item, str) else [self._word(i) for i in item]
        params = body.get("sampling_params") or {}
        start = body.get("logprob_start_len", -1)
        cached = max((common_prefix(tokens, seen) for seen in self._seen), default=0)
        if body.get("return_logprob"):
            cached = min(cached, max(start, 0))  # SGLang computes the positions it reports logprobs for
        cached = min(cached, len(tokens) - 1)  # the last prompt token is always computed
        self._seen.append(tokens)
        text, finish = "", {"type": "length", "length": 0}
        if params.get("max_new_tokens", 128) > 0:
            text = self.writes("".join(tokens), params)
            for stop in params.get("stop") or []:
                if stop in text:
                    text, finish = text[: text.index(stop)], {"type": "stop", "matched": stop}
        meta = dict(API["generate_reply"]["meta_info"], finish_reason=finish, prompt_tokens=len(tokens),
                    completion_tokens=len(words(text)), cached_tokens=cached)
        if body.get("return_logprob"):
            start = len(tokens) - 1 if start == -1 else start
            with_text = body.get("return_text_in_logprobs", False)
            meta["input_token_logprobs"] = [
                [None if k == start else self._logprob(word), self._id(word), word if with_text else None]
                for k, word in enumerate(tokens) if k >= start]
            meta["output_token_logprobs"] = []
        self.metas.append(meta)
        return {"text": text, "output_ids": [self._id(w) for w in words(text)], "meta_info": meta}

    def _logprob(self, word: str) -> float:
        return -0.1 if word.strip() in self.likes else -3.0

    def _id(self, word: str) -> int:
        return self._vocab.setdefault(word, len(self._vocab) + 1)

    def _word(self, token_id: int) -> str:
        return next(word for word, i in self._vocab.items() if i == token_id)


@pytest.fixture
def fake():
    return FakeSglang(likes={"measure", "yes", "blue"})


@pytest.fixture
def served(fake):
    with FakeHttpServer(fake) as server:
        yield server


@pytest.fixture
def backend(served):
    return SglangBackend(served.url, FAST)


@pytest.fixture(autouse=True)
def no_wire_problems(fake):
    yield
    assert fake.problems == [], fake.problems


# ---- opening and model info ------------------------------------------------------------

def test_opening_asks_get_model_info_and_renders_prompts_with_the_models_chat_template(served, backend):
    assert [(r.method, r.path) for r in served.requests] == [("GET", "/get_model_info")]
    assert backend.get_model_name() == "Qwen/Qwen2.5-7B-Instruct"
    assert backend.chat_template.name == "qwen"
    assert backend.name == f"sglang:{served.url}" and backend.policy == FAST


def test_model_info_names_the_model_and_the_servers_prompt_limit(backend):
    assert backend.model_info() == ModelInfo(model="Qwen/Qwen2.5-7B-Instruct", context_tokens=32762)


def test_model_info_without_server_info_says_no_context_length():
    info = dict(API["get_model_info_reply"])
    with FakeHttpServer(lambda r: Reply(200, info) if r.path == "/get_model_info" else Reply(404, {"detail": "Not Found"})) as s:
        assert SglangBackend(s.url, FAST).model_info() == ModelInfo(model=info["model_path"], context_tokens=None)


def test_the_api_key_travels_as_a_bearer_token(fake):
    with FakeHttpServer(fake) as server:
        SglangBackend(server.url, FAST, api_key="k-123")
    assert server.requests[0].headers["Authorization"] == "Bearer k-123"


# ---- gen -------------------------------------------------------------------------------

@sgl.function
def _regex_gen(s):
    s += sgl.user("How many blocks?")
    s += sgl.assistant_begin()
    s += "COUNT: " + sgl.gen("count", max_tokens=8, regex=r"[0-9]+", temperature=0.0)
    s += sgl.assistant_end()


def test_gen_with_a_regex_sends_it_in_sampling_params_with_the_budget_and_temperature(fake, backend):
    fake.writes = lambda prompt, params: "42"
    state = _regex_gen.run(backend=backend, use_thread=False)
    assert state["count"] == "42"
    [body] = fake.bodies
    assert body["text"].endswith("<|im_start|>assistant\nCOUNT: ")
    assert body["text"].startswith("<|im_start|>system\n")  # the chat template was applied, as a prompt string
    params = body["sampling_params"]
    assert params["regex"] == "[0-9]+" and "json_schema" not in params
    assert (params["max_new_tokens"], params["temperature"]) == (8, 0.0)
    assert set(body) == {"text", "sampling_params"}  # no logprob fields unless asked


@sgl.function
def _schema_gen(s, schema):
    s += sgl.user("Arguments?")
    s += sgl.assistant_begin()
    s += "TOOL_ARGS_JSON: " + sgl.gen("args", max_tokens=160, json_schema=schema, temperature=0.0)
    s += sgl.assistant_end()


def test_gen_with_a_json_schema_sends_it_as_a_json_string_in_sampling_params(fake, backend):
    schema = {"type": "object", "properties": {"distance": {"type": "integer"}}, "required": ["distance"]}
    fake.writes = lambda prompt, params: '{"distance": 4}'
    state = _schema_gen.run(schema=json.dumps(schema), backend=backend, use_thread=False)
    assert json.loads(state["args"]) == {"distance": 4}
    params = fake.bodies[0]["sampling_params"]
    assert isinstance(params["json_schema"], str) and json.loads(params["json_schema"]) == schema
    assert "regex" not in params and "ebnf" not in params


@sgl.function
def _stopped_gen(s):
    s += sgl.user("Say it.")
    s += sgl.assistant_begin()
    s += "THOUGHTS: " + sgl.gen("thoughts", max_tokens=48, stop=["\n"], temperature=0.0, top_p=0.9, top_k=20)
    s += sgl.assistant_end()


def test_gen_with_stop_sends_every_stop_string_as_a_list_and_gets_the_text_trimmed(fake, backend):
    fake.writes = lambda prompt, params: "walk north\nand then some"
    state = _stopped_gen.run(backend=backend, use_thread=False)
    assert state["thoughts"] == "walk north"
    params = fake.bodies[0]["sampling_params"]
    assert params["stop"][0] == "\n" and "<|im_end|>" in params["stop"]  # the template's end of turn too
    assert (params["top_p"], params["top_k"]) == (0.9, 20)
    assert params["skip_special_tokens"] is True and params["spaces_between_special_tokens"] is True


@sgl.function
def _int_gen(s):
    s += "Blocks: " + sgl.gen("n", max_tokens=4, dtype=int)


def test_gen_with_a_dtype_sends_sglangs_regex_for_it(fake, backend):
    fake.writes = lambda prompt, params: "7"
    assert _int_gen.run(backend=backend, use_thread=False)["n"] == "7"
    params = fake.bodies[0]["sampling_params"]
    assert params["regex"] == REGEX_INT and {" ", "\n"} <= set(params["stop"])


@sgl.function
def _logprob_gen(s):
    s += "Sky: " + sgl.gen("sky", max_tokens=2, return_logprob=True, logprob_start_len=0, top_logprobs_num=2,
                          return_text_in_logprobs=True)


def test_logprob_requests_go_beside_sampling_params_where_generate_req_input_has_them(fake, backend):
    fake.writes = lambda prompt, params: "blue"
    state = _logprob_gen.run(backend=backend, use_thread=False)
    body = fake.bodies[0]
    assert (body["return_logprob"], body["logprob_start_len"], body["top_logprobs_num"]) == (True, 0, 2)
    assert body["return_text_in_logprobs"] is True
    assert not {"return_logprob", "logprob_start_len", "top_logprobs_num"} & set(body["sampling_params"])
    assert state.get_meta_info("sky")["input_token_logprobs"][0] == [None, 1, "Sky:"]


def test_usage_reads_prompt_cached_and_completion_tokens_from_meta_info(fake, backend):
    fake.writes = lambda prompt, params: "a line of text"
    _stopped_gen.run(backend=backend, use_thread=False)
    _stopped_gen.run(backend=backend, use_thread=False)  # the same prompt: the radix cache has it
    first, second = fake.metas
    assert first["cached_tokens"] == 0 and second["cached_tokens"] == second["prompt_tokens"] - 1
    usage = backend.usage
    assert usage.calls == 2
    assert usage.prompt_tokens == first["prompt_tokens"] + second["prompt_tokens"]
    assert usage.prefilled_tokens == first["prompt_tokens"] + 1
    assert usage.completion_tokens == first["completion_tokens"] + second["completion_tokens"] == 8
    assert backend.context_tokens == second["prompt_tokens"]


# ---- select ----------------------------------------------------------------------------

@sgl.function
def _select(s, method=None):
    s += sgl.user("Which tool?")
    s += sgl.assistant_begin()
    s += "TOOL_NAME: " + sgl.select("tool", choices=["think", "measure", "say"], choices_method=method)
    s += sgl.assistant_end()


def test_select_prefills_the_prompt_then_scores_every_choice_in_one_logprob_batch(fake, backend):
    state = _select.run(backend=backend, use_thread=False)
    assert state["tool"] == "measure"
    prefill, scoring = fake.bodies
    prompt = prefill["text"]
    assert prompt.endswith("TOOL_NAME: ")
    assert prefill["sampling_params"] == {"max_new_tokens": 0} and "return_logprob" not in prefill
    assert scoring["text"] == [prompt + c for c in ("think", "measure", "say")]
    assert scoring["sampling_params"] == {"max_new_tokens": 0, "temperature": 0}
    assert scoring["return_logprob"] is True and scoring["return_text_in_logprobs"] is True
    assert scoring["logprob_start_len"] == fake.metas[0]["prompt_tokens"] - 2
    meta = state.get_meta_info("tool")
    assert meta["normalized_prompt_logprobs"] == [-3.0, -0.1, -3.0]


def test_select_counts_the_prompt_once_and_the_scored_choice_tokens_apart(fake, backend):
    _select.run(backend=backend, use_thread=False)
    prefill_meta, *choice_metas = fake.metas
    usage = backend.usage
    assert usage.calls == 1 and usage.prompt_tokens == prefill_meta["prompt_tokens"]
    assert usage.prefilled_tokens == prefill_meta["prompt_tokens"] - prefill_meta["cached_tokens"]
    assert usage.scored_tokens == sum(m["prompt_tokens"] - m["cached_tokens"] for m in choice_metas)
    assert usage.completion_tokens == 0


def test_select_with_greedy_token_selection_uses_the_same_requests(fake, backend):
    assert _select.run(method=greedy_token_selection, backend=backend, use_thread=False)["tool"] == "measure"
    assert len(fake.bodies) == 2


def test_select_with_unconditional_likelihood_asks_the_choice_tokens_alone_by_input_ids(fake, backend):
    state = _select.run(method=unconditional_likelihood_normalized, backend=backend, use_thread=False)
    assert state["tool"] in ("think", "measure", "say")
    unconditional = fake.bodies[2]
    assert set(unconditional) == {"input_ids", "sampling_params", "return_logprob", "logprob_start_len"}
    assert all(isinstance(ids, list) and ids for ids in unconditional["input_ids"])
    assert unconditional["logprob_start_len"] == 0 and unconditional["sampling_params"] == {"max_new_tokens": 0}


# ---- the planner -----------------------------------------------------------------------

def _planner_writes(prompt: str, params: dict[str, Any]) -> str:
    if params.get("json_schema"):
        return '{"distance": 3}'
    if params.get("regex"):
        return "measure the corridor"
    return "nothing left"


def test_the_planner_runs_its_programs_over_the_wire_with_documented_requests_only(fake, backend):
    fake.writes = _planner_writes
    r = rig(None, backend=backend, max_steps=2)
    result = r.run("measure something large")
    assert (result.outcome, result.steps) == ("done", 1)
    [step] = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert step.tool == "measure" and step.action == {"type": "measure", "distance": 3} and step.done is True
    assert check_args(r.planner.toolbox.tools["measure"].schema_hint, {"distance": 3}) is None
    gens = [b for b in fake.bodies if b["sampling_params"].get("max_new_tokens", 0) > 0]
    selects = [b for b in fake.bodies if b.get("return_logprob")]
    assert any(b["sampling_params"].get("regex") for b in gens)  # THOUGHTS, held to a line
    assert any(b["sampling_params"].get("json_schema") for b in gens)  # TOOL_ARGS_JSON
    assert len(selects) == 2  # TOOL_NAME and DONE
    assert backend.usage.calls == len(gens) + len(selects)
    assert 0 < backend.usage.prefilled_tokens < backend.usage.prompt_tokens  # the radix cache served the rest
    assert step.llm.prompt_tokens > 0


# ---- failures --------------------------------------------------------------------------

def test_a_server_error_on_generate_is_one_llm_error_with_its_message():
    said = API["error_reply"]

    def answer(request):
        if request.path == "/get_model_info":
            return Reply(200, API["get_model_info_reply"])
        return Reply(said["status"], said["body"])

    with FakeHttpServer(answer) as server:
        backend = SglangBackend(server.url, FAST)
        with pytest.raises(LlmError) as caught:
            _regex_gen.run(backend=backend, use_thread=False)
    message = str(caught.value)
    assert "\n" not in message and "HTTP 400" in message and "longer than the model's context length" in message
    assert len(server.requests) == 2  # a 400 is not tried again
    assert backend.usage.calls == 1


def test_a_busy_server_is_retried_under_the_policy_the_backend_was_given(fake):
    replies = iter([Reply(503, {"error": {"message": "overloaded"}})])

    def answer(request):
        return next(replies, None) or fake(request) if request.path == "/generate" else fake(request)

    with FakeHttpServer(answer) as server:
        backend = SglangBackend(server.url, FAST)
        fake.writes = lambda prompt, params: "12"
        assert _regex_gen.run(backend=backend, use_thread=False)["count"] == "12"
    assert server.paths() == ["/get_model_info", "/generate", "/generate"]


@pytest.mark.parametrize(("url", "says"), [
    (closed_port_url(), "cannot reach an SGLang server: .* the server cannot be reached"),
    ("http://127.0.0.1:notaport", "cannot reach an SGLang server: .*the request cannot be sent .*[Pp]ort"),
], ids=["closed-port", "not-a-port"])  # not the port: parallel workers must collect the same ids
def test_an_unreachable_or_malformed_url_is_one_line(url, says):
    with pytest.raises(LlmError, match=says) as caught:
        SglangBackend(url, FAST)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(f"sglang:{url}: ")


@pytest.mark.parametrize("answer", [
    Reply(404, {"detail": "Not Found"}),
    Reply(200, {"object": "list", "data": []}),
])
def test_a_server_that_is_not_sglang_is_one_line(answer):
    with FakeHttpServer(lambda request: answer) as server:
        with pytest.raises(LlmError) as caught:
            SglangBackend(server.url, FAST)
    assert "\n" not in str(caught.value) and len(server.requests) == 1


def test_probe_passes_a_server_that_answers_and_stops_one_that_does_not(fake):
    with FakeHttpServer(fake) as server:
        probe_backend(f"sglang:{server.url}")
        assert server.paths() == ["/get_model_info"]
    url = closed_port_url()
    with pytest.raises(ConfigError, match=f"llm: sglang:{url}: the server does not answer at {url}/get_model_info"):
        probe_backend(f"sglang:{url}")


def test_probe_passes_a_server_that_answers_with_an_error():
    with FakeHttpServer(lambda request: Reply(404, {"detail": "Not Found"})) as server:
        probe_backend(f"sglang:{server.url}")
