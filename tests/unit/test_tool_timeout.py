"""Python tools are bounded: past `timeout_s` (Skill.md, else the executor's default) the call
fails with code `timeout`, the next call works, the abandoned tool cannot act any more (nor a
tool nested in it), the trace stays paired, and the run's own exceptions still go through."""

from __future__ import annotations

import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from agent.infospace import Infospace
from agent.planner.control import LlmFailed, StopRequested
from agent.tools import ActionRecord, Executor, ToolResult, ToolSource, load_toolbox, standard_sources
from agent.tools.loader import CORE_TOOLS_DIR
from support.tool_folders import python_tool

# Each test tool: its extra frontmatter and its tool.py. Tools that go on after their timeout
# keep what they got in SEEN, for the test to read.
TOOLS = {
    "sleepy": ("timeout_s: 0.3", "import time\n\ndef tool(input_value=None, **kwargs):\n    time.sleep(3)\n"),
    "quick": ("", "def tool(input_value=None, **kwargs):\n    return 'done'\n"),
    "slow": ("", "import time\n\ndef tool(input_value=None, **kwargs):\n    time.sleep(3)\n"),
    "brief": ("timeout_s: 0.1", "import time\n\ndef tool(input_value=None, **kwargs):\n    time.sleep(0.2)\n"),
    "thinker": ("timeout_s: 5", """
        def tool(input_value=None, **kwargs):
            return kwargs["executor"].execute_action({"type": "think", "thought": "fine"}).reason or "acted"
        """),
    "driver": ("timeout_s: 0.3", """
        import time
        SEEN = []

        def tool(input_value=None, **kwargs):
            for _ in range(20):
                SEEN.append(kwargs["executor"].execute_action({"type": "think", "thought": "again"}))
                time.sleep(0.05)
        """),
    "outer": ("timeout_s: 0.3", """
        def tool(input_value=None, **kwargs):
            return kwargs["executor"].execute_action({"type": "driver-long"})
        """),
    "driver-long": ("timeout_s: 5", """
        import time
        SEEN = []

        def tool(input_value=None, **kwargs):
            for _ in range(12):
                SEEN.append(kwargs["executor"].execute_action({"type": "think", "thought": "inner"}))
                time.sleep(0.05)
        """),
    "talker": ("timeout_s: 0.2", """
        import time
        SEEN = []

        def tool(input_value=None, **kwargs):
            executor = kwargs["executor"]
            SEEN.append(executor.cancelled)
            time.sleep(0.4)
            SEEN.append(executor.cancelled)
            for ask in (lambda: executor.say("still here"), lambda: executor.subplan("go on")):
                try:
                    ask()
                except Exception as e:
                    SEEN.append(f"{type(e).__name__}: {getattr(e, 'code', '')}")
        """),
    "stopper": ("timeout_s: 5", """
        from agent.planner.control import StopRequested

        def tool(input_value=None, **kwargs):
            raise StopRequested("stopped, as a player asked")
        """),
    "failer": ("timeout_s: 5", """
        from agent.planner.control import LlmFailed

        def tool(input_value=None, **kwargs):
            raise LlmFailed("the model server went away")
        """),
    "keeper": ("timeout_s: 5", """
        def tool(input_value=None, **kwargs):
            return kwargs["executor"].execute_action({"type": "create-note", "content": "kept"}).as_dict()
        """),
    "interrupted": ("timeout_s: 5", """
        def tool(input_value=None, **kwargs):
            raise KeyboardInterrupt
        """),
}


class PairedTrace:
    """An observer that checks what the trace writer relies on: every start is ended once, innermost first."""

    def __init__(self) -> None:
        self.open: list[tuple[Any, int]] = []
        self.ended: list[tuple[Any, int]] = []

    def tool_started(self, action: Mapping[str, Any], depth: int, tool_type: str | None) -> None:
        assert depth == len(self.open), (action, depth, self.open)
        self.open.append((action.get("type"), depth))

    def tool_finished(self, record: ActionRecord, result: ToolResult) -> None:
        assert self.open.pop() == (record.tool, record.depth), record
        self.ended.append((record.tool, record.depth))


