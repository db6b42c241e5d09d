"""Goal checks ("world predicates"): what must be true of the world for a task to be done.

A check is written in YAML or JSON as a mapping with one key, its predicate:

    sky_visible: true                           nothing opaque above the head, up to the build limit
    feet_y_at_least: 5                          the feet (float y) are at least this high
    outside: {from: [x, y, z], to: [x, y, z]}   the feet block is outside this box (inclusive corners)
    within: {x: 0.5, y: 5, z: 12.5, distance: 2}  the feet are this close (3D, blocks) to a point
    standing_on_ground: true                    the bot stands on something
    has_item: {name: cobblestone, count: 3}     at least `count` (default 1) summed over stacks
    team_has: {name: shears, count: 1}          any bot of the team holds that many: the bots of
                                                this process on the same server (a team run's
                                                bots share one bridge); a bot alone is its team
    near_block: {block: gold_block, distance: 2}  a block of that kind this close (blocks, 3D) to the
                                                feet; its verdict never says where one is
    standing_on: {block: stone}                 the bot stands on the ground on a block of that kind
    blueprint: {anchor: [x, y, z], blocks: [{at: [dx, dy, dz], block: stone}, ...]}
                                                every cell anchor + at holds its block, in the state
                                                asked (`oak_door[facing=east,half=lower]`: the
                                                properties a placer chooses); the verdict gives
                                                the share right (matches / cells)
    block_at: {at: [x, y, z], block: stone}     that world cell holds that block
    shelter: true  (or {at: [x, y, z]})         the air around the feet block (or that cell) is a
                                                shelter: closed in, roofed, room to stand, a door
                                                (bridge/helpers/shelter.js)
    near_player: {name: alex, distance: 3}      another player is this close (blocks, 3D) to the feet
    container_has: {at: [x, y, z], name: oak_log, count: 5}
                                                the chest there holds at least that many (without
                                                `at`: a chest within 16 blocks of the feet does;
                                                its verdict never says where)
    avoided: lava  (or [lava, fire])            the body has not been in such a block since the run began
    all: [checks]   any: [checks]   not: check

Every predicate but `avoided` reads the world as it is now; `avoided` reads the way there: the
bridge records each block the bot's body overlaps, tick by tick (bridge/helpers/contact.js),
from the start of the run (`mcagent run` and each eval episode: agent/session/run.py).

Positions are world blocks: x east, y up, z south. The feet position is the bot's position;
the feet block is its floor. bridge/helpers/goal.js evaluates a whole check in one call
(agent/checks/evaluate.py). Each predicate is a model whose one field is its key, so its dump
is its YAML form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args

import yaml
from pydantic import BeforeValidator, Field, StrictFloat, StrictInt, ValidationError

from agent.config.layers import StrictModel, read_yaml_layer
from agent.errors import ConfigError
from agent.mc.blockstate import BlockSpec
from agent.mc.names import MAX_ITEM_COUNT, BlockName, Item, ItemName
from agent.mc.transform import Transform

# Strict types: YAML's `true` or `"5"` must not pass for a number, nor 2.0 for a block coordinate.
Cell = tuple[StrictInt, StrictInt, StrictInt]
MAX_NEAR_DISTANCE = 16.0  # near_block searches the blocks this close; farther is not near


class CheckError(ConfigError):
    """A bad check. Its message starts with the path of the bad part (`success.all[1].within`)."""


def _exactly_true(value: Any) -> Any:
    if value is not True:  # Literal[True] alone lets 1 and 1.0 through
        raise ValueError("only true is accepted")
    return value


TrueOnly = Annotated[Literal[True], BeforeValidator(_exactly_true)]


def _block_names(value: Any) -> Any:
    """`lava` or `[lava, fire]`, always as a list."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise ValueError("expected a block name such as lava, or a list of them")
    return value


BlockNames = Annotated[list[BlockName], BeforeValidator(_block_names), Field(min_length=1)]


