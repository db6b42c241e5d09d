"""Every tool call is bounded, on a real server: a number the bot cannot use is `bad_args`
through a world tool (its model holds the bounds), and NaN or an infinity is refused straight to
the bridge too (JSON cannot carry them), as is a block read outside the world; none changes anything; a
world tool that walks leg after leg under a python tool that timed out stops at its next leg."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from agent.bridge import BridgeError
from agent.infospace import Infospace
from agent.tools import Executor, load_toolbox, standard_sources
from support.tool_folders import python_tool
from support.waiting import wait_for
from support.world_body import Body

NAN, INF = float("nan"), float("inf")
# Through the tools: (tool, arguments, the field the refusal names).
BAD_CALLS = [
    ("mc-goto", {"x": 1e308, "y": 5, "z": 0}, "x"),
    ("mc-goto", {"x": 0, "y": 5, "z": 0, "range": INF}, "range"),
    ("mc-look", {"pitch": -1e308}, "pitch"),
    ("mc-look", {"x": 0, "y": 1e6, "z": 0}, "y"),
    ("mc-dig", {"x": 10**12, "y": 4, "z": 0}, "x"),
    ("mc-place", {"item": "dirt", "forward": 1000}, "forward"),
    ("mc-move", {"forward": True, "duration": NAN}, "duration"),
    ("mc-wait", {"seconds": 1e308}, "seconds"),
]
# Straight to the bridge, as a caller that skips the tools would: (action, arguments).
BAD_BRIDGE_CALLS = [
    ("goto", {"x": NAN, "y": 5, "z": 0}),
    ("look", {"yaw_deg": -INF}),
    ("dig", {"forward": NAN}),
    ("blockAt", {"x": 0, "y": 10**6, "z": 0}),
    ("wait", {"seconds": INF}),
]


def test_numbers_out_of_range_are_bad_args_and_change_nothing(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "south")
    before = flat.bot.state()
    for tool, args, field in BAD_CALLS:
        refused = flat.call(tool, **args)
        named = f"argument '{field}'" in refused.reason or refused.reason.startswith(f"{field}: ")
        said = "expected a finite number" in refused.reason or " from " in refused.reason
        assert refused.code == "bad_args" and named and said, (tool, args, refused)
    for action, args in BAD_BRIDGE_CALLS:
        with pytest.raises(BridgeError) as raised:
            flat.bot.call(action, args)
        assert raised.value.code == "bad_args", (action, raised.value)
    after = flat.ok("mc-status")
    assert math.dist((after["position"]["x"], after["position"]["y"], after["position"]["z"]),
                     (before.position.x, before.position.y, before.position.z)) < 0.01
    assert after["yaw_deg"] == pytest.approx(before.yaw_deg, abs=0.01)


def test_an_explore_under_a_timed_out_python_tool_stops_at_its_next_leg(tmp_path: Path, flat: Body) -> None:
    """mc-explore makes its own bridge calls, leg after leg (up to 30 s here): once the python tool
    it runs under is abandoned, it stops before the next leg instead of walking on beside the run."""
    entry = python_tool(tmp_path / "tools", "wander", """
        LATER = []

        def tool(input_value=None, **kwargs):
            far = {'within': {'x': 300.5, 'y': 5, 'z': 300.5, 'distance': 1}}
            LATER.append(kwargs['executor'].execute_action(
                {'type': 'mc-explore', 'check': far, 'max_seconds': 30, 'max_blocks': 256}))
        """, description="explores, slowly", meta="timeout_s: 1")
    toolbox = load_toolbox(standard_sources("minecraft", [tmp_path / "tools"]))
    executor = Executor(toolbox, Infospace.open(":memory:"), world=flat.bot)
    flat.teleport(0.5, 5, 0.5, "south")
    started = time.monotonic()
    assert executor.execute_action({"type": "wander"}).reason == "wander did not finish within 1 s"
    assert executor.execute_action({"type": "mc-status"}).ok  # the run goes on meanwhile
    later = executor._python._entries[entry].__globals__["LATER"]
    assert wait_for(lambda: later, timeout_s=25)  # one leg at most (20 s), not its 30 s
    assert later[0].code == "timeout" and "stopped" in later[0].reason
    assert time.monotonic() - started < 25
    stopped_at = flat.bot.state().position
    time.sleep(1.5)
    assert flat.bot.state().position.distance_to(stopped_at) < 0.2  # nothing walks on
