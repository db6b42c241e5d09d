"""Python tools are bounded: past `timeout_s` (Skill.md, else the executor's default) the call
fails with code `timeout`, the next call works, the abandoned tool cannot act any more, and
the run's own exceptions still go through."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from agent.infospace import Infospace
from agent.planner.control import StopRequested
from agent.tools import Executor, ToolSource, load_toolbox, standard_sources
from agent.tools.loader import CORE_TOOLS_DIR

TOOLS = {
    "sleepy": ("timeout_s: 0.3", "import time\n\ndef tool(input_value=None, **kwargs):\n    time.sleep(3)\n"),
    "quick": ("", "def tool(input_value=None, **kwargs):\n    return 'done'\n"),
    "slow": ("", "import time\n\ndef tool(input_value=None, **kwargs):\n    time.sleep(3)\n"),
    "driver": ("timeout_s: 0.3", """
        import time
        SEEN = []

        def tool(input_value=None, **kwargs):
            for _ in range(20):
                SEEN.append(kwargs["executor"].execute_action({"type": "think", "thought": "again"}))
                time.sleep(0.05)
        """),
    "stopper": ("timeout_s: 5", """
        from agent.planner.control import StopRequested

        def tool(input_value=None, **kwargs):
            raise StopRequested("stopped, as a player asked")
        """),
}


def _executor(tmp_path: Path, default_s: float | None = None) -> Executor:
    for name, (meta, code) in TOOLS.items():
        folder = tmp_path / name
        folder.mkdir()
        folder.joinpath("Skill.md").write_text(f"---\nname: {name}\ntype: python\ndescription: a test tool\n{meta}\n---\n")
        folder.joinpath("tool.py").write_text(textwrap.dedent(code))
    toolbox = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
                            ToolSource(label="test", folder=tmp_path, required=True)])
    assert not toolbox.errors, toolbox.errors
    return Executor(toolbox, Infospace.open(":memory:"), tool_timeout_s=default_s)


def test_a_tool_past_its_timeout_fails_with_timeout_and_the_next_call_works(tmp_path: Path) -> None:
    executor = _executor(tmp_path)
    started = time.monotonic()
    result = executor.execute_action({"type": "sleepy"})
    assert result.code == "timeout" and result.reason == "sleepy did not finish within 0.3 s"
    assert time.monotonic() - started < 1.0
    assert executor.execute_action({"type": "quick"}).value == "done"
    assert [r.depth for r in executor.records] == [0, 0]


def test_without_timeout_s_the_executors_default_bounds_the_call(tmp_path: Path) -> None:
    executor = _executor(tmp_path, default_s=0.2)
    assert executor.toolbox.tools["slow"].timeout_s is None
    assert executor.execute_action({"type": "slow"}).reason == "slow did not finish within 0.2 s"
    assert executor.execute_action({"type": "sleepy"}).reason == "sleepy did not finish within 0.3 s"  # its own


def test_an_abandoned_tool_cannot_act_any_more_and_the_trace_stays_paired(tmp_path: Path) -> None:
    executor = _executor(tmp_path)
    result = executor.execute_action({"type": "driver"})
    assert result.code == "timeout"
    time.sleep(0.5)  # the abandoned thread goes on calling
    seen = next(m for m in executor._python._entries.values()).__globals__["SEEN"]
    assert seen[0].ok and seen[-1].code == "timeout" and "abandoned" in seen[-1].reason
    # Every record is a finished call at a consistent depth: the driver at 0, its thinks at 1.
    depths = {(r.tool, r.depth) for r in executor.records}
    assert depths <= {("driver", 0), ("think", 1)}
    assert executor._depth == 0 and executor._open == []


def test_the_runs_own_exceptions_still_go_through(tmp_path: Path) -> None:
    executor = _executor(tmp_path)
    with pytest.raises(StopRequested):
        executor.execute_action({"type": "stopper"})
    assert executor._depth == 0


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
