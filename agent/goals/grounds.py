"""What the world offers now, read in one bridge call (bridge/helpers/grounds.js): the items
carried, the other players online and the block kinds around the feet, nearest first; when asked,
the nearest trees' logs, the nearest chest and what it holds, and the tops of structures. It
grounds a goal's words (grounding.py) and the planner's arguments (agent/planner/domains.py: a
name no world offered is never written).
"""

from __future__ import annotations

import re
import time

from pydantic import BaseModel, ConfigDict, Field

from agent.bridge import BotConnection, BridgeError
from agent.checks.model import NearPlayer, StandingOn
from agent.goals.understanding import SubGoal, Understanding
from agent.mc.geometry import Facing

# A player the goal is about reaches the bot's view a moment after its join (the server sends the
# players around once the bot has spawned: seconds on a loaded machine); read again until then.
PLAYER_APPEARS_S, PLAYER_POLL_S = 5.0, 0.25
# The box the kinds are read in: blocks from the feet, across and up or down.
RADIUS, HALF_HEIGHT = 16, 8
# A word that could be a player's username, as written.
USERNAME = re.compile(r"\b\w{3,16}\b")


class Point(BaseModel):
    """A world position (blocks, float): x east, y up, z south."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    x: float
    y: float
    z: float


class Columns(BaseModel):
    """The world columns from one [x, z] corner to the other (inclusive)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    from_: tuple[int, int] = Field(alias="from")
    to: tuple[int, int]


class Sighted(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    distance: float = Field(description="blocks from the feet to the nearest one's centre")
    at: Point | None = Field(None, description="the nearest one's world cell (its lower corner)")


class Tree(BaseModel):
    """The tree of the nearest log of a kind: its logs joined to that one (bridge/helpers/grounds.js)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(description="the log kind: oak_log, birch_log, ...")
    logs: int = Field(ge=1, description="how many logs the tree has")
    at: Point = Field(description="the nearest of them (its world cell)")


class Stack(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    count: int = Field(ge=1)


class ChestSeen(BaseModel):
    """The nearest chest and what it holds, summed by item."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    at: Point = Field(description="its world cell")
    items: list[Stack] = Field(default_factory=list)


class Top(BaseModel):
    """The top of the structure of the nearest block of a kind: its highest block with room above."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    y: int = Field(description="the world y of that block (the feet stand at y + 1)")


class Grounds(BaseModel):
    """The world around the bot as the planner's choices see it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    feet: Point
    carried: dict[str, int] = Field(default_factory=dict, description="item name -> count, over every slot")
    players: list[str] = Field(default_factory=list, description="other players online")
    blocks: list[Sighted] = Field(default_factory=list, description="block kinds near the feet, nearest first")
    ground_y: float | None = Field(None, description="the feet's level on the ground around (the median top of "
                                                     "the columns 5 blocks off); None where none was read")
    hole: Columns | None = Field(None, description="the hole the feet are in, with its floor, steps and rim: "
                                                   "None where they stand at the ground's level")
    facing: Facing | None = Field(None, description="the way the bot looks, to the nearest of four")
    trees: list[Tree] = Field(default_factory=list, description="read when asked: the tree of the nearest log of "
                                                                "each kind seen")
    chest: ChestSeen | None = Field(None, description="read when asked: the nearest chest and its contents")
    tops: list[Top] = Field(default_factory=list, description="read when asked: the tops of the structures of "
                                                              "block kinds seen")

    @property
    def kinds(self) -> list[str]:
        return [b.name for b in self.blocks]

    def beside_hole(self) -> Point | None:
        """The ground just outside the hole the feet are in, nearest them: the centre of the first
        column past its edge, at the ground's level (feet). None out of a hole."""
        if self.hole is None or self.ground_y is None:
            return None
        (x0, z0), (x1, z1) = self.hole.from_, self.hole.to
        ring = [(x, z) for x in range(x0 - 1, x1 + 2) for z in range(z0 - 1, z1 + 2)
                if x in (x0 - 1, x1 + 1) or z in (z0 - 1, z1 + 1)]
        x, z = min(ring, key=lambda c: (c[0] + 0.5 - self.feet.x) ** 2 + (c[1] + 0.5 - self.feet.z) ** 2)
        return Point(x=x + 0.5, y=self.ground_y, z=z + 0.5)


def read_grounds(bot: BotConnection, goal: str = "", *, trees: bool = False, chest: bool = False,
                 tops: list[str] | None = None) -> Grounds | None:
    """The world now; None when it cannot be read (the bot is gone or dead). Words of `goal` that
    could be usernames are players when one of that name is in view (the tab list may not say).
    `trees`, `chest`, `tops`: read the nearest trees' logs, the nearest chest's contents and the
    tops of the structures of those block kinds too."""
    names = list(dict.fromkeys(USERNAME.findall(goal)))
    try:
        return Grounds.model_validate(bot.call("grounds", {"radius": RADIUS, "half_height": HALF_HEIGHT,
                                                           "names": names, "trees": trees, "chest": chest,
                                                           "tops": tops or []}))
    except BridgeError:
        return None


def read_grounds_for(bot: BotConnection, goal: str, understanding: Understanding) -> Grounds | None:
    """The world at a run's start, with the trees and the chest its sub-goals count on, read again
    for up to PLAYER_APPEARS_S while a sub-goal about a player finds none in view to ground it."""
    deadline = time.monotonic() + PLAYER_APPEARS_S
    subgoals = understanding.subgoals
    asked = {"trees": any(s.count_of == "tree" for s in subgoals),
             "chest": any(s.contents or s.at_nearest or s.count_of == "chest" for s in subgoals),
             "tops": sorted({n for s in subgoals if s.on_top and isinstance(s.check, StandingOn)
                             for n in s.kinds or [s.check.standing_on.block]})}
    grounds = read_grounds(bot, goal, **asked)
    while grounds is not None and awaits_player(understanding, grounds) and time.monotonic() < deadline:
        time.sleep(PLAYER_POLL_S)
        grounds = read_grounds(bot, goal, **asked)
    return grounds


def awaits_player(understanding: Understanding, grounds: Grounds) -> bool:
    """Whether a sub-goal about a player finds no player in view to ground it."""
    return any(s.players and isinstance(s.check, NearPlayer) and player_meant(s, grounds) is None
               for s in understanding.subgoals)


def player_meant(subgoal: SubGoal, grounds: Grounds) -> str | None:
    """The player a pronoun means ("stick with him"): one online the goal names, else the one
    online; None when neither is."""
    named = [p for p in grounds.players if p.lower() in {w.lower() for w in subgoal.players}]
    who = named or (grounds.players if len(grounds.players) == 1 else [])
    return who[0] if who else None

