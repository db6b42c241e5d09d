"""A scenario's milestones in `mcagent run` on the real server: each read in the world after
every tool call (those inside the craft tool included), printed and traced when it first holds,
in the order the work reaches them; a milestone never reached is never reported."""

from __future__ import annotations

from pathlib import Path

import yaml

from agent.server.scenario import SCENARIOS_DIR
from agent.trace import read_trace
from agent.trace.schema import Milestone
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

POLICY = FIXTURES / "planner" / "craft_policy.py"


def test_milestones_are_read_in_the_world_as_the_work_reaches_them(tmp_path: Path) -> None:
    scenario = yaml.safe_load((SCENARIOS_DIR / "workbench.yaml").read_text())
    scenario["milestones"] = [{"has_item": {"name": "oak_log"}}, {"has_item": {"name": "crafting_table"}},
                              {"has_item": {"name": "wooden_pickaxe"}}, {"has_item": {"name": "diamond"}}]
    path = tmp_path / "workbench-milestones.yaml"
    path.write_text(yaml.safe_dump(scenario))
    trace, token = tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", str(path), "--config", str(run_config(tmp_path)), "--port", "0",
                   "--llm", f"scripted:{POLICY}", "--max-steps", "2", "--trace", str(trace), token=token, timeout_s=240)
    assert done.returncode == 0, transcript(done)
    assert wait_until_gone(token, timeout_s=5) == []
    assert "milestone: has_item wooden_pickaxe 1 held at" in done.stdout
    reached = [e for e in read_trace(trace).events if isinstance(e, Milestone)]
    assert [m.check for m in reached] == ["has_item oak_log 1", "has_item crafting_table 1", "has_item wooden_pickaxe 1"]
    assert [m.tool for m in reached] == ["mc-collect", "mc-craft", "mc-craft"]  # read after the craft tool's own calls
    assert reached[0].after_s <= reached[1].after_s <= reached[2].after_s
