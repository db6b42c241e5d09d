"""What every Minecraft world tool does around its one bridge call.

A tool.py states its argument model, its bridge action and how to summarise the
result; `run_tool` does the rest the same way for all of them:
  1. find the bot (`executor.world`); failed `disconnected` when there is none (a bot that
     left the server fails its call at once with the reason, step 3);
  2. check the arguments against the model; failed `bad_args` naming the field;
  3. make the call; a bridge failure becomes failed with the bridge's code;
  4. for a tool that observes, moves or changes the terrain (`feeds_map`), survey the box around the bot into the
     run's map (agent.world.spatial); the map is a side channel, so a failed survey fails nothing;
  5. judge the result (a move that hit a wall is a failure, with the report as data);
  6. return the uniform result: data = the typed result as JSON, value = a one-line summary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from agent.bridge import BotConnection, BridgeError, timeouts
from agent.tools.model_schema import ArgsModel
from agent.tools.result import FAILURE_CODES, ToolFailure, ToolResult
from agent.world.spatial import memory_of, survey_into

A = TypeVar("A", bound="ToolArgs")
R = TypeVar("R", bound=BaseModel)
# Blocks each way the survey after an observing or moving tool covers: what a radius-8
# observation sees, for about 1 ms more per call (`mcagent bench tools`).
FEED_RADIUS = 8


# Every number that reaches the bot is finite and within its range: a yaw of 1e308 once turned
# into NaN in the bot and failed every later look and status of the session. The ranges below
# are guards, not choices the planner makes: the model checks them (run_tool) and the schema the
# planner reads leaves them out, so the catalog does not spend a line on the world border.
WORLD_BORDER = 30_000_000
BUILD_LIMIT = 2048


def _guard(kind: type[int] | type[float], low: int, high: int) -> Any:
    """`kind` held to [low, high], NaN refused: checked before parsing (so that 1e308 for an
    integer is named as out of range, not as unparseable) and after (a string parsed)."""
    def within(value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not low <= value <= high:
            raise ValueError(f"expected {'an integer' if kind is int else 'a number'} from {low} to {high}")
        return value
    return Annotated[kind, BeforeValidator(within), AfterValidator(within)]


# World coordinates in blocks (x east, z south: within the world border; y: the build height of
# any version, with room to spare).
WorldXZ = _guard(float, -WORLD_BORDER, WORLD_BORDER)
WorldY = _guard(float, -BUILD_LIMIT, BUILD_LIMIT)
# A block's world coordinates, the same bounds in whole blocks; a cell [x, y, z] of them.
BlockXZ = _guard(int, -WORLD_BORDER, WORLD_BORDER)
BlockY = _guard(int, -BUILD_LIMIT, BUILD_LIMIT)
WorldCell = tuple[BlockXZ, BlockY, BlockXZ]
_WORLD_CELL: TypeAdapter[tuple[int, int, int]] = TypeAdapter(WorldCell)
# Degrees, Minecraft's convention (agent/bridge/models.py): yaw 0 = south, 90 = west; pitch + looks down.
YawDeg = Annotated[float, Field(ge=-360, le=360, allow_inf_nan=False)]
PitchDeg = Annotated[float, Field(ge=-90, le=90, allow_inf_nan=False)]
# Blocks from the bot along its own axes (forward, right, up): farther than any reach.
Offset = _guard(int, -64, 64)


def menu(*values: int | float) -> dict[str, Any]:
    """A number field's `json_schema_extra`: the short menu a planner's decoding offers
    (agent/tools/schema.py), where a model would write any number the bounds allow."""
    return {"menu": list(values)}


def unbounded_in_schema(schema: dict[str, Any]) -> None:
    """A long list's `json_schema_extra`: its bound (a blueprint's 8192 cells) is checked by the
    model, not shown, since a grammar spells maxItems out as nested repetitions and thousands of
    them are more than llama.cpp parses."""
    for node in (schema, *schema.get("anyOf", [])):  # an optional field's bounds are on its non-null type
        node.pop("maxItems", None)


# The menus most tools share: how far to look for something, how many to get, blocks to climb or go.
RADII, COUNTS, BLOCKS = menu(8, 16, 32), menu(1, 2, 3, 4, 8, 16), menu(1, 2, 3, 4, 5, 6, 8)


class ToolArgs(ArgsModel):
    """A world tool's arguments. Unknown keys are errors; None-valued ones are not sent to the bridge."""

    def bridge_args(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class NoArgs(ToolArgs):
    """For tools that take no arguments."""


def in_world(cell: tuple[int, int, int]) -> bool:
    """Whether a block's world coordinates pass WorldCell's guards (a sum of cell and offset, say)."""
    try:
        _WORLD_CELL.validate_python(cell)
    except ValidationError:
        return False
    return True


def whole_point(args: BaseModel) -> None:
    """A world point or block is x, y and z together, or none of them."""
    given = [axis for axis in "xyz" if getattr(args, axis) is not None]
    if given and len(given) < 3:
        raise ValueError(f"a world point needs x, y and z together (got only {', '.join(given)})")


class BlockTarget(ToolArgs):
    """A block to act on: egocentric offsets (forward, right, up; missing ones are 0) or a world block x, y, z.
    The bridge (target.js) checks that one form, not both, is given; the grammar writes one
    (agent/tools/schema.py's Form), the world block one of the places the run knows."""

    model_config = ConfigDict(json_schema_extra={"forms": [
        {"required": ["forward"], "absent": ["x", "y", "z"]},
        {"required": ["x", "y", "z"], "absent": ["forward", "right", "up"]}]})
    forward: Offset | None = Field(None, description="egocentric offset of the block from the feet block")
    right: Offset | None = None
    up: Offset | None = None
    x: BlockXZ | None = Field(None, description="or a world block (with y and z)", json_schema_extra={"domain": "place"})
    y: BlockY | None = Field(None, json_schema_extra={"domain": "place"})
    z: BlockXZ | None = Field(None, json_schema_extra={"domain": "place"})

    @model_validator(mode="after")
    def _whole_block(self) -> BlockTarget:
        whole_point(self)
        if (self.x is None) == all(getattr(self, k) is None for k in ("forward", "right", "up")):
            raise ValueError("give either offsets forward/right/up or a world block x, y, z, not both")
        return self


def run_tool(
    kwargs: dict[str, Any],
    args_model: type[A],
    act: Callable[[BotConnection, A], Any],
    result_model: type[R],
    summarize: Callable[[R], str],
    judge: Callable[[R], tuple[str, str] | None] = lambda result: None,
    *,
    feeds_map: bool = False,
) -> ToolResult:
    """Runs one world tool call (see the module docstring); never raises."""
    kwargs = dict(kwargs)
    executor = kwargs.pop("executor", None)
    bot = getattr(executor, "world", None)
    if not isinstance(bot, BotConnection):
        return ToolResult.failure("disconnected", "no Minecraft bot is connected")
    kwargs.pop("input_value", None)
    try:
        args = args_model.model_validate(kwargs)
    except ValidationError as e:
        return ToolResult.failure("bad_args", _first_problem(e, args_model))
    try:
        result = result_model.model_validate(act(bot, args))
    except BridgeError as e:
        code = e.code if e.code in FAILURE_CODES else "tool_failed"
        return ToolResult.failure(code, str(e))
    if feeds_map:
        _feed(bot, executor)
    verdict = judge(result)
    if verdict is not None:
        code, reason = verdict
        return ToolResult.failure(code, reason, result.model_dump(mode="json"))
    return ToolResult.success(result.model_dump(mode="json"), summarize(result))


def stopped_unless_completed(summarize: Callable[[R], str]) -> Callable[[R], tuple[str, str] | None]:
    """The judge of a run of checked steps (bridge/helpers/stepwise.js: mc-pillar-up, mc-dig-stairs,
    mc-tunnel): a failure coded by its stop reason, with its detail, unless it completed."""
    def judge(r: R) -> tuple[str, str] | None:
        return None if r.stop_reason == "completed" else (r.stop_reason, f"{r.detail}; {summarize(r)}")
    return judge


def stop_if_cancelled(executor: Any) -> None:
    """Between the bridge calls of a tool that makes many (mc-explore): once a python tool it runs
    under has outlived its timeout, it stops here, so that a hung tool cannot keep driving the bot."""
    if executor.cancelled:
        raise ToolFailure("timeout", "stopped: the python tool it ran under outlived its timeout")


def call(action: str, *, timeout_s: float = timeouts.CALL_S) -> Callable[[BotConnection, ToolArgs], Any]:
    """The usual act: one helper action with the tool's arguments as they are."""
    return lambda bot, args: bot.call(action, args.bridge_args(), timeout_s=timeout_s)


def _feed(bot: BotConnection, executor: Any) -> None:
    """One survey into the executor's map. A bot that just left, or a survey the bridge could not
    make, leaves the map as it was: the tool's own result stands."""
    try:
        survey_into(bot, memory_of(executor), FEED_RADIUS)
    except (BridgeError, ValidationError):
        pass


def _first_problem(error: ValidationError, model: type[ToolArgs]) -> str:
    err = error.errors()[0]
    key = ".".join(str(p) for p in err["loc"]) or "arguments"
    if err["type"] == "extra_forbidden":
        return f"unknown argument {key!r}"
    accepted = _accepted_range(model, err["loc"]) if err["type"] in _OUT_OF_RANGE else None
    message = accepted or err["msg"].removeprefix("Value error, ")
    return f"{key}: {message} (got {err.get('input')!r})"


# Pydantic's errors for a number out of its bounds, not finite, or too big for an integer: each
# names at most one bound.
_OUT_OF_RANGE = {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number",
                 "int_parsing_size"}


def _accepted_range(model: type[ToolArgs], loc: tuple[int | str, ...]) -> str | None:
    """What an argument accepts, both bounds: "expected a number from -360 to 360"."""
    field = model.model_json_schema()["properties"].get(loc[0], {}) if len(loc) == 1 else {}
    for option in [field, *field.get("anyOf", [])]:
        if "minimum" in option and "maximum" in option:
            kind = "an integer" if option.get("type") == "integer" else "a number"
            return f"expected {kind} from {option['minimum']} to {option['maximum']}"
    return None


def fmt_offset(forward: int, right: int, up: int) -> str:
    """An egocentric offset as people read it: 'forward 3, down 1'."""
    parts = []
    for n, pos, neg in ((forward, "forward", "back"), (right, "right", "left"), (up, "up", "down")):
        if n:
            parts.append(f"{pos if n > 0 else neg} {abs(n)}")
    return ", ".join(parts) or "here"
