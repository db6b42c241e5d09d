"""What the executor checks of a call's slots before running it, as the register-tool seed says:

- a required argument with no value does not call the tool: failed, code needs_input, with the
  slot's prompt as the reason (a schema_hint tool: its description), so the planner can fill it;
- a value for a `verified: false` slot must be confirmed first: it appears in what the world
  showed this session (an earlier result) or in what the user said (the goal, a command line);
  otherwise failed, code needs_input, saying how to confirm it. The model cannot vouch for it.
"""

from __future__ import annotations

import json
import re
from collections import deque
from typing import Any

from agent.tools.result import ToolResult
from agent.tools.spec import ToolSpec

# Results kept as evidence, newest first: a session's worth of observations (about 1 KB each
# as JSON), each clipped so that a large map cannot crowd the memory: 200 x 16 KB at most.
EVIDENCE_KEPT = 200
EVIDENCE_CHARS = 16_000


def missing_input(spec: ToolSpec, args: dict[str, Any]) -> str | None:
    """What to ask for when a required argument is missing, else None."""
    schema = spec.schema_hint
    missing = next((name for name in schema.required if name not in args), None) if schema else None
    if missing is None:
        return None
    slot = next((s for s in spec.slots or [] if s.name == missing), None)
    if slot is not None and slot.prompt:
        return slot.prompt
    about = schema.properties[missing].description
    return f"{spec.name} needs a value for '{missing}'" + (f": {about}" if about else "")


class Evidence:
    """The texts that may confirm a value: the user's words and the world's results, newest kept."""

    def __init__(self) -> None:
        self._texts: deque[str] = deque(maxlen=EVIDENCE_KEPT)

    def said(self, text: str) -> None:
        """The user's words (a goal, a command line's arguments), or anything else to count as confirmed."""
        self._texts.append(text.casefold())

    def saw(self, result: ToolResult) -> None:
        """A result's data: what the world (or a tool reading it) showed."""
        if result.ok and result.data is not None:
            self._texts.append(json.dumps(result.data, ensure_ascii=False, default=str)[:EVIDENCE_CHARS].casefold())

    def unconfirmed(self, spec: ToolSpec, args: dict[str, Any]) -> str | None:
        """Why the call may not run yet: a `verified: false` slot's value nobody has confirmed; else None."""
        for slot in spec.slots or []:
            if not slot.verified and slot.name in args and not self._confirms(args[slot.name]):
                return (f"{spec.name}: {slot.name}={json.dumps(args[slot.name])} is not confirmed; use a value "
                        f"an earlier result showed or the goal names" + (f" ({slot.prompt})" if slot.prompt else ""))
        return None

    def _confirms(self, value: Any) -> bool:
        if isinstance(value, dict):
            return all(self._confirms(v) for v in value.values())
        if isinstance(value, list):
            return all(self._confirms(v) for v in value)
        word = re.compile(rf"(?<![\w.-]){re.escape(_as_text(value))}(?![\w-]|\.\d)")
        return any(word.search(text) for text in self._texts)


def _as_text(value: Any) -> str:
    """How the value is written in JSON or prose: 3.0 as 3, true as true, text as itself."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value.casefold() if isinstance(value, str) else json.dumps(value)