def _num(v: float) -> str:
    """5.0 -> '5', 0.5 -> '0.5': numbers as a person writes them."""
    return f"{v:g}"


class Area(StrictModel):
    """Every block cell from one corner to the other (world blocks, inclusive, any order)."""

    from_: Cell = Field(alias="from")
    to: Cell

    def contains(self, x: int, y: int, z: int) -> bool:
        return all(min(a, b) <= v <= max(a, b) for v, a, b in zip((x, y, z), self.from_, self.to))

    def span(self) -> str:
        """'x -1..1 y 5..6 z 0..9'."""
        return " ".join(f"{axis} {min(a, b)}..{max(a, b)}" for axis, a, b in zip("xyz", self.from_, self.to))

    def transformed(self, t: Transform) -> Area:
        """The same cells after a seed's turns and mirror: both corners move, the box stays a box."""
        return self.model_copy(update={"from_": t.cell(*self.from_), "to": t.cell(*self.to)})


class Sphere(StrictModel):
    """A point (world blocks, float) and a distance from it in blocks."""

    x: StrictFloat
    y: StrictFloat
    z: StrictFloat
    distance: StrictFloat = Field(gt=0)


class Nearness(StrictModel):
    """A block kind, and how close one must be: blocks, 3D, from the feet position to the block's
    centre. The default 2 holds standing beside the block (1.1) or on it (0.5), not one cell off."""

    block: BlockName
    distance: StrictFloat = Field(2.0, gt=0, le=MAX_NEAR_DISTANCE)


class Ground(StrictModel):
    """A block kind to stand on."""

    block: BlockName


class PlayerNearness(StrictModel):
    """Another player by username, and how close (blocks, 3D, feet to feet) it must be."""

    name: str = Field(pattern=r"^\w{3,16}$", description="a username")
    distance: StrictFloat = Field(3.0, gt=0, le=MAX_NEAR_DISTANCE)


class Placement(StrictModel):
    """A block at a world cell (or, in a blueprint, at an offset from its anchor): a name, or a
    name with the state asked of it, `oak_stairs[facing=east,half=bottom]` (agent/mc/blockstate.py)."""

    at: Cell
    block: BlockSpec


MAX_BLUEPRINT_CELLS = 8192  # a 20 x 20 x 20 build


class Plan(StrictModel):
    """Blocks at offsets (x east, y up, z south, in blocks) from an anchor cell in the world."""

    anchor: Cell
    blocks: list[Placement] = Field(min_length=1, max_length=MAX_BLUEPRINT_CELLS)

    def cells(self) -> list[tuple[tuple[int, int, int], str]]:
        """Each world cell and the block it must hold."""
        ax, ay, az = self.anchor
        return [((ax + p.at[0], ay + p.at[1], az + p.at[2]), p.block) for p in self.blocks]

    def transformed(self, t: Transform) -> Plan:
        """The same cells after a seed's turns and mirror: each moves, the anchor with them."""
        anchor = t.cell(*self.anchor)
        blocks = []
        for (x, y, z), block in self.cells():
            cx, cy, cz = t.cell(x, y, z)
            blocks.append(Placement(at=(cx - anchor[0], cy - anchor[1], cz - anchor[2]), block=block))
        return Plan(anchor=anchor, blocks=blocks)


class Standing(StrictModel):
    """The bot imagined standing in a feet block (world blocks), with what is known of that cell."""

    x: int
    y: int
    z: int
    sky: bool  # nothing opaque above the head there


