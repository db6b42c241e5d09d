"""A build in the report, from a real run: `mcagent run` with a blueprint goal on the real server
(mc-build, the scripted task policy) records the blueprint's cells as the world holds them after
the run, and `mcagent report` draws them beside the blueprint, the map marking the build. The wall
is short of blocks and one of its cells holds bedrock, which no digging clears (mc-build clears
another block in a cell before placing): three cells right, one wrong, two missing."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from agent.trace import read_trace
from agent.trace.schema import BuildSeen
from support.browser import chromium_page, errors_of
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

# The repository, where the run starts so that the policy is named by a relative path (the picture
# shows the LLM's spec, and a path of the machine that took it says nothing to a reader).
ROOT = FIXTURES.parent.parent
POLICY = (FIXTURES / "planner" / "task_policy.py").relative_to(ROOT)
# Where screenshots also go when set (docs/images/build-report.png is made this way).
SCREENSHOTS = os.environ.get("MCAGENT_SCREENSHOTS")
WALL = [(dx, dy) for dy in (0, 1) for dx in (-1, 0, 1)]
SHORT_WALL = {
    "name": "short-wall-in-the-way", "description": "an empty field, 3 dirt for a wall of 6, bedrock in one cell",
    "goal": "Build a wall of dirt three blocks wide and two blocks high, two blocks in front of you.",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south", "keep_facing": True},
    "inventory": [{"name": "dirt", "count": 3}],
    "blocks": [{"block": "bedrock", "at": [1, 5, 2]}],
    "success": {"blueprint": {"anchor": [0, 5, 2], "blocks": [{"at": [dx, dy, 0], "block": "dirt"} for dx, dy in WALL]}},
}


def test_a_build_run_records_its_blueprint_in_the_world_and_the_report_draws_it(tmp_path: Path) -> None:
    scenario, trace, report = tmp_path / "short-wall.yaml", tmp_path / "trace.jsonl", tmp_path / "report.html"
    scenario.write_text(yaml.safe_dump(SHORT_WALL))
    token = new_token()
    run = mcagent("run", "--scenario", str(scenario), "--config", str(run_config(tmp_path)), "--port", "0",
                  "--llm", f"scripted:{POLICY}", "--tools", "mc-build", "--max-steps", "1", "--trace", str(trace),
                  token=token, timeout_s=240, cwd=ROOT)
    assert run.returncode == 1, transcript(run)  # the wall cannot be finished: the run hits its one step
    assert wait_until_gone(token, timeout_s=5) == []
    seen = [e for e in read_trace(trace).events if isinstance(e, BuildSeen)]
    assert len(seen) == 1, transcript(run)
    cells = {(x, y): c for (x, y, _), c in ((c.at, c) for c in seen[0].cells)}
    assert sorted(cells) == sorted((dx, 5 + dy) for dx, dy in WALL)
    assert cells[(1, 5)].held == "bedrock" and cells[(1, 5)].wrong
    assert seen[0].said() == "3 of 6 cells right (50 %): 1 wrong, 2 missing"

    made = mcagent("report", str(trace), "-o", str(report), token=new_token())
    assert made.returncode == 0, transcript(made)
    html = report.read_text()
    assert (html.count('class="cell wanted"'), html.count('class="cell right"'), html.count('class="cell wrong"'),
            html.count('class="cell missing"')) == (6, 3, 1, 2)
    assert html.count('<rect class="found build"') == 3  # the wall's three columns on the map
    with chromium_page(1000, 900) as page:
        problems = errors_of(page)
        page.goto(report.as_uri())
        page.wait_for_load_state("load")
        assert page.locator("figure.layer").count() == 2  # y 5 and y 6
        shot = page.screenshot(full_page=True)
    if SCREENSHOTS:
        Path(SCREENSHOTS, "build-report.png").write_bytes(shot)
    assert problems == []
