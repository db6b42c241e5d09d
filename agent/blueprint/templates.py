"""Structures from templates: plain data in server-config/structures/*.yaml (a house, a wall, a
tower, ...), each filled in with a few values a goal's words give ("a tower 6 high of
cobblestone") and placed where the bot looks or around a thing. A template's language:

    names: [house, hut, shelter]         the words that name it in a goal
    placed: ahead                        ahead: its front `ahead` blocks before the feet block,
    ahead: 2                             centred on the bot's line; around: centred on a thing
    level: 0                             its bottom's height from the feet block (-1: the ground's)
    inside: [x, y, z]                    optional: an air cell in it that the `shelter` check
                                         judges from: what is built is a shelter
    params:                              numbers, with bounds and the words that name them after
      height: {default: 3, min: 3, max: 6, words: [high, tall]}   a number ("6 blocks high"),
      material: {default: oak_planks}    and blocks (a block a goal names goes to the one of its
                                         family, by the last word: spruce_door to a door's)
    parts:                               in order, later parts win a cell:
      - {box: [[0, 0, 0], [size - 1, 0, size - 1]], block: material}   every cell, corner to corner
      - {sides: [[0, 0, 0], [size - 1, 2, size - 1]], block: material}  the box's upright sides only
      - {at: [2, 0, 0], block: "door[facing=south,half=lower]"}          one cell
                                         a block is a parameter's or a name, with a state or not;
                                         `air`: cells that must be empty

A number is a whole-number expression of the numeric parameters: + - * / (whole division) ( ).
A template is written as the builder sees it from its front: the front is the north side
(z = 0), the bot stands north of it looking south; placing turns it the way the bot looks (a
file's blueprint is placed as written: site.py).
World blocks: x east, y up, z south.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Literal, Union

from pydantic import Field, model_validator

from agent.blueprint.model import AIR, Structure
from agent.blueprint.site import AHEAD
from agent.checks.model import MAX_BLUEPRINT_CELLS, All, Blueprint, Cell, Check, Enclosure, Placement, Plan, Shelter
from agent.config.layers import StrictModel, load_model_file
from agent.errors import ConfigError
from agent.mc.blockstate import BlockState
from agent.mc.frame import STEPS
from agent.mc.geometry import Facing
from agent.paths import SERVER_CONFIG_DIR

STRUCTURES_DIR = SERVER_CONFIG_DIR / "structures"
MAX_AHEAD = 16  # blocks from the feet to a structure's front: farther is not "in front of" the bot

Number = Union[int, str]  # a whole number, or an expression of the numeric parameters
Corner = tuple[Number, Number, Number]


class StructureError(ConfigError):
    """A structure asked that no template builds, or with a value out of its bounds: one line
    saying what was asked and what is accepted."""


class Param(StrictModel):
    """A value a template takes: a whole number within bounds, or a block (a name)."""

    default: Union[int, str]
    min: int | None = None
    max: int | None = None
    words: list[str] = Field(default_factory=list, description="words after a number that name this parameter")

    @property
    def is_block(self) -> bool:
        return isinstance(self.default, str)

    @model_validator(mode="after")
    def _bounded(self) -> Param:
        if not self.is_block and (self.min is None or self.max is None or not self.min <= self.default <= self.max):
            raise ValueError("a number needs min <= default <= max")
        return self


class Part(StrictModel):
    """Cells of one block: a box (corner to corner, inclusive), its upright sides, or one cell."""

    box: tuple[Corner, Corner] | None = None
    sides: tuple[Corner, Corner] | None = None
    at: Corner | None = None
    block: str

    @model_validator(mode="after")
    def _one_shape(self) -> Part:
        if [self.box, self.sides, self.at].count(None) != 2:
            raise ValueError("a part is exactly one of box, sides or at")
        return self

    def cells(self, scope: dict[str, int]) -> list[Cell]:
        if self.at is not None:
            return [_cell(self.at, scope)]
        corners = self.box or self.sides
        assert corners is not None
        (x0, y0, z0), (x1, y1, z1) = (_cell(c, scope) for c in corners)
        xs, ys, zs = (range(min(a, b), max(a, b) + 1) for a, b in ((x0, x1), (y0, y1), (z0, z1)))
        return [(x, y, z) for x in xs for y in ys for z in zs
                if self.box is not None or x in (xs[0], xs[-1]) or z in (zs[0], zs[-1])]


class Template(StrictModel):
    """A structure with parameters (the module's docstring is its language)."""

    names: list[str] = Field(min_length=1)
    placed: Literal["ahead", "around"] = "ahead"
    ahead: int = Field(AHEAD, ge=1, le=MAX_AHEAD)
    level: int = Field(0, ge=-1, le=1)
    inside: Corner | None = None
    params: dict[str, Param] = Field(default_factory=dict)
    parts: list[Part] = Field(min_length=1)

    def values(self, asked: dict[str, Union[int, str]], name: str) -> dict[str, Union[int, str]]:
        """The defaults with the values asked; a number out of bounds or an unknown parameter
        is a StructureError naming what is accepted."""
        for key, value in asked.items():
            param = self.params.get(key)
            if param is None:
                raise StructureError(f"{name} takes {', '.join(self.params) or 'no parameters'}, not {key!r}")
            if not param.is_block and not (isinstance(value, int) and param.min <= value <= param.max):
                raise StructureError(f"{name}: {key} is {param.min} to {param.max}, not {value}")
        return {key: asked.get(key, param.default) for key, param in self.params.items()}

    def structure(self, values: dict[str, Union[int, str]], name: str) -> Structure:
        """The template's cells with these values, as written (front north), from its corner."""
        numbers = {k: v for k, v in values.items() if isinstance(v, int)}
        cells: dict[Cell, str] = {}
        for part in self.parts:
            block = _block(part.block, values)
            for cell in part.cells(numbers):
                cells[cell] = block
        lows = [min(c[i] for c in cells) for i in range(3)]
        highs = [max(c[i] for c in cells) for i in range(3)]
        if lows != [0, 0, 0]:
            raise StructureError(f"{name}: its lowest north-west corner is {tuple(lows)}, not (0, 0, 0)")
        blocks = [Placement(at=c, block=b) for c, b in cells.items() if BlockState.parse(b).name not in AIR]
        if not 1 <= len(blocks) <= MAX_BLUEPRINT_CELLS:
            raise StructureError(f"{name}: {len(blocks)} blocks (1 to {MAX_BLUEPRINT_CELLS} are built)")
        return Structure(source=f"template {name}", size=tuple(h + 1 for h in highs), blocks=blocks,
                         air=[c for c, b in cells.items() if BlockState.parse(b).name in AIR])


class Order(StrictModel):
    """A structure asked: a template, the values the words gave, and where it goes (`around` a
    block kind, placed on the nearest one; else `ahead` blocks before the feet, or the template's)."""

    template: str
    values: dict[str, Union[int, str]] = Field(default_factory=dict)
    ahead: int | None = Field(None, ge=1, le=MAX_AHEAD)
    around: str | None = None

    def check(self, feet: Cell, facing: Facing, thing: Cell | None = None) -> Check:
        """The check of the structure placed in the world: its blueprint, and where it is a
        shelter (a house) that its inside is one. `feet`: the feet block; `thing`: the cell of
        what it goes around."""
        template = templates()[self.template]
        values = template.values(self.values, self.template)
        written = template.structure(values, self.template)
        if template.placed == "around":
            if thing is None:
                raise ValueError(f"{self.template} goes around a thing: its cell is needed")
            sx, _, sz = written.size
            site = _Site(origin=thing, centre=((sx - 1) // 2, (sz - 1) // 2), forward=STEPS["south"], back=0,
                         level=0)
        else:
            site = _Site(origin=feet, centre=((written.size[0] - 1) // 2, 0), forward=STEPS[facing],
                         back=self.ahead or template.ahead, level=template.level)
        # The air it is written with is cleared too: on a natural world the ground stands in a
        # house's inside (a grass block where its shelter's cell must be open).
        cells = [(site.cell(p.at), site.block(p.block)) for p in written.blocks] + \
                [(site.cell(at), "air") for at in written.air]
        anchor = (min(c[0] for c, _ in cells), min(c[1] for c, _ in cells), min(c[2] for c, _ in cells))
        plan = Blueprint(blueprint=Plan(anchor=anchor, blocks=[
            Placement(at=(x - anchor[0], y - anchor[1], z - anchor[2]), block=b) for (x, y, z), b in cells]))
        if template.inside is None:
            return plan
        numbers = {k: v for k, v in values.items() if isinstance(v, int)}
        inside = site.cell(_cell(template.inside, numbers))
        return All(all=[plan, Shelter(shelter=Enclosure(at=inside))])


class _Site(StrictModel):
    """Where a written template goes: its cell `centre` ([x, z] as written) `back` blocks before
    `origin` along `forward` (the bot's look), its bottom `level` above origin's."""

    origin: Cell
    centre: tuple[int, int]
    forward: tuple[int, int]
    back: int
    level: int

    def cell(self, at: Cell) -> Cell:
        x, y, z = at
        dx, dz = self._turned(x - self.centre[0], z + self.back - self.centre[1])
        return self.origin[0] + dx, self.origin[1] + self.level + y, self.origin[2] + dz

    def _turned(self, across: int, along: int) -> tuple[int, int]:
        """A step as written (x to the left of a bot looking south, z forward) in the world."""
        fx, fz = self.forward
        return across * fz + along * fx, -across * fx + along * fz

    def block(self, spec: str) -> str:
        """The block with its facing and axis turned as the structure is."""
        state = BlockState.parse(spec)
        props = dict(state.properties)
        if "facing" in props and props["facing"] in STEPS:
            dx, dz = self._turned(*STEPS[props["facing"]])  # type: ignore[index]
            props["facing"] = next(f for f, step in STEPS.items() if step == (dx, dz))
        if props.get("axis") in ("x", "z") and self.forward[0] != 0:
            props["axis"] = "z" if props["axis"] == "x" else "x"
        return BlockState(name=state.name, properties=props).spec()


@cache
def templates() -> dict[str, Template]:
    """Every template in server-config/structures/, by its file's name."""
    return {path.stem: load_template(path) for path in sorted(STRUCTURES_DIR.glob("*.yaml"))}


def load_template(path: Path) -> Template:
    """A template from its file; one that cannot build with its defaults is a bad file, named."""
    template = load_model_file(Template, path)
    try:
        template.structure(template.values({}, path.stem), path.stem)
    except (StructureError, ValueError) as e:
        raise StructureError(f"{path}: {e}") from None
    return template


def _block(spec: str, values: dict[str, Union[int, str]]) -> str:
    """A part's block: a parameter's block with the state written after it, or a block spec."""
    name, _, state = spec.partition("[")
    value = values.get(name, name)
    if not isinstance(value, str):
        raise StructureError(f"{spec!r}: {name} is a number, not a block")
    return BlockState.parse(f"{value}[{state}" if state else value).spec()


def _cell(corner: Corner, scope: dict[str, int]) -> Cell:
    x, y, z = (_number(v, scope) for v in corner)
    return (x, y, z)


_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_]+)|([-+*/()]))")


