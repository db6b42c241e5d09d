"""Where `mcagent llm check` keeps what it measured, so that a run can find it: one JSON record
per backend identity, in the user's cache (agent/paths.py user_cache: ~/.cache/mcagent/llm-check/).

A backend's identity is what it was opened as (its name: the spec made absolute, as
`llamacpp:/…/SmolLM2-135M-Instruct.Q4_1.gguf`), the model it says it serves, and whether it
answers whole chat turns. A llama-server's slot is left out: the slots serve one model, and an
eval gives each worker its own. A record names the set it was measured on by digest; the reader
of a record compares that with the set it has now (a changed set is an unmeasured one).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.diagnostics.measured import SetScore
from agent.errors import ConfigError
from agent.llm.base import Metered
from agent.paths import user_cache

RECORDS = "llm-check"
# A slot in a llama-server spec's query (`?slot=1`, `&slot=1`): not part of the identity.
_SLOT = re.compile(r"([?&])slot=\d+(&?)")


class BackendIdentity(BaseModel):
    """What a measurement is of."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    backend: str = Field(description="the backend's name (its spec, made absolute), its slot left out")
    model: str = Field(description="the model the backend says it serves; empty when it does not say")
    turns: Literal["text completion", "whole chat turns"]

    def key(self) -> str:
        """The record's file name: the backend's kind, and a digest of the whole identity."""
        digest = hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]
        return f"{self.backend.split(':', 1)[0]}-{digest}"


class Measurements(BaseModel):
    """A backend's record: each named set's latest score on it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    identity: BackendIdentity
    spec: str = Field(description="the spec last checked, as written")
    sets: dict[str, SetScore] = Field(default_factory=dict)


def identity_of(backend: Metered) -> BackendIdentity:
    try:
        model = backend.model_info().model
    except Exception:  # for the reader: a backend that cannot say its model is still one backend
        model = ""
    name = _SLOT.sub(lambda m: m[1] if m[2] else "", backend.name)
    turns = "whole chat turns" if backend.capabilities.whole_turns else "text completion"
    return BackendIdentity(backend=name, model=model, turns=turns)


def record_path(identity: BackendIdentity) -> Path:
    return user_cache() / RECORDS / f"{identity.key()}.json"


def recorded(identity: BackendIdentity) -> Measurements | None:
    """The backend's record; None when there is none. A damaged record is a ConfigError naming
    the file: it is not silently taken for "not measured"."""
    path = record_path(identity)
    if not path.is_file():
        return None
    try:
        found = Measurements.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as e:
        raise ConfigError(f"{path}: not a measurement record ({_first_problem(e)}); "
                          "run mcagent llm check again to write it anew") from None
    return found if found.identity == identity else None


def record(identity: BackendIdentity, spec: str, score: SetScore) -> Path:
    """Keeps `score` as the backend's latest on its set (the other sets' stay); written whole, then
    renamed, so a run reading it meanwhile sees the old record or the new one."""
    path = record_path(identity)
    try:
        earlier = recorded(identity)
    except ConfigError:
        earlier = None  # a damaged record is replaced
    sets = {**(earlier.sets if earlier else {}), score.set: score}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(Measurements(identity=identity, spec=spec, sets=sets).model_dump_json(indent=2) + "\n",
                       encoding="utf-8")
    partial.replace(path)
    return path


def todays_score(backend: Metered, name: str, what: str, digest: Callable[[], str], where: Path,
                 unreadable: tuple[type[Exception], ...] = (OSError,)) -> tuple[SetScore | None, str]:
    """The backend's recorded score on the set `name` (`what` in words: "reading set") as it is
    today (`digest` of the file at `where`, which may raise `unreadable`), or None and why not, in
    words that follow "not measured": "(its record is damaged)", "" (never), "(no reading set at
    …)", "on today's reading set" (measured on another)."""
    try:
        found = recorded(identity_of(backend))
    except ConfigError:  # a damaged record is no measurement; `mcagent llm check` says more
        return None, "(its record is damaged)"
    score = None if found is None else found.sets.get(name)
    if score is None:
        return None, ""
    try:
        today = digest()
    except unreadable:  # no set to compare with: nothing vouches for the record
        return None, f"(no {what} at {where})"
    if score.set_sha256 != today:
        return None, f"on today's {what}"
    return score, ""


def _first_problem(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the record"
        return f"{where}: {first['msg']}"
    return " ".join(str(error).split())[:120]