def _executor(tmp_path: Path, default_s: float | None = None, observer: PairedTrace | None = None) -> Executor:
    for name, (meta, code) in TOOLS.items():
        python_tool(tmp_path, name, code, meta=meta)
    toolbox = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
                            ToolSource(label="test", folder=tmp_path, required=True)])
    assert not toolbox.errors, toolbox.errors
    return Executor(toolbox, Infospace.open(":memory:"), tool_timeout_s=default_s, observer=observer)


def _seen(executor: Executor, tool: str) -> list[Any]:
    entry = next(e for path, e in executor._python._entries.items() if path.parent.name == tool)
    return entry.__globals__["SEEN"]


def test_a_tool_past_its_timeout_fails_with_timeout_and_the_next_call_works(tmp_path: Path) -> None:
    executor = _executor(tmp_path)
    started = time.monotonic()
    result = executor.execute_action({"type": "sleepy"})
    assert result.code == "timeout" and result.reason == "sleepy did not finish within 0.3 s"
    assert time.monotonic() - started < 1.0
    assert executor.execute_action({"type": "quick"}).value == "done"
    assert [r.depth for r in executor.records] == [0, 0]


def test_a_bounded_tool_keeps_notes_from_its_worker_thread(tmp_path: Path) -> None:
    # The tool runs in a thread of its own; the infospace it writes to was opened in this one.
    executor = _executor(tmp_path)
    result = executor.execute_action({"type": "keeper"})
    assert result.ok and result.resource_id == "Note_1", result.reason
    assert executor.infospace.note("Note_1").content == "kept"


def test_without_timeout_s_the_executors_default_bounds_the_call(tmp_path: Path) -> None:
    executor = _executor(tmp_path, default_s=0.2)
    assert executor.toolbox.tools["slow"].timeout_s is None
    assert executor.execute_action({"type": "slow"}).reason == "slow did not finish within 0.2 s"
    assert executor.execute_action({"type": "sleepy"}).reason == "sleepy did not finish within 0.3 s"  # its own


def test_an_abandoned_tool_cannot_act_any_more_and_the_trace_stays_paired(tmp_path: Path) -> None:
    trace = PairedTrace()
    executor = _executor(tmp_path, observer=trace)
    assert executor.execute_action({"type": "driver"}).code == "timeout"
    time.sleep(0.5)  # the abandoned thread goes on calling
    seen = _seen(executor, "driver")
    assert seen[0].ok and seen[-1].code == "timeout" and "abandoned" in seen[-1].reason
    assert {(r.tool, r.depth) for r in executor.records} <= {("driver", 0), ("think", 1)}
    assert executor._open == [] and trace.open == [] and trace.ended[-1] == ("driver", 0)


def test_a_tool_nested_in_an_abandoned_one_is_cut_off_too(tmp_path: Path) -> None:
    """The inner tool runs in a worker thread of its own, with its own (longer) bound."""
    trace = PairedTrace()
    executor = _executor(tmp_path, observer=trace)
    assert executor.execute_action({"type": "outer"}).code == "timeout"
    assert executor.execute_action({"type": "think", "thought": "the run goes on"}).ok
    time.sleep(0.7)
    seen = _seen(executor, "driver-long")
    refused = next(i for i, r in enumerate(seen) if not r.ok)
    assert refused > 0 and all(r.code == "timeout" for r in seen[refused:])  # never again, once refused
    # The inner call was ended as abandoned when the outer one timed out, and nothing after.
    assert ("driver-long", 1) in trace.ended and trace.ended[-1] == ("think", 0)
    assert executor._open == [] and trace.open == []