def _number(expr: Number, scope: dict[str, int]) -> int:
    """A whole-number expression of the parameters in `scope`: + - * / (whole division) ( )."""
    if isinstance(expr, int):
        return expr
    tokens: list[str | int] = []
    pos = 0
    while pos < len(expr.rstrip()):
        m = _TOKEN.match(expr, pos)
        if m is None:
            raise StructureError(f"{expr!r}: only whole numbers, parameters ({', '.join(scope)}), + - * / ( )")
        number, name, op = m.groups()
        if name is not None and name not in scope:
            raise StructureError(f"{expr!r}: no parameter {name!r} (there are {', '.join(scope) or 'none'})")
        tokens.append(int(number) if number else scope[name] if name else op)
        pos = m.end()
    try:
        value, rest = _sum(tokens)
    except StructureError as e:
        raise StructureError(f"{expr!r}: {e}") from None
    if rest:
        raise StructureError(f"{expr!r}: unexpected {rest[0]!r}")
    return value


def _sum(tokens: list[str | int]) -> tuple[int, list[str | int]]:
    value, tokens = _product(tokens)
    while tokens and tokens[0] in ("+", "-"):
        op, (right, tokens) = tokens[0], _product(tokens[1:])
        value = value + right if op == "+" else value - right
    return value, tokens


def _product(tokens: list[str | int]) -> tuple[int, list[str | int]]:
    value, tokens = _atom(tokens)
    while tokens and tokens[0] in ("*", "/"):
        op, (right, tokens) = tokens[0], _atom(tokens[1:])
        value = value * right if op == "*" else value // right
    return value, tokens


def _atom(tokens: list[str | int]) -> tuple[int, list[str | int]]:
    if not tokens:
        raise StructureError("an expression ends too soon")
    first, rest = tokens[0], tokens[1:]
    if first == "-":
        value, rest = _atom(rest)
        return -value, rest
    if first == "(":
        value, rest = _sum(rest)
        if not rest or rest[0] != ")":
            raise StructureError("an expression lacks a closing )")
        return value, rest[1:]
    if isinstance(first, int):
        return first, rest
    raise StructureError(f"an expression has {first!r} where a number belongs")
