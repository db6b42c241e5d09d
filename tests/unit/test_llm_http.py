"""agent/llm/http.py against a local stdlib server (tests/support/http_server.py) that fails on
purpose: retries and Retry-After, errors as one line with the server's message, the API key
kept out of messages, timeouts, and a port nobody listens on."""

from __future__ import annotations

import time

import pytest

from agent.llm import http
from agent.llm.base import LlmError
from agent.llm.http import HttpError, HttpPolicy, get_json, post_json
from support.http_server import DROP, HANG, TRICKLE, FakeHttpServer, Reply, closed_port_url

FAST = HttpPolicy(timeout_s=2.0, retries=3, backoff_s=0.001)
KEY = "sk-test-0123456789abcdef"


def replies(*scripted):
    """Answers in order; the last one again for every request after."""
    queue = list(scripted)
    return lambda request: queue.pop(0) if len(queue) > 1 else queue[0]


def test_a_json_body_is_posted_and_the_json_reply_returned_with_the_key_as_a_bearer_token():
    with FakeHttpServer(replies(Reply(200, {"text": "ok"}))) as server:
        assert post_json(server.url + "/generate", {"text": "hi"}, api_key=KEY, policy=FAST) == {"text": "ok"}
    [request] = server.requests
    assert (request.method, request.path, request.json) == ("POST", "/generate", {"text": "hi"})
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Authorization"] == f"Bearer {KEY}"


def test_get_sends_no_body_and_no_authorization_without_a_key():
    with FakeHttpServer(replies(Reply(200, {"model_path": "m"}))) as server:
        assert get_json(server.url + "/get_model_info", policy=FAST) == {"model_path": "m"}
    [request] = server.requests
    assert (request.method, request.body) == ("GET", b"") and "Authorization" not in request.headers


def test_429_then_200_is_retried_after_the_servers_retry_after():
    busy = Reply(429, {"error": {"message": "slow down"}}, headers={"Retry-After": "0.3"})
    with FakeHttpServer(replies(busy, Reply(200, {"ok": 1}))) as server:
        started = time.perf_counter()
        assert post_json(server.url + "/generate", {}, policy=FAST) == {"ok": 1}
        waited = time.perf_counter() - started
    assert len(server.requests) == 2
    assert 0.3 <= waited < 2.0  # Retry-After, not the 1 ms backoff


def test_a_dropped_connection_is_retried():
    with FakeHttpServer(replies(DROP, Reply(200, {"ok": 1}))) as server:
        assert post_json(server.url + "/generate", {}, policy=FAST) == {"ok": 1}
    assert len(server.requests) == 2


def test_500_on_every_try_is_one_http_error_after_retries_plus_one_attempts():
    policy = HttpPolicy(timeout_s=2.0, retries=2, backoff_s=0.001)
    with FakeHttpServer(replies(Reply(500, {"error": {"message": "CUDA out of memory\nat layer 3"}}))) as server:
        with pytest.raises(HttpError) as caught:
            post_json(server.url + "/generate", {}, policy=policy)
    assert len(server.requests) == policy.retries + 1
    error = caught.value
    assert isinstance(error, LlmError) and error.status == 500
    message = str(error)
    assert "\n" not in message
    assert message == f"{server.url}/generate: HTTP 500 Internal Server Error: CUDA out of memory at layer 3"


@pytest.mark.parametrize(("body", "said"), [
    ({"detail": "Not authenticated"}, "Not authenticated"),  # FastAPI
    ({"message": "no"}, "no"),
    ("plain text\nover lines", "plain text over lines"),
    (b"", "(no message)"),
])
def test_the_servers_message_is_read_from_the_usual_error_shapes(body, said):
    with FakeHttpServer(replies(Reply(400, body))) as server:
        with pytest.raises(HttpError, match="HTTP 400") as caught:
            get_json(server.url + "/x", policy=FAST)
    assert str(caught.value).endswith(said) and len(server.requests) == 1


def test_401_is_not_retried_and_its_message_does_not_carry_the_key_the_server_echoed():
    echo = Reply(401, {"error": {"message": f"Incorrect API key provided: {KEY}. You can find yours online."}})
    with FakeHttpServer(replies(echo)) as server:
        with pytest.raises(HttpError) as caught:
            post_json(server.url + "/generate", {"text": "hi"}, api_key=KEY, policy=FAST)
    assert len(server.requests) == 1
    assert caught.value.status == 401
    message = str(caught.value)
    assert KEY not in message and "Incorrect API key provided: ***." in message and "HTTP 401" in message


# A server that never answers, and one that trickles its body a byte each 0.1 s: a timeout that
# bounded each wait for a byte, not the whole request, would wait for all 1,000,000 of them.
@pytest.mark.parametrize("stall", [HANG, TRICKLE])
def test_the_timeout_bounds_the_whole_request_whatever_the_server_sends(stall):
    policy = HttpPolicy(timeout_s=0.3, retries=2)
    with FakeHttpServer(replies(stall)) as server:
        started = time.perf_counter()
        with pytest.raises(HttpError, match=r"the server did not answer within 0\.3 s") as caught:
            post_json(server.url + "/completion", {}, policy=policy)
        elapsed = time.perf_counter() - started
        sent = server.requests_after()
    assert caught.value.status == 0 and 0.3 <= elapsed < 1.5 and len(sent) == 1


def test_a_timeout_is_not_tried_again_so_a_slow_server_costs_one_timeout():
    policy = HttpPolicy(timeout_s=0.2, retries=3, backoff_s=0.001)
    with FakeHttpServer(replies(HANG)) as server:
        started = time.perf_counter()
        with pytest.raises(HttpError, match="did not answer"):
            get_json(server.url + "/get_model_info", policy=policy)
        elapsed = time.perf_counter() - started
        sent = server.requests_after()
    assert len(sent) == 1 and elapsed < 1.0


def test_a_closed_port_cannot_be_reached():
    url = closed_port_url()
    with pytest.raises(HttpError, match=r"the server cannot be reached \(.*refused") as caught:
        get_json(url + "/get_model_info", policy=HttpPolicy(timeout_s=1.0, retries=1, backoff_s=0.001))
    assert caught.value.status == 0 and str(caught.value).startswith(url)


def test_a_reply_that_is_not_json_is_an_error_that_quotes_it():
    with FakeHttpServer(replies(Reply(200, "<html>hello</html>"))) as server:
        with pytest.raises(HttpError, match="not JSON: '<html>hello</html>'"):
            get_json(server.url + "/", policy=FAST)


@pytest.mark.parametrize("retry_after", ["-5", "nan", "soon"])
def test_a_retry_after_that_is_not_a_number_of_seconds_falls_back_to_the_backoff(retry_after):
    busy = Reply(429, {"error": {"message": "slow down"}}, headers={"Retry-After": retry_after})
    with FakeHttpServer(replies(busy, Reply(200, {"ok": True}))) as server:
        assert get_json(server.url + "/x", policy=FAST) == {"ok": True}


def test_no_wait_between_tries_is_longer_than_the_cap(monkeypatch):
    monkeypatch.setattr(http, "MAX_WAIT_S", 0.05)
    busy = Reply(503, "busy", headers={"Retry-After": "999"})
    with FakeHttpServer(replies(busy, busy, Reply(200, {"ok": True}))) as server:
        started = time.perf_counter()
        assert get_json(server.url + "/x", policy=HttpPolicy(retries=3, backoff_s=100)) == {"ok": True}
    assert time.perf_counter() - started < 1.0