class Predicate(StrictModel):
    """One check. Its only field is its YAML key; transforms leave it alone unless it names a place."""

    def describe(self) -> str:
        return _key(type(self))

    @property
    def kind(self) -> str:
        """Its YAML key: has_item, within, all, ..."""
        return _key(type(self))

    def at_cell(self, cell: Standing) -> bool | None:
        """Whether the check would hold with the bot standing in `cell`; None when where it stands
        does not decide it (an item, a block elsewhere). Lets a search aim at places that satisfy it."""
        return None

    def as_data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)

    def transformed(self, t: Transform) -> Check:
        return self

    def mine(self) -> Check:
        """The check as one bot of a team works towards it: team_has as has_item (whoever holds
        it, this bot gets it if it can; asking a teammate is a need's, agent/goals/asking.py)."""
        return self


class Flag(Predicate):
    """A predicate written `key: true`; any other value is an error (negate with `not`)."""


class SkyVisible(Flag):
    sky_visible: TrueOnly

    def at_cell(self, cell: Standing) -> bool | None:
        return cell.sky


class StandingOnGround(Flag):
    standing_on_ground: TrueOnly

    def at_cell(self, cell: Standing) -> bool | None:
        return True


class FeetYAtLeast(Predicate):
    feet_y_at_least: StrictFloat

    def describe(self) -> str:
        return f"feet_y_at_least {_num(self.feet_y_at_least)}"

    def at_cell(self, cell: Standing) -> bool | None:
        return cell.y >= self.feet_y_at_least


class Outside(Predicate):
    outside: Area

    def describe(self) -> str:
        return f"outside {self.outside.span()}"

    def at_cell(self, cell: Standing) -> bool | None:
        return not self.outside.contains(cell.x, cell.y, cell.z)

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"outside": self.outside.transformed(t)})


class Within(Predicate):
    within: Sphere

    def describe(self) -> str:
        s = self.within
        return f"within {_num(s.distance)} of ({_num(s.x)}, {_num(s.y)}, {_num(s.z)})"

    def at_cell(self, cell: Standing) -> bool | None:
        s = self.within  # the feet stand at the block's centre, on its floor
        return ((cell.x + 0.5 - s.x) ** 2 + (cell.y - s.y) ** 2 + (cell.z + 0.5 - s.z) ** 2) ** 0.5 <= s.distance

    def transformed(self, t: Transform) -> Check:
        x, y, z = t.point(self.within.x, self.within.y, self.within.z)
        return self.model_copy(update={"within": self.within.model_copy(update={"x": x, "y": y, "z": z})})


class HasItem(Predicate):
    has_item: Item

    def describe(self) -> str:
        return f"has_item {self.has_item.name} {self.has_item.count}"


class TeamHas(Predicate):
    team_has: Item

    def describe(self) -> str:
        return f"team_has {self.team_has.name} {self.team_has.count}"

    def mine(self) -> Check:
        return HasItem(has_item=self.team_has)


class NearBlock(Predicate):
    near_block: Nearness

    def describe(self) -> str:
        return f"near_block {self.near_block.block} {_num(self.near_block.distance)}"


class StandingOn(Predicate):
    """The bot stands on a block of that kind: on the ground, the block under its feet."""

    standing_on: Ground

    def describe(self) -> str:
        return f"standing_on {self.standing_on.block}"


class NearPlayer(Predicate):
    near_player: PlayerNearness

    def describe(self) -> str:
        return f"near_player {self.near_player.name} {_num(self.near_player.distance)}"


class Blueprint(Predicate):
    blueprint: Plan

    def describe(self) -> str:
        x, y, z = self.blueprint.anchor
        return f"blueprint of {len(self.blueprint.blocks)} cells at ({x}, {y}, {z})"

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"blueprint": self.blueprint.transformed(t)})


class BlockAt(Predicate):
    block_at: Placement

    def describe(self) -> str:
        x, y, z = self.block_at.at
        return f"block_at ({x}, {y}, {z}) {self.block_at.block}"

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"block_at": self.block_at.model_copy(update={"at": t.cell(*self.block_at.at)})})


class Enclosure(StrictModel):
    """The cell a shelter is judged from (world blocks): an air cell inside it."""

    at: Cell


