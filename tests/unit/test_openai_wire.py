"""The `openai:` backend's requests and how it reads servers, against small local fakes of two
kinds of server: a llama.cpp-like one (completions, GBNF `grammar`) and a hosted-like chat-only
one (no /completions, `response_format` JSON schema, refuses unknown fields, wants a key).
tests/integration/test_openai_server.py runs the same backend against a real llama.cpp server."""

from __future__ import annotations

import json

import pytest
import sglang as sgl

from agent.errors import ConfigError
from agent.llm import LlmError, open_backend
from agent.llm.base import chat_messages
from agent.llm.http import HttpPolicy
from agent.llm.backend_spec import api_key
from agent.trace.schema import RunEnd
from support.http_server import FakeHttpServer, Reply, Request
from support.planning import rig

NO_RETRY = HttpPolicy(retries=0, timeout_s=5)
KEY = "sk-test-0123456789"


def completion(text: str, prompt_tokens: int = 10, cached: int | None = None) -> Reply:
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": 2, "total_tokens": prompt_tokens + 2}
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return Reply(200, {"choices": [{"text": text, "index": 0}], "usage": usage})


def chat(content: str) -> Reply:
    return Reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 20, "completion_tokens": 3}})


def llama_like(replies: list[Reply], likes: dict[str, float] | None = None, shape: str = "token_logprobs"):
    """Answers /models and the probes as llama.cpp's server would, a choice forced by a grammar
    with the log-probability `likes` gives it (per token, two tokens each), then `replies` in order."""
    queue = list(replies)

    def answer(request: Request) -> Reply:
        if request.path.endswith("/models"):
            return Reply(200, {"data": [{"id": "m", "object": "model"}]})
        body = request.json
        if body.get("grammar") == 'root ::= "zq7"':
            return completion("zq7")
        if body.get("max_tokens") == 1 and body.get("prompt") == "Hello":
            return completion(",")
        if body.get("logprobs"):
            choice = json.loads(body["grammar"].removeprefix("root ::= "))
            reply = completion(choice, cached=8)
            scores = [(likes or {}).get(choice, -5.0)] * 2
            reply.body["choices"][0]["logprobs"] = {
                "token_logprobs": {"token_logprobs": scores},
                "content": {"content": [{"token": "t", "logprob": s} for s in scores]},  # llama.cpp's llama-server
                "none": None,
            }[shape]
            return reply
        return queue.pop(0)

    return answer


def hosted_like(replies: list[Reply]):
    """A chat-only API: 404 on /completions, 400 on fields it does not know, a key required."""
    queue = list(replies)

    def answer(request: Request) -> Reply:
        if request.headers.get("Authorization") != f"Bearer {KEY}":
            return Reply(401, {"error": {"message": f"Incorrect API key provided: {request.headers.get('Authorization')}"}})
        if request.path.endswith("/models"):
            return Reply(200, {"data": [{"id": "m", "context_window": 128000}]})
        if request.path.endswith("/completions") and "/chat/" not in request.path:
            return Reply(404, {"error": {"message": "This is a chat model and not supported in v1/completions"}})
        body = request.json
        if "grammar" in body:
            return Reply(400, {"error": {"message": "Unrecognized request argument supplied: grammar"}})
        if body["messages"][-1]["content"] == "Write one word.":
            return chat('{"word": "zq7"}')
        return queue.pop(0)

    return answer


@sgl.function
def _labelled(s):
    s += sgl.system("sys")
    s += sgl.user("pick")
    s += sgl.assistant_begin()
    s += "COLOUR: " + sgl.select("colour", choices=["red", "blue"])
    s += "\nN: " + sgl.gen("n", regex="[0-9]{2}", max_tokens=4)
    s += sgl.assistant_end()


def test_a_llama_cpp_server_is_used_in_completion_mode_with_its_grammar_for_every_constraint():
    with FakeHttpServer(llama_like([completion("42", 46, cached=40)], likes={"blue": -0.5})) as server:
        backend = open_backend(f"openai:{server.url}/v1#m", policy=NO_RETRY)
        assert (backend.traits.mode, backend.traits.constraint) == ("completion", "grammar")
        assert backend.capabilities.select and backend.capabilities.json_schema and backend.capabilities.regex
        assert backend.chat_template.name == "chatml"  # the model's name says nothing: the common template
        state = _labelled.run(backend=backend, use_thread=False)
        red, blue, gen = [r.json for r in server.requests[-3:]]
    assert (state["colour"], state["n"]) == ("blue", "42")
    # select scores each choice by the log-probabilities of its tokens, forced one at a time
    assert (red["grammar"], blue["grammar"]) == ('root ::= "red"\n', 'root ::= "blue"\n')
    assert red["logprobs"] == 1 and red["prompt"] == blue["prompt"] and red["prompt"].endswith("COLOUR: ")
    assert "[0-9]" in gen["grammar"] and gen["prompt"].endswith("blue\nN: ")
    # Counted as in-process: the select's prompt prefilled once (10 - 8 cached), the rest scored:
    # two tokens per choice, and what the second request computed again of the prompt.
    assert backend.usage.scored_tokens == 2 + 2 + (10 - 8)
    assert backend.usage.prefilled_tokens == (10 - 8) + (46 - 40)


