"""Every number a world tool sends to the bot is finite and within its range: each float
argument of each world tool refuses NaN, infinities and 1e308, and the executor refuses NaN
and infinities for any tool before it runs."""

from __future__ import annotations

import typing

import pytest
from pydantic import BaseModel, ValidationError

from agent.infospace import Infospace
from agent.paths import WORLD_TOOLS_DIR
from agent.tools import Executor, load_toolbox, standard_sources
from agent.tools.runners import import_entry

HOSTILE = (float("nan"), float("inf"), float("-inf"), 1e308, -1e308)


def _numeric_fields(model: type[BaseModel]) -> list[str]:
    def numeric(annotation: object) -> bool:
        args = typing.get_args(annotation)
        return annotation in (float, int) or any(numeric(a) for a in args)

    return [name for name, field in model.model_fields.items() if numeric(field.annotation)]


def _args_model(folder) -> type[BaseModel] | None:
    module = import_entry(folder.name, folder / "tool.py").__globals__
    return module.get("Args")


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


def test_the_executor_refuses_nan_and_infinity_for_any_tool() -> None:
    toolbox = load_toolbox(standard_sources("minecraft", []))
    executor = Executor(toolbox, Infospace.open(":memory:"))
    for action in ({"type": "mc-look", "yaw": float("nan")}, {"type": "think", "thought": "x", "n": [1, float("inf")]}):
        result = executor.execute_action(action)
        assert result.code == "bad_args" and "expected a finite number" in result.reason, result
