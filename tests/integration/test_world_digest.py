"""The world's fingerprint (bridge/helpers/digest.js, agent/world/digest.py) on a real server: equal
after a step that changed nothing around the bot (a look, a status, a dig of air), different after
one that did (a dug block, a walk)."""

from __future__ import annotations

from agent.world.digest import world_digest
from support.world_body import Body

# A spot of its own on the shared flat field (grass at y=4, the feet at y=5), far from the others'.
SPOT = (10.5, 5.0, -9.5)


def test_looking_and_reading_change_nothing_digging_and_walking_do(flat: Body):
    flat.teleport(*SPOT, facing="north")
    before = world_digest(flat.bot)
    assert before is not None and len(before) == 16
    flat.ok("mc-look", facing="east", pitch=30)
    flat.ok("mc-status")
    assert flat.call("mc-dig", forward=0, up=3).code == "refused"  # air: nothing to dig
    assert world_digest(flat.bot) == before
    flat.ok("mc-dig", forward=3, up=-1)  # in reach, and its drop beyond the bot's pick-up range
    dug = world_digest(flat.bot)
    assert dug != before
    flat.ok("mc-look", facing="west", pitch=0)
    assert world_digest(flat.bot) == dug
    flat.ok("mc-move", blocks=2)
    assert world_digest(flat.bot) not in (before, dug)


def test_no_bot_no_fingerprint():
    assert world_digest(None) is None
