"""Is a backend usable before a long job relies on it? `mcagent eval` asks once per backend, so
that a typo or a server that is down stops it before any episode starts."""

from __future__ import annotations


from agent.errors import ConfigError
from agent.llm.base import LlmError
from agent.llm.backend_spec import open_backend, parse_spec
from agent.llm.http import HttpError, HttpPolicy, get_json

# A server that has not answered by then is taken for down; it is asked once.
PROBE_TIMEOUT_S = 5.0
PROBE_POLICY = HttpPolicy(timeout_s=PROBE_TIMEOUT_S, retries=0)
# What each kind of server answers without running the model.
PROBE_PATHS = {"sglang": "/get_model_info", "llama-server": "/health", "openai": "/models"}


def probe_backend(text: str) -> None:
    """Raises ConfigError (one line) for a bad spec, a missing file or model, or a server that
    does not answer; local backends are opened once, which loads their file."""
    spec = parse_spec(text)
    if spec.kind not in PROBE_PATHS:
        try:
            open_backend(text)
        except LlmError as e:
            raise ConfigError(f"llm: {text}: {e}") from None
        return
    url = spec.target.rstrip("/") + PROBE_PATHS[spec.kind]
    try:
        get_json(url, policy=PROBE_POLICY)
    except HttpError as e:
        if e.status == 0:  # no answer at all: refused, unknown host, timed out
            reason = str(e).removeprefix(f"{url}: the server ")
            raise ConfigError(f"llm: {text}: the server does not answer at {url} ({reason})") from None
        # it answered: reachable, whatever it thought of the path or of a reply that is not JSON
