"""The gather and build methods (skills/gather, skills/build) in `mcagent run` on the real
server: gather collects the logs the goal check asks for with mc-collect, given the block and
the count by the check; build lays a wall from too few blocks, collects the kind it lacks from
the ground (grass gives dirt), and finishes it. The world verifies both."""

from __future__ import annotations

from pathlib import Path

import yaml

from agent.trace import read_trace
from agent.trace.schema import ToolCall
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

POLICY = FIXTURES / "planner" / "work_method_policy.py"
SHORT_WALL = {
    "name": "short-wall", "description": "an empty field and 3 dirt, half of what the wall needs",
    "goal": "Build a wall of dirt three blocks wide and two blocks high, two blocks in front of you.",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south", "keep_facing": True},
    "inventory": [{"name": "dirt", "count": 3}],
    "success": {"blueprint": {"anchor": [0, 5, 2], "blocks": [{"at": [dx, dy, 0], "block": "dirt"}
                                                             for dy in (0, 1) for dx in (-1, 0, 1)]}},
}


def _run(tmp_path: Path, scenario: str) -> tuple[str, list[ToolCall]]:
    trace, token = tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", scenario, "--config", str(run_config(tmp_path)), "--port", "0",
                   "--llm", f"scripted:{POLICY}", "--max-steps", "2", "--trace", str(trace), token=token, timeout_s=240)
    assert done.returncode == 0, transcript(done)
    assert wait_until_gone(token, timeout_s=5) == []
    records = read_trace(trace)
    return done.stdout, [e for e in records.events if isinstance(e, ToolCall) and e.tool]


def test_gather_collects_what_the_check_asks_for(tmp_path: Path) -> None:
    out, calls = _run(tmp_path, "tree")
    assert "outcome: success (verified: has_item oak_log 3 holds" in out
    collects = [c for c in calls if c.tool == "mc-collect"]
    assert collects and collects[0].args == {"block": "oak_log", "count": 3}
    assert any(c.tool == "gather" for c in calls)


def test_build_collects_the_blocks_it_lacks_and_finishes_the_wall(tmp_path: Path) -> None:
    path = tmp_path / "short-wall.yaml"
    path.write_text(yaml.safe_dump(SHORT_WALL))
    out, calls = _run(tmp_path, str(path))
    assert "outcome: success (verified: blueprint of 6 cells" in out
    tools = [c.tool for c in calls if c.inner_step is not None]  # the method's own steps
    assert tools[:3] == ["mc-build", "mc-collect", "mc-build"], tools
    collect = [c.args for c in calls if c.tool == "mc-collect"][0]
    assert (collect["block"], collect["count"]) == ("dirt", 6)  # never the wall's own cells: mc-collect keeps them
