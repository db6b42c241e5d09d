"""mc-build of a box with a stair roof on the real server: its ceiling and roof lie past the reach
of any stand on the ground, so they are placed from scaffolding kept standing while a stand's
cells go in (stand by stand, not a tower up and down for each cell); the stairs in the states
asked; the scaffolding dug away after, the bot back on the ground."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.checks.model import Blueprint, Placement, Plan
from agent.server import Scenario
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# The box: a 7 x 7 footprint at (2..8, 4..10), walls 4 high (y 5..8) round an empty room, a
# ceiling at y 9 whose north and south rows are stairs, and a ridge at y 10 of planks between
# two rows of stairs: 7 x 7 x 6 cells, 180 blocks.
BOX_AT, SIDE, WALLS = (2, 5, 4), 7, 4
# The stairs of a gable: the north slope's rise to the south, the south slope's to the north.
NORTH_SLOPE, SOUTH_SLOPE = "oak_stairs[facing=south,half=bottom]", "oak_stairs[facing=north,half=bottom]"
# Right cells it must reach, of all (air included).
SHARE = 0.95

# Superflat grass at y=4; feet at (0.5, 5, 0.5); the box's blocks and dirt to scaffold with.
YARD = Scenario.model_validate({
    "name": "roofed-box-yard", "description": "an empty field, a roofed box's blocks and dirt",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "inventory": [{"name": "stone_bricks", "count": 96}, {"name": "oak_planks", "count": 56},
                  {"name": "oak_stairs", "count": 28}, {"name": "dirt", "count": 64}],
})


def roofed_box() -> Plan:
    blocks = []
    last = SIDE - 1
    for dx in range(SIDE):
        for dz in range(SIDE):
            edge = dx in (0, last) or dz in (0, last)
            blocks += [Placement(at=(dx, dy, dz), block="stone_bricks" if edge else "air") for dy in range(WALLS)]
            eaves = {0: NORTH_SLOPE, last: SOUTH_SLOPE}.get(dz, "oak_planks")
            blocks.append(Placement(at=(dx, WALLS, dz), block=eaves))
            if 0 < dz < last:
                ridge = {1: NORTH_SLOPE, last - 1: SOUTH_SLOPE}.get(dz, "oak_planks")
                blocks.append(Placement(at=(dx, WALLS + 1, dz), block=ridge))
    return Plan(anchor=BOX_AT, blocks=blocks)


def around_box() -> Plan:
    """The cells three blocks around the box and above it, up to 3 over its ridge: all air once
    the scaffolding is gone."""
    ax, ay, az = BOX_AT
    top = ay + WALLS + 1
    cells = [(x, y, z) for x in range(ax - 3, ax + SIDE + 3) for z in range(az - 3, az + SIDE + 3)
             for y in range(ay, top + 4)
             if not (ax <= x < ax + SIDE and az <= z < az + SIDE and y <= top)]
    return Plan(anchor=(0, 0, 0), blocks=[Placement(at=c, block="air") for c in cells])


@pytest.fixture(scope="module")
def builder(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(YARD, "roofer", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        assert wait_for(lambda: body.carried("dirt") == 64)
        yield body


def test_a_box_with_a_stair_roof_is_built_from_scaffolding_kept_while_used(builder: Body) -> None:
    plan = roofed_box()
    started = time.monotonic()
    report = builder.call("mc-build", anchor=list(plan.anchor),
                          blocks=[{"at": list(p.at), "block": p.block} for p in plan.blocks]).data
    seconds = time.monotonic() - started
    solid = sum(p.block != "air" for p in plan.blocks)
    print(f"\nroofed box: {solid} blocks in {seconds:.0f} s; {report['detail']}; placed {report['placed']}, "
          f"scaffold {report['scaffold']}; not right: {(report['missing'] + report['wrong'])[:8]}")
    assert report["right"] >= SHARE * report["cells"], report
    assert report["scaffold"]["placed"] > 0
    assert report["scaffold"]["left"] == 0 and report["scaffold"]["removed"] == report["scaffold"]["placed"]
    assert evaluate(builder.bot, Blueprint(blueprint=around_box())).holds, "scaffolding left standing"
    assert builder.bot.state().position.y == pytest.approx(5), "not back on the ground"
