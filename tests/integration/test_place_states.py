"""Placing a block in the state asked, on the real server: the bot picks the block it clicks, the
face, the point on it and where it stands (bridge/helpers/place-as.js), the server sets the state
the click asks as the game does (bridge/lib/placing.js). Each cell is read back twice: by the
placer's own client (its reply's `now`, from the block's properties) and by a second player's,
through the `block_at` check that compares states."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection, connect
from agent.checks import evaluate
from agent.checks.model import BlockAt
from agent.server import LocalServer, Scenario, ServerSettings
from support.waiting import wait_for

STONE = "stone"
# Superflat grass at y=4, feet at y=5. Every group of cells lies apart from the others, a cell
# three blocks from the next, and each stone named is what a cell is placed against.
YARD = Scenario.model_validate({
    "name": "placing-yard", "description": "an empty field, stones to place against, and what to place",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "blocks": [{"block": STONE, "at": at} for at in (
        [3, 5, 8], [5, 5, 9], [9, 5, 8], [11, 5, 9],  # beside the top stairs, aside from their facing
        [-9, 5, -14], [-6, 5, -13],  # east of the log on its x axis, south of the one on its z axis
        [7, 5, -14],  # east of the top slab
        [-6, 5, 14],  # the pillar the wall torches hang on
        [8, 5, 13], [12, 5, 13],  # north of the trapdoors hung on a wall
        [14, 6, -8],  # over the door that cannot be placed
        [-14, 5, -8], [-14, 6, -8],  # west of a door facing north: on its left, they make its hinge left
    )],
    "inventory": [{"name": name, "count": count} for name, count in (
        ("oak_stairs", 8), ("oak_door", 12), ("oak_log", 3), ("oak_slab", 4), ("torch", 6),
        ("glass_pane", 1), ("oak_trapdoor", 3))],
})

STAIRS = [((-10 + 3 * i, 5, 8), f"oak_stairs[facing={facing},half={half}]")
          for i, (half, facing) in enumerate((h, f) for h in ("bottom", "top") for f in ("north", "east", "south", "west"))]
DOORS = [((-10 + 3 * i, 5, -8), f"oak_door[facing={facing},half=lower,hinge={hinge},open=false]")
         for i, (facing, hinge) in enumerate((f, h) for f in ("north", "east", "south", "west") for h in ("left", "right"))]
OTHERS = [
    ((-10, 5, -14), "oak_log[axis=x]"),
    ((-6, 5, -14), "oak_log[axis=z]"),
    ((-2, 5, -14), "oak_log[axis=y]"),
    ((2, 5, -14), "oak_slab[type=bottom]"),
    ((6, 5, -14), "oak_slab[type=top]"),
    ((10, 5, -14), "oak_slab[type=double]"),
    ((-5, 5, 14), "wall_torch[facing=east]"),
    ((-7, 5, 14), "wall_torch[facing=west]"),
    ((-6, 5, 15), "wall_torch[facing=south]"),
    ((-6, 5, 13), "wall_torch[facing=north]"),
    ((0, 5, 14), "torch"),
    ((4, 5, 14), "glass_pane"),
    ((8, 5, 14), "oak_trapdoor[facing=south,half=top,open=true]"),
    ((12, 5, 14), "oak_trapdoor[facing=south,half=bottom,open=false]"),
    ((14, 5, 14), "oak_trapdoor[facing=east,half=bottom,open=false]"),
]
PLACE_S = 20


@pytest.fixture(scope="module")
def players() -> Iterator[tuple[BotConnection, BotConnection]]:
    """The placer and a watcher, in the yard."""
    with LocalServer(ServerSettings(), scenario=YARD) as info:
        with connect(port=info.port, username="placer") as placer, connect(port=info.port, username="watcher") as watcher:
            assert wait_for(lambda: placer.state().on_ground and placer.block_at(-6, 5, 14) == STONE)
            assert wait_for(lambda: watcher.block_at(-6, 5, 14) == STONE)
            yield placer, watcher


def place(placer: BotConnection, at: tuple[int, int, int], spec: str) -> dict:
    x, y, z = at
    return placer.call("placeCell", {"x": x, "y": y, "z": z, "block": spec, "timeout_s": PLACE_S}, timeout_s=PLACE_S + 5)


def seen_by(watcher: BotConnection, at: tuple[int, int, int], spec: str) -> bool:
    """Whether the watcher's world holds `spec` at `at`, name and state, by the block_at check."""
    check = BlockAt.model_validate({"block_at": {"at": list(at), "block": spec}})
    return wait_for(lambda: evaluate(watcher, check).holds)


