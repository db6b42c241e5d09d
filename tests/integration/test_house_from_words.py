"""A house from words on the real server: `mcagent run --goal "Build a small house" --scenario
house-flat`, with a policy that takes what the planner offers first, reads the house template
placed two blocks ahead of the bot (a blueprint and `shelter` at a cell inside), gives mc-build
the blueprint, and ends verified when the world holds both.

The shelter check is judged at the cell inside the house that the template names, not at the
feet: it holds wherever the builder leaves the bot, outside (the door faces the bot's start, to
the north, and is set from there) or inside with the door shut. It needs mc-build to take block
states and set a door's two halves (Step 21's builder). Where the ground stands a block higher in
the house's inside, as on a natural world's slope, the builder clears it (the template's air is
part of the check) and the house is a shelter all the same."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agent.server import load_scenario
from agent.trace import read_trace
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

FIRST_OFFER = FIXTURES / "planner" / "first_offer_policy.py"
HOUSE = "all(blueprint of 75 cells at (-2, 5, 2), shelter at (0, 5, 4))"


def _on_ground_inside(tmp_path: Path) -> str:
    """house-flat with the ground a block higher where the house's inside goes, as on a natural
    world's slope: the grass block stands in the shelter's cell."""
    scenario = load_scenario("house-flat").model_dump(mode="json", exclude_none=True)
    scenario.update(name="house-mound", blocks=[{"block": "grass_block", "at": [x, 5, z]} for x in (-1, 0, 1) for z in (3, 4, 5)])
    path = tmp_path / "house-mound.yaml"
    path.write_text(yaml.safe_dump(scenario))
    return str(path)


@pytest.mark.parametrize("ground", ["flat", "a mound inside"])
def test_build_a_small_house_ends_verified_with_the_house_standing_and_a_shelter_inside(tmp_path: Path, ground: str) -> None:
    trace, token = tmp_path / "trace.jsonl", new_token()
    scenario = "house-flat" if ground == "flat" else _on_ground_inside(tmp_path)
    done = mcagent("run", "--scenario", scenario, "--goal", "Build a small house", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{FIRST_OFFER}", "--max-steps", "6",
                   "--trace", str(trace), token=token, timeout_s=600)
    assert f"understood: 1. {HOUSE} (read by rules)" in done.stdout, transcript(done)
    assert done.returncode == 0, transcript(done)
    assert "outcome: success (verified: not all hold" not in done.stdout
    assert any(line.startswith("step ") and "mc-build" in line for line in done.stdout.splitlines()), transcript(done)
    assert "shelter at (0, 5, 4) holds: closed in and roofed (18 open cells), a door at (0, 5, 2)" in done.stdout, \
        transcript(done)
    assert read_trace(trace).end.outcome == "success"
    assert wait_until_gone(token, timeout_s=5) == []