def test_a_chat_only_api_is_used_whole_turn_with_response_format_and_the_key_in_a_header(monkeypatch):
    monkeypatch.setenv("MY_KEY", KEY)
    with FakeHttpServer(hosted_like([chat('{"colour": "red"}')])) as server:
        backend = open_backend(f"openai:{server.url}/v1#m", api_key_env="MY_KEY", policy=NO_RETRY)
        assert (backend.traits.mode, backend.traits.constraint) == ("chat", "json_schema")
        assert backend.capabilities.whole_turns and not backend.capabilities.regex
        assert backend.model_info().context_tokens == 128000

        @sgl.function
        def whole(s):
            s += sgl.system("sys")
            s += sgl.user("pick")
            s += sgl.assistant(sgl.gen("c", json_schema='{"type": "object"}', max_tokens=20))

        state = whole.run(backend=backend, use_thread=False)
        sent = server.requests[-1].json
    assert state["c"] == '{"colour": "red"}'
    assert sent["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": "pick"}]
    assert sent["response_format"]["json_schema"]["schema"] == {"type": "object"}
    assert KEY not in backend.name


def test_a_refused_key_is_one_line_that_names_the_variable_and_never_the_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-999")
    with FakeHttpServer(hosted_like([])) as server:
        with pytest.raises(LlmError) as caught:
            open_backend(f"openai:{server.url}/v1#m", policy=NO_RETRY)
    message = str(caught.value)
    assert "the API key was refused" in message and "HTTP 401" in message and "OPENAI_API_KEY" in message
    assert "sk-wrong-999" not in message and "\n" not in message


def test_a_model_the_server_does_not_serve_is_named_at_open():
    with FakeHttpServer(llama_like([])) as server:
        with pytest.raises(LlmError, match="the server does not serve 'gpt-x'; it serves m"):
            open_backend(f"openai:{server.url}/v1#gpt-x", policy=NO_RETRY)


def test_the_spec_can_say_mode_and_constraint_so_nothing_is_probed():
    with FakeHttpServer(llama_like([])) as server:
        backend = open_backend(f"openai:{server.url}/v1?mode=chat&constraint=none#m", policy=NO_RETRY)
        assert server.paths() == ["/v1/models"]
    assert backend.capabilities.whole_turns and not backend.capabilities.select


def test_a_server_that_fails_mid_run_ends_it_as_llm_error_with_its_message_and_run_end_written(tmp_path):
    down = Reply(503, {"error": {"message": "model unloaded"}})
    with FakeHttpServer(llama_like([down])) as server:
        backend = open_backend(f"openai:{server.url}/v1?constraint=none#m", policy=NO_RETRY)
        r = rig(None, backend=backend, trace=tmp_path / "trace.jsonl")
        result = r.run()
    assert result.outcome == "llm_error" and result.exit_code == 1
    assert "HTTP 503" in result.reason and "model unloaded" in result.reason
    [end] = [e for e in r.trace.events if isinstance(e, RunEnd)]
    assert end.outcome == "llm_error"
    written = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text().splitlines()]
    assert written[-1]["event"] == "run_end"


@pytest.mark.parametrize("shape", ["content", "none"])
def test_select_reads_llama_servers_logprobs_and_without_any_decodes_under_the_choices_grammar(shape):
    fallback = completion("red")
    with FakeHttpServer(llama_like([fallback, completion("42")], likes={"red": -0.1}, shape=shape)) as server:
        backend = open_backend(f"openai:{server.url}/v1#m", policy=NO_RETRY)
        state = _labelled.run(backend=backend, use_thread=False)
        last = server.requests[-2].json
    assert state["colour"] == "red"
    if shape == "none":  # no scores came: one more request, held to either choice
        assert last["grammar"] == 'root ::= "red" | "blue"\n' and "logprobs" not in last


def test_chat_messages_join_neighbours_of_one_role_for_strict_templates():
    class State:
        cur_role = "assistant"
        cur_role_begin_pos = 3
        text_ = "..."
        messages_ = [{"role": "system", "content": "s"}, {"role": "user", "content": "a"},
                     {"role": "user", "content": "b"}, {"role": "assistant", "content": "c"}]

    assert chat_messages(State(), "x") == [{"role": "system", "content": "s"}, {"role": "user", "content": "a\n\nb"},
                                           {"role": "assistant", "content": "c"}]


def test_a_key_with_a_line_end_is_stripped_and_one_with_a_control_character_refused(monkeypatch):
    monkeypatch.setenv("K", KEY + "\r\n")
    assert api_key("K") == KEY
    monkeypatch.setenv("K", "sk-a\x07b")
    with pytest.raises(ConfigError, match=r"\$K holds a control character") as caught:
        api_key("K")
    assert "sk-a" not in str(caught.value)


def test_a_refused_key_names_the_configured_variable(monkeypatch):
    monkeypatch.setenv("TEAM_KEY", "sk-wrong-1")
    with FakeHttpServer(hosted_like([])) as server:
        with pytest.raises(LlmError, match="set TEAM_KEY, or name the variable"):
            open_backend(f"openai:{server.url}/v1#m", api_key_env="TEAM_KEY", policy=NO_RETRY)
