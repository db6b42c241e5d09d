"""Every number a world tool sends to the bot is finite and within its range: each numeric
argument of each world tool refuses NaN, infinities and 1e308 and takes nothing beyond the world
border; the schema made from its model (what the planner reads and the executor checks) takes
what the model takes, within the bounds it states; the executor refuses NaN and infinities for
any tool, anywhere in its arguments, before it runs. The bridge checks none of it again."""

from __future__ import annotations

import math
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from agent.infospace import Infospace
from agent.paths import WORLD_TOOLS_DIR
from agent.tools import Executor, load_toolbox, standard_sources
from agent.tools.runners import args_model
from agent.tools.schema import JsonSchema, check_args
from agent.world.toolkit import WORLD_BORDER, _first_problem

HOSTILE = (float("nan"), float("inf"), float("-inf"), 1e308, -1e308)


def _numeric_fields(model: type[BaseModel]) -> list[str]:
    """Fields that take a number, alone or optional (a cell [x, y, z] is not one number)."""
    def numeric(annotation: object) -> bool:
        if typing.get_origin(annotation) in (tuple, list):
            return False
        args = typing.get_args(annotation)
        return annotation in (float, int) or any(numeric(a) for a in args)

    return [name for name, field in model.model_fields.items() if numeric(field.annotation)]


def _args_model(folder) -> type[BaseModel] | None:
    return args_model(folder.name, folder / "tool.py")


# The world tools with numeric arguments (the others take none, or only words and flags).
MODELS = {folder.name: model for folder in sorted((WORLD_TOOLS_DIR / "minecraft").glob("*/"))
          if (folder / "tool.py").is_file() and (model := _args_model(folder)) is not None and _numeric_fields(model)}


def test_the_tools_that_take_numbers_are_all_looked_at() -> None:
    assert {"mc-look", "mc-goto", "mc-move", "mc-dig", "mc-place", "mc-wait"} <= set(MODELS)


@pytest.mark.parametrize("tool", sorted(MODELS))
def test_every_numeric_argument_of_a_world_tool_refuses_what_is_not_a_sane_number(tool: str) -> None:
    model = MODELS[tool]
    for name in _numeric_fields(model):
        for bad in HOSTILE:
            with pytest.raises(ValidationError) as raised:
                model.model_validate({name: bad})
            assert any(e["loc"][:1] == (name,) for e in raised.value.errors()), (tool, name, bad)


# What the tools that require arguments need besides the one under test.
REQUIRED = {"mc-goto": {"x": 0, "y": 5, "z": 0}, "mc-dig-stairs": {"direction": "up"}, "mc-place": {"item": "dirt"},
            "mc-wait": {"seconds": 1}, "mc-collect": {"block": "oak_log"}, "mc-find": {"items": True},
            "mc-approach": {"block": "gold_block"}, "mc-follow": {"player": "Steve"},
            "mc-build": {"shape": "wall", "block": "dirt"}, "mc-craft": {"item": "stick"}, "mc-smelt": {"item": "iron_ingot"},
            "mc-give": {"player": "Alex", "item": "iron_ingot"}, "mc-tell": {"player": "Alex", "text": "hi"}}


@pytest.mark.parametrize("tool", sorted(MODELS))
def test_a_refusal_names_the_argument_and_both_ends_of_its_range(tool: str) -> None:
    model = MODELS[tool]
    for name in _numeric_fields(model):
        with pytest.raises(ValidationError) as raised:
            model.model_validate({**REQUIRED.get(tool, {}), name: 1e308})
        reason = _first_problem(raised.value, model)
        assert reason.startswith(f"{name}: expected a") and " from " in reason and " to " in reason, reason


def test_the_executor_refuses_nan_and_infinity_for_any_tool() -> None:
    toolbox = load_toolbox(standard_sources("minecraft", []))
    executor = Executor(toolbox, Infospace.open(":memory:"))
    for action in ({"type": "mc-look", "yaw": float("nan")}, {"type": "think", "thought": "x", "n": [1, float("inf")]}):
        result = executor.execute_action(action)
        assert result.code == "bad_args" and "expected a finite number" in result.reason, result


