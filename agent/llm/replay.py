"""`replay:TRACE`: serves the LLM replies a trace recorded, in order, for model-free
reproduction of a run while debugging tools.

Each call gets the reply recorded at its position. The run must ask for the same kind of
call (gen or select, and for select a choice list holding the recorded reply) as the
recording did, or the backend stops it with LlmError: past that point it is no longer the
recorded run. A prompt whose text differs from the recorded one is tolerated (tool results
carry positions and timings that a new run does not repeat to the digit) and counted in
`diverged`. Asking for more calls than were recorded is an LlmError too.
"""

from __future__ import annotations

from pathlib import Path

from agent.errors import ConfigError
from agent.llm.base import LlmError, prompt_hash
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.trace import TraceError, read_trace
from agent.trace.reader import bad_lines_warning
from agent.trace.schema import LlmCall


class ReplayBackend(ScriptedBackend):
    def __init__(self, path: Path):
        try:
            trace = read_trace(path)
        except TraceError as e:
            raise ConfigError(f"replay: {e}") from None
        if trace.start is None:
            raise ConfigError(f"replay: {path} has no run_start: not a planner trace")
        if trace.bad_lines:  # a missing llm_call would shift every later reply
            raise ConfigError(f"replay: {bad_lines_warning(path, trace.bad_lines)}; only a whole trace can be replayed")
        self.recorded = [e for e in trace.events if isinstance(e, LlmCall)]
        self.diverged: list[int] = []  # indexes of calls whose prompt differed from the recording
        # The planner's control flow follows the capabilities, so they must be the recorded ones.
        recorded = trace.start.capabilities
        super().__init__(self._serve, constrained=recorded.select, whole_turns=recorded.whole_turns,
                         name=f"replay:{path}")

    def _serve(self, call: ScriptedCall) -> str:
        if call.index >= len(self.recorded):
            raise LlmError(f"{self.name}: the run asks for LLM call {call.index + 1}, "
                           f"but the trace recorded only {len(self.recorded)}")
        recorded = self.recorded[call.index]
        if recorded.kind != call.kind:
            raise LlmError(f"{self.name}: LLM call {call.index + 1} is a {call.kind} in this run but a "
                           f"{recorded.kind} in the recording: the run has left the recorded path")
        if call.choices is not None and recorded.completion not in call.choices:
            raise LlmError(f"{self.name}: LLM call {call.index + 1} chooses among {call.choices}, which lacks the "
                           f"recorded {recorded.completion!r}: the run has left the recorded path")
        if prompt_hash(call.prompt) != recorded.prompt_sha256:
            self.diverged.append(call.index)
        return recorded.completion