def test_a_new_tool_after_an_abandoned_ones_thread_ended_acts_normally(tmp_path: Path) -> None:
    """Abandonment belongs to the call, not to a thread id, which the next worker thread may reuse."""
    executor = _executor(tmp_path)
    for _ in range(3):
        assert executor.execute_action({"type": "brief"}).code == "timeout"
        time.sleep(0.2)  # its thread has ended
        assert executor.execute_action({"type": "thinker"}).value == "acted"


def test_an_abandoned_tool_may_not_talk_or_plan_and_knows_it(tmp_path: Path) -> None:
    executor = _executor(tmp_path)
    assert not executor.cancelled
    assert executor.execute_action({"type": "talker"}).code == "timeout"
    time.sleep(0.5)
    assert _seen(executor, "talker") == [False, True, "ToolFailure: timeout", "ToolFailure: timeout"]


@pytest.mark.parametrize(("tool", "raised"), [("stopper", StopRequested), ("failer", LlmFailed),
                                               ("interrupted", KeyboardInterrupt)])
def test_the_runs_own_exceptions_still_go_through(tmp_path: Path, tool: str, raised: type[BaseException]) -> None:
    executor = _executor(tmp_path)
    with pytest.raises(raised):
        executor.execute_action({"type": tool})
    assert executor._open == [] and list(executor.records) == []  # unrecorded, as the run ends
    assert executor.execute_action({"type": "quick"}).ok and executor.records[0].depth == 0


def test_ctrl_c_while_waiting_for_a_tool_cuts_the_tool_off(tmp_path: Path) -> None:
    executor = _executor(tmp_path)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.15)
        with pytest.raises(KeyboardInterrupt):
            executor.execute_action({"type": "driver-long"})
    finally:
        signal.signal(signal.SIGALRM, previous)
    time.sleep(0.3)
    seen = _seen(executor, "driver-long")
    assert seen[0].ok and seen[-1].code == "timeout" and executor._open == []


@pytest.mark.parametrize(("value", "problem"), [("0", "greater than 0"), ("-1", "greater than 0"),
                                                 ("4000", "less than or equal to 3600"), (".nan", "finite number"),
                                                 ("true", "valid number"), ("soon", "valid number")])
def test_a_bad_timeout_s_is_one_line_naming_the_key(tmp_path: Path, value: str, problem: str) -> None:
    python_tool(tmp_path, "bad", "def tool(input_value=None, **kwargs):\n    pass\n", description="x",
                meta=f"timeout_s: {value}")
    [error] = load_toolbox([ToolSource(label="test", folder=tmp_path)]).errors
    assert "Skill.md:5: timeout_s: Input should be" in str(error) and problem in str(error)
    assert "\n" not in str(error)


def test_timeout_s_is_for_python_tools_only(tmp_path: Path) -> None:
    folder = tmp_path / "wrong"
    folder.mkdir()
    folder.joinpath("Skill.md").write_text("---\nname: wrong\ntype: instruction\ndescription: x\ntimeout_s: 3\n---\nbody\n")
    toolbox = load_toolbox([ToolSource(label="test", folder=tmp_path)])
    assert "timeout_s applies only to type: python" in str(toolbox.errors[0])


def test_world_tools_are_not_held_to_the_default_since_they_bound_their_own_calls() -> None:
    toolbox = load_toolbox(standard_sources("minecraft", []))
    executor = Executor(toolbox, Infospace.open(":memory:"), tool_timeout_s=1e-6)
    assert executor.execute_action({"type": "mc-status"}).code == "disconnected"  # ran, found no bot


def test_the_shipped_python_skills_set_a_bound_a_slow_model_can_meet() -> None:
    """reach-open-sky runs up to 5 rounds of mc-explore (120 s each) with a climbing sub-plan
    that asks the model: far more than the 60 s default."""
    toolbox = load_toolbox(standard_sources("minecraft", [Path("skills")]))
    assert not toolbox.errors
    assert toolbox.tools["reach-open-sky"].timeout_s >= 5 * (120 + 4 * 60)
