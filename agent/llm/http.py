"""JSON over HTTP to a model server: a timeout on every request, bounded retries with backoff
on 429, 5xx and a dropped connection, and failures as one-line LlmErrors that carry the
server's own message. A timeout is not tried again: a server too slow once is as slow the
second time, and the run should not wait (retries + 1) times the timeout to hear it.

The API key travels in the Authorization header only. Error text is scrubbed of it, since
some servers quote the key they refused, so it never reaches a trace, a report or a log.
"""

from __future__ import annotations

import http.client
import json
import math
import time
import urllib.error
import urllib.request
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
    timeout_s: float = Field(120.0, gt=0, description="per request: connect, prefill and decode")
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
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=policy.timeout_s) as reply:
                return _parse(url, reply.read())
        except urllib.error.HTTPError as e:
            error = HttpError(_scrub(f"{url}: HTTP {e.code} {e.reason}: {_server_message(e)}", api_key), e.code)
            retry_after = _retry_after(e)
        except (ValueError, http.client.InvalidURL) as e:  # not a URL urllib can open, or a header it refuses
            raise HttpError(_scrub(f"{url}: the request cannot be sent ({type(e).__name__}: {e})", api_key), 0) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as e:
            reason = getattr(e, "reason", e)
            if isinstance(reason, TimeoutError):
                raise HttpError(f"{url}: the server did not answer within {policy.timeout_s:g} s", 0) from None
            what = "dropped the request" if isinstance(e, http.client.HTTPException) else "cannot be reached"
            error, retry_after = HttpError(_scrub(f"{url}: the server {what} ({reason})", api_key), 0), None
        if error.status and error.status not in RETRY_STATUSES or attempt == policy.retries:
            raise error
        time.sleep(min(retry_after if retry_after is not None else wait, MAX_WAIT_S))
        wait *= 2
    raise AssertionError("unreachable")  # the loop returns or raises


def _parse(url: str, raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        raise HttpError(f"{url}: the server answered something that is not JSON: {_one_line(raw)!r}", 200) from None


def _server_message(e: urllib.error.HTTPError) -> str:
    """The message in an error body: OpenAI's {"error": {"message"}}, FastAPI's {"detail"}, or the text."""
    raw = e.read()
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


def _retry_after(e: urllib.error.HTTPError) -> float | None:
    """Retry-After in seconds, when it is a number of them (not negative, not NaN); else None."""
    try:
        seconds = float(e.headers.get("Retry-After", ""))
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