def _true_or_cell(value: Any) -> Any:
    """`true` (around the feet) or {at: [x, y, z]} (around that cell); one line for anything else."""
    if value is True or isinstance(value, Enclosure):
        return value
    if isinstance(value, dict):
        try:
            return Enclosure.model_validate(value)
        except ValidationError:
            pass
    raise ValueError("expected true (around the feet) or {at: [x, y, z]} (around that cell)")


class Shelter(Predicate):
    """An enclosed air space: from the feet block (true) or the cell `at`, the cells a body passes
    through, filled six ways, never leave a bound (12 blocks each way, 400 cells), none sees the
    sky, one has a solid floor and room for the head, and a door stands in the wall (a door is
    passable to the fill only when open, so a closed one closes the space)."""

    shelter: Annotated[Union[Literal[True], Enclosure], BeforeValidator(_true_or_cell)]

    def describe(self) -> str:
        if self.shelter is True:
            return "shelter"
        x, y, z = self.shelter.at
        return f"shelter at ({x}, {y}, {z})"

    def transformed(self, t: Transform) -> Check:
        if self.shelter is True:
            return self
        return self.model_copy(update={"shelter": Enclosure(at=t.cell(*self.shelter.at))})


class Stock(StrictModel):
    """An item and how many of it a chest holds, summed over its slots; the chest at `at` (world
    cell) or, without it, any within 16 blocks of the feet."""

    at: Cell | None = None
    name: ItemName
    count: StrictInt = Field(1, ge=1, le=MAX_ITEM_COUNT)


class ContainerHas(Predicate):
    container_has: Stock

    def describe(self) -> str:
        stock = self.container_has
        where = f" at ({stock.at[0]}, {stock.at[1]}, {stock.at[2]})" if stock.at else ""
        return f"container_has {stock.name} {stock.count}{where}"

    def transformed(self, t: Transform) -> Check:
        stock = self.container_has
        return self if stock.at is None else self.model_copy(
            update={"container_has": stock.model_copy(update={"at": t.cell(*stock.at)})})


class Avoided(Predicate):
    avoided: BlockNames

    def describe(self) -> str:
        return f"avoided {' and '.join(self.avoided)}"

    def at_cell(self, cell: Standing) -> bool | None:
        return True  # the way there decides it, not the place: a search aims by the other parts


class All(Predicate):
    all: list[Check] = Field(min_length=1)

    def describe(self) -> str:
        return f"all({', '.join(c.describe() for c in self.all)})"

    def at_cell(self, cell: Standing) -> bool | None:
        found = [c.at_cell(cell) for c in self.all]
        return False if False in found else (True if all(found) else None)

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"all": [c.transformed(t) for c in self.all]})

    def mine(self) -> Check:
        return self.model_copy(update={"all": [c.mine() for c in self.all]})


class AnyOf(Predicate):
    any: list[Check] = Field(min_length=1)

    def describe(self) -> str:
        return f"any({', '.join(c.describe() for c in self.any)})"

    def at_cell(self, cell: Standing) -> bool | None:
        found = [c.at_cell(cell) for c in self.any]
        return True if True in found else (False if all(f is False for f in found) else None)

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"any": [c.transformed(t) for c in self.any]})

    def mine(self) -> Check:
        return self.model_copy(update={"any": [c.mine() for c in self.any]})


class Not(Predicate):
    not_: Check = Field(alias="not")

    def describe(self) -> str:
        return f"not({self.not_.describe()})"

    def at_cell(self, cell: Standing) -> bool | None:
        found = self.not_.at_cell(cell)
        return None if found is None else not found

    def transformed(self, t: Transform) -> Check:
        return self.model_copy(update={"not_": self.not_.transformed(t)})

    def mine(self) -> Check:
        return self.model_copy(update={"not_": self.not_.mine()})


Check = Union[All, AnyOf, Not, SkyVisible, FeetYAtLeast, Outside, Within, StandingOnGround, HasItem, TeamHas, NearBlock,
              NearPlayer, BlockAt, Blueprint, Shelter, ContainerHas, Avoided, StandingOn]
