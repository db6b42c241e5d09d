"""The `llama-server:` backend's requests, against a small local fake of llama.cpp's server: a
character tokenizer (token = code point, after a BOS of 1), and forced tokens scored by a table.
tests/integration/test_llama_server_backend.py runs the same backend against the real server."""

from __future__ import annotations

import re

import pytest
import sglang as sgl

from agent.llm import LlmError, open_backend
from agent.llm.http import HttpPolicy
from support.http_server import FakeHttpServer, Reply, Request

NO_RETRY = HttpPolicy(retries=0, timeout_s=5)
KEY = "sk-test-0123456789"
BOS = 1
PROPS = {"total_slots": 4, "model_alias": "m", "model_path": "/models/m.gguf", "chat_template": "<|im_start|>{{x}}",
         "default_generation_settings": {"n_ctx": 8192}}


def tokens(text: str) -> list[int]:
    return [BOS, *map(ord, text)]


def fake(likes: dict[str, float] | None = None, n_params: int = 135_000_000, probs_short: bool = False):
    """llama.cpp's server: /props, /v1/models, /tokenize, /completion. A grammar of token ids is
    answered with each token's log-probability from `likes` (by character, default -1.0)."""

    def answer(request: Request) -> Reply:
        if request.path == "/props":
            return Reply(200, PROPS)
        if request.path == "/v1/models":
            return Reply(200, {"data": [{"id": "m", "meta": {"n_params": n_params, "n_ctx_train": 8192}}]})
        body = request.json
        if request.path == "/tokenize":
            return Reply(200, {"tokens": tokens(body["content"])})
        prompt = body["prompt"]
        prompt_n = len(prompt) if isinstance(prompt, list) else len(tokens(prompt))
        timings = {"prompt_n": 3, "cache_n": prompt_n - 3}
        forced = [int(t) for t in re.findall(r"<\[(\d+)\]>", body.get("grammar", ""))]
        if forced:
            probs = [{"id": t, "token": chr(t), "logprob": (likes or {}).get(chr(t), -1.0)} for t in forced]
            return Reply(200, {"content": "", "tokens_predicted": len(forced), "timings": timings,
                               "completion_probabilities": probs[:-1] if probs_short else probs})
        return Reply(200, {"content": "hello\nthere", "tokens_predicted": 5, "timings": timings})

    return answer


@sgl.function
def _pick(s, choices: list[str]):
    s += sgl.user("pick")
    s += sgl.assistant(sgl.select("it", choices=choices))


@sgl.function
def _say(s):
    s += sgl.user("say")
    s += sgl.assistant(sgl.gen("it", max_tokens=9, stop=["\n"], regex="[a-z]+"))


def test_opening_reads_the_servers_props_and_the_slot_is_taken_modulo_its_slots():
    with FakeHttpServer(fake()) as server:
        backend = open_backend(f"llama-server:{server.url}?slot=6", policy=NO_RETRY)
    assert backend.name == f"llama-server:{server.url}?slot=6" and backend.slot == 2 and backend.slots == 4
    info = backend.model_info()
    assert (info.model, info.context_tokens) == ("m", 8192)
    assert backend.chat_template.name == "chatml" and not backend.capabilities.thoughts  # 135M parameters
    assert server.paths() == ["/props", "/v1/models"]


def test_a_generation_goes_to_the_slot_with_the_prompt_cached_and_the_in_process_sampling():
    with FakeHttpServer(fake()) as server:
        backend = open_backend(f"llama-server:{server.url}?slot=1", policy=NO_RETRY)
        state = _say.run(backend=backend, use_thread=False)
    body = server.requests[-1].json
    assert state["it"] == "hello"  # cut at the stop string
    assert body["id_slot"] == 1 and body["cache_prompt"] is True and body["n_predict"] == 9
    assert body["repeat_penalty"] == 1.0 and body["stop"][0] == "\n" and "root ::=" in body["grammar"]
    usage = backend.usage
    assert (usage.prompt_tokens, usage.prefilled_tokens, usage.completion_tokens) == (len(tokens(body["prompt"])), 3, 5)


def test_select_scores_each_choices_tokens_forced_by_token_ids_after_the_prompt_sent_alone():
    likes = {"r": -0.1, "e": -0.1, "d": -0.1, "o": -3.0}
    with FakeHttpServer(fake(likes)) as server:
        backend = open_backend(f"llama-server:{server.url}?slot=0", policy=NO_RETRY)
        start = len(server.requests)
        state = _pick.run(choices=["red", "rose", "blue"], backend=backend, use_thread=False)
        sent = server.requests[start:]
    assert state["it"] == "red"
    assert [r.path for r in sent] == ["/tokenize"] * 4 + ["/completion"] * 4
    prompt = sent[0].json["content"]
    warm, red, rose, blue = (r.json for r in sent[4:])
    assert warm["n_predict"] == 0 and warm["prompt"] == tokens(prompt) and warm["id_slot"] == 0
    assert red["prompt"] == tokens(prompt) and red["grammar"] == "root ::= <[114]> <[101]> <[100]>\n"
    assert red["n_probs"] == 1 and red["n_predict"] == 3 and red["temperature"] == 0.0
    # rose shares its first token with red: it goes in the prompt, from the slot's cache, scored already
    assert rose["prompt"] == tokens(prompt) + [ord("r")] and rose["grammar"] == "root ::= <[111]> <[115]> <[101]>\n"
    assert blue["prompt"] == tokens(prompt)
    scores = state.get_meta_info("it")["normalized_prompt_logprobs"]
    assert scores == pytest.approx([-0.1, (-0.1 - 3.0 - 1.0 - 0.1) / 4, (-1.0 * 3 - 0.1) / 4])


def test_a_server_that_scores_fewer_tokens_than_forced_is_an_llm_error():
    with FakeHttpServer(fake(probs_short=True)) as server:
        backend = open_backend(f"llama-server:{server.url}", policy=NO_RETRY)
        with pytest.raises(LlmError, match="asked to score 3 tokens, the server gave 2"):
            _pick.run(choices=["red", "ivy"], backend=backend, use_thread=False)


def test_a_refused_key_names_the_variable_and_never_the_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)

    def refuse(request: Request) -> Reply:
        return Reply(401, {"error": {"message": f"Invalid API Key {request.headers.get('Authorization')}"}})

    with FakeHttpServer(refuse) as server, pytest.raises(LlmError) as caught:
        open_backend(f"llama-server:{server.url}", policy=NO_RETRY)
    message = str(caught.value)
    assert "the API key was refused" in message and "set OPENAI_API_KEY" in message and KEY not in message
