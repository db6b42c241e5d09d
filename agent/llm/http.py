"""JSON over HTTP to a model server: a timeout on every request, bounded retries with backoff
on 429, 5xx and a dropped connection, and failures as one-line LlmErrors that carry the
server's own message. A timeout is not tried again: a server too slow once is as slow the
second time, and the run should not wait (retries + 1) times the timeout to hear it.

The timeout is the request's whole time, connect to last byte: a timer cuts the connection at
the deadline. (A socket timeout bounds each wait for a byte only, so a server trickling a
byte a second could hold a run for ever.) Requests go straight to the server: no proxy.

The API key travels in the Authorization header only. Error text is scrubbed of it, since
some servers quote the key they refused, so it never reaches a trace, a report or a log.
"""

from __future__ import annotations

import http.client
import json
import math
import socket
import threading
import time
import urllib.parse
from email.message import Message
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agent.llm.base import LlmError

# Statuses worth another try: rate limits and a server that is overloaded or restarting.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# No wait between tries is longer than this, whatever Retry-After or the doubling says: the
# run would look hung.
MAX_WAIT_S = 10.0
# How much of an error body a message quotes.
MESSAGE_CHARS = 240


class HttpPolicy(BaseModel):
    """How long one request may take, and how often a failed one is tried again."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    timeout_s: float = Field(120.0, gt=0, description="per request, in all: connect, prefill, decode and reading the reply")
    retries: int = Field(3, ge=0, le=10, description="further tries after a retryable failure")
    backoff_s: float = Field(0.5, ge=0, description="the first wait; it doubles after each try")


class HttpError(LlmError):
    """The server answered with an error status; `status` is it (0: no answer at all)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def post_json(url: str, body: dict[str, Any], *, api_key: str = "", policy: HttpPolicy = HttpPolicy()) -> Any:
    return _request(url, json.dumps(body).encode("utf-8"), api_key, policy)


def get_json(url: str, *, api_key: str = "", policy: HttpPolicy = HttpPolicy()) -> Any:
    return _request(url, None, api_key, policy)


def _request(url: str, data: bytes | None, api_key: str, policy: HttpPolicy) -> Any:
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    wait = policy.backoff_s
    for attempt in range(policy.retries + 1):
        retry_after = None
        try:
            status, reason, reply_headers, raw = _exchange(url, data, headers, policy.timeout_s)
        except (ValueError, http.client.InvalidURL) as e:  # not a URL we can open, or a header it refuses
            raise HttpError(_scrub(f"{url}: the request cannot be sent ({type(e).__name__}: {e})", api_key), 0) from None
        except TimeoutError:
            raise HttpError(f"{url}: the server did not answer within {policy.timeout_s:g} s", 0) from None
        except (http.client.HTTPException, OSError) as e:
            what = "dropped the request" if isinstance(e, http.client.HTTPException) else "cannot be reached"
            error = HttpError(_scrub(f"{url}: the server {what} ({str(e) or type(e).__name__})", api_key), 0)
        else:
            if status < 400:
                return _parse(url, raw)
            message = f"{url}: HTTP {status} {reason}: {_server_message(raw)}"
            error, retry_after = HttpError(_scrub(message, api_key), status), _retry_after(reply_headers)
        if error.status and error.status not in RETRY_STATUSES or attempt == policy.retries:
            raise error
        time.sleep(min(retry_after if retry_after is not None else wait, MAX_WAIT_S))
        wait *= 2
    raise AssertionError("unreachable")  # the loop returns or raises


def _exchange(url: str, data: bytes | None, headers: dict[str, str],
              timeout_s: float) -> tuple[int, str, Message, bytes]:
    """One request: the reply's status, reason, headers and body, all within `timeout_s`
    (TimeoutError past it)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http:// or https:// URL: {url!r}")
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, parts.port, timeout=timeout_s)
    expired = threading.Event()

    def cut() -> None:  # wakes a read blocked on the socket: it sees the connection end
        expired.set()
        if connection.sock is not None:
            connection.sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(timeout_s, cut)
    timer.daemon = True
    timer.start()
    try:
        path = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
        connection.request("POST" if data is not None else "GET", path, body=data, headers=headers)
        reply = connection.getresponse()
        return reply.status, reply.reason, reply.headers, reply.read()
    except (http.client.HTTPException, OSError):
        if expired.is_set():
            raise TimeoutError from None
        raise
    finally:
        timer.cancel()
        connection.close()


def explained(e: HttpError, name: str, api_key: str, key_variable: str) -> HttpError:
    """`e` with the backend's `name` in front, and for a refused key what to do about it (the
    variable named, never the key)."""
    if e.status in (401, 403):
        given = "the API key was refused" if api_key else "it wants an API key and none was given"
        return HttpError(f"{name}: {given} ({e}); set {key_variable}, or name the variable that "
                         "holds the key with llm_api_key_env", e.status)
    return HttpError(f"{name}: {e}", e.status)


def _parse(url: str, raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        raise HttpError(f"{url}: the server answered something that is not JSON: {_one_line(raw)!r}", 200) from None


def _server_message(raw: bytes) -> str:
    """The message in an error body: OpenAI's {"error": {"message"}}, FastAPI's {"detail"}, or the text."""
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _one_line(raw) or "(no message)"
    if isinstance(body, dict):
        error = body.get("error")
        found = error.get("message") if isinstance(error, dict) else error or body.get("detail") or body.get("message")
        if found:
            return _one_line(found if isinstance(found, str) else json.dumps(found))
    return _one_line(json.dumps(body))


def _retry_after(headers: Message) -> float | None:
    """Retry-After in seconds, when it is a number of them (not negative, not NaN); else None."""
    try:
        seconds = float(headers.get("Retry-After", ""))
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _one_line(text: str | bytes) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    flat = " ".join(text.split())
    return flat[:MESSAGE_CHARS] + ("…" if len(flat) > MESSAGE_CHARS else "")


def _scrub(message: str, api_key: str) -> str:
    return message.replace(api_key, "***") if api_key else message