for _model in (All, AnyOf, Not):
    _model.model_rebuild()
COMBINATORS = (All, AnyOf, Not)


def _key(model: type[Predicate]) -> str:
    """The YAML key of a predicate: its only field's name (or alias)."""
    name, field = next(iter(model.model_fields.items()))
    return field.alias or name


PREDICATES: dict[str, type[Predicate]] = {_key(m): m for m in get_args(Check)}
ACCEPTED = ", ".join(PREDICATES)


def parse_check(data: Any, source: str) -> Check:
    """A check from its YAML/JSON form. `source` names where it came from (`success`, `check`).

    Raises CheckError (a ConfigError): one line naming the path of the bad part (`success.all[1].within`)
    and what is accepted there."""
    if isinstance(data, Predicate):
        return data
    if not isinstance(data, dict) or len(data) != 1:
        got = f"{len(data)} keys ({', '.join(map(str, data))})" if isinstance(data, dict) else repr(data)
        raise CheckError(f"{source}: a check is a mapping with exactly one key, its predicate ({ACCEPTED}); got {got}")
    ((key, value),) = data.items()
    model = PREDICATES.get(key)
    if model is None:
        raise CheckError(f"{source}: unknown predicate {key!r} (accepted: {ACCEPTED})")
    path = f"{source}.{key}"
    if model is Not:
        value = parse_check(value, path)
    elif model in COMBINATORS:
        if not isinstance(value, list) or not value:
            raise CheckError(f"{path}: expected a non-empty list of checks (got {value!r})")
        value = [parse_check(part, f"{path}[{i}]") for i, part in enumerate(value)]
    try:
        return model.model_validate({key: value})
    except ValidationError as e:
        raise CheckError("; ".join(_problem(model, err, source) for err in e.errors())) from None


def _problem(model: type[Predicate], err: Any, source: str) -> str:
    """One validation problem of a predicate's value, worded for the person who wrote it."""
    loc, kind, got = err["loc"], err["type"], err.get("input")
    where, parent = _path(source, loc), _path(source, loc[:-1])
    value_model = next(iter(model.model_fields.values())).annotation
    keys = ", ".join(f.alias or n for n, f in getattr(value_model, "model_fields", {}).items())
    if kind == "missing" and isinstance(loc[-1], int):  # a short [x, y, z]
        return f"{parent}: expected [x, y, z] (got {got!r})"
    if kind == "missing":
        return f"{parent}: missing key {loc[-1]!r}"
    if kind == "extra_forbidden":
        return f"{parent}: unknown key {loc[-1]!r} (accepted: {keys})"
    if issubclass(model, Flag):
        return f"{where}: only `true` is accepted, got {got!r} (for the opposite write `not: {{{loc[0]}: true}}`)"
    if kind == "model_type":
        return f"{where}: expected a mapping with keys {keys} (got {got!r})"
    return f"{where}: {err['msg'].removeprefix('Value error, ')} (got {got!r})"


def _path(source: str, loc: tuple[Any, ...]) -> str:
    """`success` and ('all', 1, 'within') -> 'success.all[1].within'."""
    return source + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def load_check(text: str) -> Check:
    """A check from a .yaml/.yml/.json file, or from inline YAML/JSON text (`sky_visible: true`,
    `{feet_y_at_least: 8}`). Any problem is one ConfigError line."""
    path = Path(text)
    if path.suffix in (".yaml", ".yml", ".json"):
        if not path.is_file():
            raise ConfigError(f"check file {path} does not exist")
        return parse_check(read_yaml_layer(path).values, f"{path}: check")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        problem = getattr(e, "problem", None) or type(e).__name__  # `problem` is the one-line part
        raise ConfigError(f"check: invalid YAML/JSON ({problem}) in {text!r}") from None
    return parse_check(data, "check")
