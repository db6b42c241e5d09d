"""mc-build above a safe drop on the real server: a free-standing wall ten blocks high, one thick,
is built from pillars of spare dirt; the bot, on a pillar higher than it may drop from, digs the
pillar under its feet to get down, so no scaffolding is left standing against the wall and the
bot ends on the ground."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.checks.model import Blueprint, Placement, Plan
from agent.server import Scenario
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# The wall: x 2..4, y 5..14, z 3: its top is 9.9 above the eyes of one on the ground, so the bot
# stands 5 blocks up to place it, past the 3 it may drop.
WALL_AT, LENGTH, HEIGHT = (2, 5, 3), 3, 10

# Superflat grass at y=4; feet at (0.5, 5, 0.5); the wall's blocks and dirt to scaffold with.
YARD = Scenario.model_validate({
    "name": "high-wall-yard", "description": "an empty field, a wall's blocks and dirt",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "inventory": [{"name": "stone_bricks", "count": LENGTH * HEIGHT}, {"name": "dirt", "count": 32}],
})


def high_wall() -> Plan:
    return Plan(anchor=WALL_AT, blocks=[Placement(at=(dx, dy, 0), block="stone_bricks")
                                        for dx in range(LENGTH) for dy in range(HEIGHT)])


def around_wall() -> Plan:
    """The cells three blocks around the wall, up to its top: all air once the scaffolding is gone."""
    ax, ay, az = WALL_AT
    cells = [(x, y, z) for x in range(ax - 3, ax + LENGTH + 3) for z in range(az - 3, az + 4)
             for y in range(ay, ay + HEIGHT) if not (ax <= x < ax + LENGTH and z == az)]
    return Plan(anchor=(0, 0, 0), blocks=[Placement(at=c, block="air") for c in cells])


@pytest.fixture(scope="module")
def builder(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(YARD, "steeplejack", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        assert wait_for(lambda: body.carried("dirt") == 32)
        yield body


def test_a_wall_higher_than_a_safe_drop_is_built_and_its_scaffolding_dug_away(builder: Body) -> None:
    plan = high_wall()
    report = builder.ok("mc-build", anchor=list(plan.anchor),
                        blocks=[{"at": list(p.at), "block": p.block} for p in plan.blocks])
    print(f"\nhigh wall: {report['detail']}; scaffold {report['scaffold']}")
    assert (report["right"], report["cells"]) == (LENGTH * HEIGHT, LENGTH * HEIGHT), report
    assert report["scaffold"]["placed"] >= 5  # one pillar at least as high as the stand
    assert report["scaffold"]["left"] == 0 and report["scaffold"]["removed"] == report["scaffold"]["placed"]
    assert evaluate(builder.bot, Blueprint(blueprint=plan)).holds
    verdict = evaluate(builder.bot, Blueprint(blueprint=around_wall()))
    assert verdict.holds, f"scaffolding left standing: {verdict.detail}"
    # the last scaffolding dug from under the feet: the fall may still be under way when the call returns
    assert wait_for(lambda: builder.bot.state().position.y == pytest.approx(5), timeout_s=5), "not back on the ground"