@pytest.mark.parametrize(("at", "spec"), STAIRS + OTHERS, ids=[spec for _, spec in STAIRS + OTHERS])
def test_a_block_is_placed_in_the_state_asked(players: tuple[BotConnection, BotConnection],
                                              at: tuple[int, int, int], spec: str) -> None:
    placer, watcher = players
    done = place(placer, at, spec)
    assert done == {"placed": True, "now": spec}
    assert seen_by(watcher, at, spec)


@pytest.mark.parametrize(("at", "spec"), DOORS, ids=[spec for _, spec in DOORS])
def test_a_door_is_placed_whole_facing_and_hinged_as_asked(players: tuple[BotConnection, BotConnection],
                                                           at: tuple[int, int, int], spec: str) -> None:
    placer, watcher = players
    x, y, z = at
    upper = spec.replace("half=lower", "half=upper")
    assert place(placer, at, spec) == {"placed": True, "now": spec}
    assert placer.call("placeCell", {"x": x, "y": y + 1, "z": z, "block": upper, "timeout_s": 1}) == {"placed": True, "now": upper}
    assert seen_by(watcher, at, spec) and seen_by(watcher, (x, y + 1, z), upper)


def test_a_door_asked_open_is_opened_both_halves_together(players: tuple[BotConnection, BotConnection]) -> None:
    placer, watcher = players
    spec = "oak_door[facing=east,half=lower,hinge=left,open=true]"
    assert place(placer, (14, 5, -11), spec) == {"placed": True, "now": spec}
    assert seen_by(watcher, (14, 6, -11), spec.replace("half=lower", "half=upper"))


def test_digging_one_half_of_a_door_takes_the_other(players: tuple[BotConnection, BotConnection]) -> None:
    placer, watcher = players
    spec = "oak_door[facing=west,half=lower,hinge=right,open=false]"
    assert place(placer, (2, 5, -11), spec) == {"placed": True, "now": spec}
    assert placer.call("dig", {"x": 2, "y": 6, "z": -11}, timeout_s=20)["gone"]
    assert wait_for(lambda: watcher.block_at(2, 5, -11) == "air" and placer.block_at(2, 5, -11) == "air")


def test_a_wall_beside_a_door_decides_its_hinge(players: tuple[BotConnection, BotConnection]) -> None:
    placer, watcher = players
    right = "oak_door[facing=north,half=lower,hinge=right,open=false]"
    refused = place(placer, (-13, 5, -8), right)
    assert refused == {"placed": False, "now": "air",
                       "why": f"no click on the 2 blocks beside (-13, 5, -8) gives {right} (the game sets the rest from the neighbours)"}
    left = right.replace("hinge=right", "hinge=left")
    assert place(placer, (-13, 5, -8), left) == {"placed": True, "now": left}
    assert seen_by(watcher, (-13, 5, -8), left)


def test_the_server_refuses_a_door_under_a_block_and_keeps_the_item(players: tuple[BotConnection, BotConnection]) -> None:
    placer, _ = players
    refused = place(placer, (14, 5, -8), "oak_door[facing=north,half=lower,hinge=left,open=false]")
    assert refused == {"placed": False, "now": "air", "why": "a door takes two cells; (14, 6, -8) is taken by stone"}
    before = _carried(placer, "oak_door")
    placer.call("goto", {"x": 14, "y": 5, "z": -6, "range": 1, "timeout_s": 15, "allow_dig": False, "allow_build": False, "max_drop": 3},
                timeout_s=20)
    # A raw click on the floor under the stone, past the bot's own check: the server refuses it too.
    placer.call("place", {"item": "oak_door", "x": 14, "y": 5, "z": -8, "face": "below"}, timeout_s=10)
    assert placer.block_at(14, 5, -8) == "air" and _carried(placer, "oak_door") == before


def test_what_cannot_be_placed_is_said_not_raised(players: tuple[BotConnection, BotConnection]) -> None:
    placer, _ = players
    assert place(placer, (-3, 5, 3), "oak_fence") == {"placed": False, "now": "air", "why": "no oak_fence in the inventory"}
    assert place(placer, (-3, 4, 3), "oak_log[axis=x]") == {"placed": False, "now": "grass_block", "why": "(-3, 4, 3) is taken by grass_block"}
    floating = place(placer, (-3, 9, 3), "wall_torch[facing=east]")
    assert floating == {"placed": False, "now": "air", "why": "no block beside (-3, 9, 3) to click for wall_torch[facing=east]"}


def _carried(bot: BotConnection, name: str) -> int:
    return sum(i["count"] for i in bot.call("inventory", {})["items"] if i["name"] == name)
