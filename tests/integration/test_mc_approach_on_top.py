"""Standing on a block, in a real world. The goal check standing_on reads the block under the feet:
a stone block set in the grass, the grass beside it, a slab's top half a block up. mc-approach
with on_top walks onto a raised stone platform, and standing_on stone then holds; without on_top
it still ends beside the platform, on the grass; with no block of the kind that has room above,
it fails not_found and digs nothing. On a platform two high with a step in front, on_top ends on
its top, not on the step; the grounds read gives that top, and "climb up onto the cobblestone
platform" read and grounded is a check that holds there. World blocks: x east, y up, z south;
the grass is at y=4."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.checks import Verdict, evaluate, parse_check
from agent.goals import ground, read_grounds_for, understand
from agent.server import Scenario
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# A 3x3 stone platform, 1 high, on the grass south of the spawn: its nearest block from the
# approach's start (0.5, 5, 2.5) is (0, 5, 5), two blocks' walk and a jump away.
PLATFORM = ((-1, 5, 5), (1, 5, 7))
FLUSH_STONE = (-10, 4, -10)  # in place of the grass, far from the platform: the walk goes to the nearer
SLAB = (-13, 5, -10)  # a stone slab's bottom half on the grass: its top is at y=5.5
# A 3x3 cobblestone platform two high (y 5-6) with a one-block cobblestone step before its north side.
TALL = ((8, 5, 8), (10, 6, 10))
STEP = (9, 5, 7)
STEPS = Scenario.model_validate({
    "name": "steps",
    "description": "a raised 3x3 stone platform, a stone block in the grass, a stone slab on the grass, and a "
                   "two-high cobblestone platform with a step",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "boxes": [{"block": "stone", "from": list(PLATFORM[0]), "to": list(PLATFORM[1])},
              {"block": "cobblestone", "from": list(TALL[0]), "to": list(TALL[1])}],
    "blocks": [{"block": "stone", "at": list(FLUSH_STONE)}, {"block": "stone_slab", "at": list(SLAB)},
               {"block": "cobblestone", "at": list(STEP)}],
})


@pytest.fixture(scope="module")
def steps(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(STEPS, "stepper", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        # the far blocks' chunk comes a moment after the spawn's
        assert wait_for(lambda: body.bot.block_at(*SLAB) == "stone_slab", timeout_s=10)
        yield body


def _on(body: Body, block: str) -> Verdict:
    return evaluate(body.bot, parse_check({"standing_on": {"block": block}}, "c"))


def test_standing_on_names_the_block_under_the_feet_a_full_block_or_a_slab(steps: Body) -> None:
    x, _, z = FLUSH_STONE
    steps.teleport(x + 0.5, 5, z + 0.5, "north")
    assert _on(steps, "stone") == Verdict(holds=True, detail="standing_on stone holds: stone under the feet")
    steps.teleport(x + 1.5, 5, z + 0.5, "north")  # the grass beside it
    assert _on(steps, "stone") == Verdict(holds=False, detail="standing_on stone is false: grass_block under the feet")
    assert _on(steps, "grass_block").holds
    x, y, z = SLAB
    steps.teleport(x + 0.5, y + 0.5, z + 0.5, "north")  # the feet half a block into the slab's cell
    assert _on(steps, "stone_slab") == Verdict(holds=True, detail="standing_on stone_slab holds: stone_slab under the feet")


def test_without_on_top_the_walk_still_ends_beside_the_platform_on_the_grass(steps: Body) -> None:
    steps.teleport(0.5, 5, 2.5, "north")
    report = steps.ok("mc-approach", block="stone")
    assert report["reached"] and not report["on_top"] and report["position"] == {"x": 0, "y": 5, "z": 5}, report
    assert steps.bot.state().position.y == pytest.approx(5.0)
    assert _on(steps, "stone") == Verdict(holds=False, detail="standing_on stone is false: grass_block under the feet")


def test_on_top_walks_up_onto_the_platform_and_standing_on_stone_then_holds(steps: Body) -> None:
    steps.teleport(0.5, 5, 2.5, "north")  # facing away: the walk turns round
    report = steps.ok("mc-approach", block="stone", on_top=True)
    assert report["reached"] and report["on_top"] and report["position"] == {"x": 0, "y": 5, "z": 5}, report
    assert report["detail"] == "on the stone" and report["dug"] == []
    assert steps.bot.state().position.y == pytest.approx(6.0)  # on the platform's top, read from the world
    assert _on(steps, "stone") == Verdict(holds=True, detail="standing_on stone holds: stone under the feet")


def test_on_top_of_a_kind_with_no_room_above_fails_not_found_and_digs_nothing(steps: Body) -> None:
    # all dirt is under the grass; dig (on by default) would burrow to it, on_top never does
    none = steps.call("mc-approach", block="dirt", on_top=True, radius=8)
    assert (none.code, none.data["reached"], none.data["dug"]) == ("not_found", False, []), none.reason
    assert "no dirt with two free cells above it within 8 blocks" in none.reason
    assert none.data["end"] == none.data["start"]  # not a step taken


def test_on_top_of_a_stepped_platform_ends_on_its_top_and_the_words_check_holds_there(steps: Body) -> None:
    steps.teleport(9.5, 5, 4.5, "north")
    goals = understand("climb up onto the cobblestone platform")
    grounded = ground(goals, read_grounds_for(steps.bot, goals.goal, goals))
    assert grounded.line() == "1. all(standing_on cobblestone, feet_y_at_least 7)"  # the top, y 6, not the step
    assert not evaluate(steps.bot, grounded.check).holds
    report = steps.ok("mc-approach", block="cobblestone", on_top=True)
    assert report["reached"] and report["position"]["y"] == 6, report  # not the step at y 5
    assert evaluate(steps.bot, grounded.check).holds
