from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from agent.mc.geometry import BlockPos, Frozen, Vec3
from agent.mc.names import BlockName
from agent.world.spatial import memory_of
from agent.world.toolkit import RADII, ToolArgs, fmt_offset, menu, run_tool

# The arguments' bounds (here only: find.js takes the values as checked).
MAX_RADIUS, MAX_COUNT, MAX_KINDS = 32, 16, 8
# A kind to look for: a planner names one seen near the bot (agent/planner/domains.py).
SeenKind = Annotated[BlockName, Field(json_schema_extra={"domain": "block_seen"})]


class Args(ToolArgs):
    # The grammar's forms (agent/tools/schema.py's Form): blocks seen, or dropped items, or players.
    model_config = ConfigDict(json_schema_extra={"forms": [
        {"required": ["blocks"], "fixed": {"blocks": {"minItems": 1}}, "absent": ["items", "players"]},
        {"required": ["items"], "fixed": {"items": {"enum": [True]}}, "absent": ["blocks", "players"]},
        {"required": ["players"], "fixed": {"players": {"enum": [True]}}, "absent": ["blocks", "items"]}]})
    blocks: list[SeenKind] = Field(default_factory=list, max_length=MAX_KINDS,
                                   description="block names, e.g. oak_log, gold_block, chest")
    items: bool = Field(False, description="also dropped items on the ground")
    players: bool = Field(False, description="also other players")
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet", json_schema_extra=RADII)
    count: int = Field(5, ge=1, le=MAX_COUNT, description="at most this many, nearest first",
                       json_schema_extra=menu(1, 5, 10))

    @model_validator(mode="after")
    def _something_to_find(self) -> "Args":
        if not (self.blocks or self.items or self.players):
            raise ValueError("name the blocks to find, or set items or players to true")
        return self


class Sighting(Frozen):
    kind: Literal["block", "item", "player"]
    name: str = Field(description="the block or item name, or the player's username")
    count: int | None = Field(None, description="items in a dropped stack")
    position: Vec3
    forward: int
    right: int
    up: int
    distance: float
    reachable: bool | None = Field(description="a walk reaches beside it, without digging or building; "
                                               "None when not searched (past the nearest few) or out of time")


class Result(Frozen):
    """What mc-find returns (bridge/helpers/find.js): the nearest blocks of the kinds asked for,
    dropped items and other players, nearest first.

    World positions are blocks (x east, y up, z south): a block's cell, an entity's feet. Egocentric
    offsets are whole blocks from the bot's feet block (forward, right, up; facing snapped to its
    cardinal). Distances are blocks from the bot's feet to a block's centre or an entity."""

    radius: int
    feet: BlockPos = Field(description="the bot's feet block when it looked")
    found: list[Sighting]
    missing: list[str] = Field(description="block kinds asked for with none within the radius")


def sighting(s: Sighting) -> str:
    walk = {True: ", reachable", False: ", no walk there", None: ""}[s.reachable]
    return f"{s.name} {s.distance:.1f} blocks away ({fmt_offset(s.forward, s.right, s.up)}{walk})"


def summarize(r: Result) -> str:
    found = "; ".join(sighting(s) for s in r.found[:3]) + (f"; and {len(r.found) - 3} more" if len(r.found) > 3 else "")
    missing = f"; no {', '.join(r.missing)} within {r.radius}" if r.missing else ""
    return f"found {found}{missing}" if r.found else f"nothing found within {r.radius}{missing}"


def judge(r: Result) -> tuple[str, str] | None:
    return None if r.found else ("not_found", summarize(r))


def tool(input_value=None, **kwargs):
    executor = kwargs.get("executor")

    def act(bot, a: Args) -> Result:
        report = Result.model_validate(bot.call("find", a.bridge_args()))
        remember(executor, report, set(a.blocks))
        return report

    return run_tool(kwargs, Args, act, Result, summarize, judge)


def remember(executor, r: Result, kinds: set[str]) -> None:
    """The blocks found go into the run's map by name (mc-map lists them as seen); those of the
    kinds looked for that it no longer finds within the radius are forgotten."""
    found = {(int(s.position.x), int(s.position.y), int(s.position.z)): s.name for s in r.found if s.kind == "block"}
    memory_of(executor).remember_blocks(found, kinds, (r.feet.x, r.feet.y, r.feet.z), r.radius)