TOOLBOX = load_toolbox(standard_sources("minecraft", []))
NUMBERS = st.floats(allow_nan=True, allow_infinity=True) | st.integers(-2 * WORLD_BORDER, 2 * WORLD_BORDER)


def _takes(model: type[BaseModel], name: str, value: Any) -> bool:
    """Whether the field takes `value` (the model as a whole may still want other arguments)."""
    try:
        model.model_validate({name: value})
    except ValidationError as e:
        return not any(error["loc"][:1] == (name,) for error in e.errors())
    return True


def _integer(model: type[BaseModel], name: str) -> bool:
    def floats(annotation: object) -> bool:
        return annotation is float or any(floats(a) for a in typing.get_args(annotation))

    return not floats(model.model_fields[name].annotation)


@pytest.mark.parametrize("tool", sorted(MODELS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_world_tool_takes_only_finite_numbers_in_the_world_and_its_schema_agrees(tool: str, data) -> None:
    model, schema = MODELS[tool], TOOLBOX.tools[tool].schema_hint
    for name in _numeric_fields(model):
        value = data.draw(st.integers(-2 * WORLD_BORDER, 2 * WORLD_BORDER) if _integer(model, name) else NUMBERS)
        taken = _takes(model, name, value)
        if taken:
            assert math.isfinite(value) and abs(value) <= WORLD_BORDER, (tool, name, value)
        stated = schema.properties.get(name)
        if stated is not None and (stated.minimum is not None or stated.maximum is not None):
            alone = JsonSchema(type="object", properties={name: stated})
            assert taken == (check_args(alone, {name: value}) is None), (tool, name, value)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)
OPEN_OBJECT = JsonSchema.model_validate({"type": "object", "additionalProperties": True})


def _unfinite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(_unfinite(item) for item in items)


@settings(max_examples=300, deadline=None)
@given(args=st.dictionaries(st.text(max_size=4), JSON_VALUES, max_size=4))
def test_check_args_refuses_nan_and_infinity_wherever_they_are(args: dict[str, Any]) -> None:
    reason = check_args(OPEN_OBJECT, args)
    assert (reason is not None) == _unfinite(args)
    if reason is not None:
        assert "expected a finite number" in reason and "\n" not in reason


@pytest.mark.parametrize("tool", ["mc-look", "mc-dig", "mc-place"])
def test_a_world_point_is_x_y_and_z_together(tool: str) -> None:
    """The bridge takes a point as checked: half of one once became (5, undefined, undefined)."""
    model = _args_model(WORLD_TOOLS_DIR / "minecraft" / tool)
    with pytest.raises(ValidationError) as raised:
        model.model_validate({**REQUIRED.get(tool, {}), "x": 5, "z": 1})
    assert "needs x, y and z together (got only x, z)" in _first_problem(raised.value, model)
    model.model_validate({**REQUIRED.get(tool, {}), "x": 5, "y": 4, "z": 1})


def test_a_guard_holds_numbers_written_as_text_too() -> None:
    model = MODELS["mc-goto"]
    for bad in ("1e308", "nan", "-inf"):
        with pytest.raises(ValidationError) as raised:
            model.model_validate({"x": bad, "y": 5, "z": 0})
        assert _first_problem(raised.value, model).startswith("x: expected a number from -30000000 to 30000000")


def test_a_blueprint_cell_outside_the_world_is_refused_whatever_its_offset() -> None:
    model = _args_model(WORLD_TOOLS_DIR / "minecraft" / "mc-build")
    for at in ([10**400, 0, 0], [0, 3000, 0]):
        with pytest.raises(ValidationError) as raised:
            model.model_validate({"anchor": [0, 5, 0], "blocks": [{"at": at, "block": "dirt"}]})
        assert "is outside the world" in _first_problem(raised.value, model)
