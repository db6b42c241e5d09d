"""A python tool's arguments, stated once in its tool.py's `Args` model: the schema the planner
reads and the executor checks is made from it at load, in the schemas' subset; a model the subset
cannot express, or a tool.py that cannot be imported, is one load error naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from agent.infospace import Infospace
from agent.tools import Executor, ToolSource, load_toolbox
from agent.tools.model_schema import ModelSchemaError, model_schema, model_slots
from support.tool_folders import python_tool


class _Cell(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: tuple[int, int, int]
    name: str = Field(pattern=r"^[a-z]+$")


class _Args(BaseModel):
    radius: int = Field(8, ge=1, le=16, description="blocks each way")
    shape: Literal["wall", "pillar"] | None = None
    cell: tuple[Annotated[int, Field(ge=-5, le=5)], Annotated[int, Field(ge=0, le=9)]] | None = None
    cells: list[_Cell] = Field([], max_length=4)
    block: str = Field(description="what to place", json_schema_extra={"prompt": "Which block?", "verified": False})


def test_the_schema_is_the_models_in_the_subset_required_first() -> None:
    schema = model_schema(_Args).dump()
    assert list(schema["properties"]) == ["block", "radius", "shape", "cell", "cells"]
    assert schema["required"] == ["block"]
    assert schema["properties"]["radius"] == {"type": "integer", "minimum": 1, "maximum": 16, "default": 8,
                                              "description": "blocks each way"}
    assert schema["properties"]["shape"] == {"type": "string", "enum": ["wall", "pillar"]}  # None is not offered
    assert schema["properties"]["block"] == {"type": "string", "description": "what to place"}


def test_a_tuple_is_a_list_of_its_length_taking_the_widest_bounds_and_a_nested_model_is_written_out() -> None:
    props = model_schema(_Args).dump()["properties"]
    assert props["cell"] == {"type": "array", "minItems": 2, "maxItems": 2,
                             "items": {"type": "integer", "minimum": -5, "maximum": 9}}
    cell = props["cells"]["items"]
    assert cell["required"] == ["at", "name"] and cell["properties"]["name"] == {"type": "string"}  # no pattern
    assert props["cells"]["maxItems"] == 4 and props["cells"]["default"] == []


def test_a_list_or_dict_of_any_json_value_is_its_type_alone_and_a_typed_dict_is_an_error() -> None:
    class Loose(BaseModel):
        values: list[JsonValue] = []
        options: dict[str, JsonValue] = {}

    props = model_schema(Loose).dump()["properties"]
    assert props == {"values": {"type": "array", "default": []},
                     "options": {"type": "object", "additionalProperties": True, "default": {}}}

    class Counts(BaseModel):
        by_name: dict[str, int]

    with pytest.raises(ModelSchemaError, match="Counts.by_name: a dict's values must be any JSON value"):
        model_schema(Counts)


def test_slots_come_from_the_model_only_when_a_field_says_what_to_ask_or_confirm() -> None:
    slots = model_slots(_Args, model_schema(_Args))
    block = next(s for s in slots if s.name == "block")
    assert (block.prompt, block.verified, block.required, block.type) == ("Which block?", False, True, "string")
    assert next(s for s in slots if s.name == "shape").enum == ["wall", "pillar"]

    class Plain(BaseModel):
        radius: int = 4

    assert model_slots(Plain, model_schema(Plain)) is None


def test_what_the_subset_cannot_say_is_an_error_naming_the_model() -> None:
    class Either(BaseModel):
        value: int | str

    with pytest.raises(ModelSchemaError, match="Either.value: an argument may take one type"):
        model_schema(Either)

    class Open(BaseModel):
        above: float = Field(1, gt=0)

    with pytest.raises(ModelSchemaError, match="Open.above: JSON schema keyword 'exclusiveMinimum' is not one"):
        model_schema(Open)


def test_the_loader_takes_the_schema_from_tool_py_and_the_executor_holds_it(tmp_path: Path) -> None:
    python_tool(tmp_path, "ranged", """
        from pydantic import BaseModel, Field

        class Args(BaseModel):
            radius: int = Field(4, ge=1, le=16, description="blocks")

        def tool(input_value=None, **kwargs):
            kwargs.pop("executor")
            return {"status": "success", "data": Args(**kwargs).radius}
        """, meta="complete_when: 'args.radius >= 1'")
    box = load_toolbox([ToolSource(label="skills", folder=tmp_path)])
    assert box.errors == []
    assert box.tools["ranged"].schema_hint.dump()["properties"]["radius"]["maximum"] == 16
    executor = Executor(box, Infospace.open(":memory:"))
    refused = executor.execute_action({"type": "ranged", "radius": 40})
    assert refused.code == "bad_args" and "from 1 to 16" in refused.reason
    assert executor.execute_action({"type": "ranged"}).data == 4


@pytest.mark.parametrize(("code", "meta", "error"), [
    ("raise RuntimeError('boom')\n", "", "tool.py: cannot import: RuntimeError: boom"),
    ("from pydantic import BaseModel\nclass Args(BaseModel):\n    v: int | str\n", "", "tool.py: Args.v: an argument may take one type (or that type or None); got [{'type': 'integer'}, {'type': 'string'}]"),
    ("from pydantic import BaseModel\nclass Args(BaseModel):\n    v: int = 1\n", "complete_when: 'args.w == 1'",
     "Skill.md: complete_when reads args.w, which the tool does not take (arguments: v)"),
])
def test_a_tool_py_that_cannot_give_its_schema_is_one_load_error_and_the_rest_load(
        tmp_path: Path, code: str, meta: str, error: str) -> None:
    python_tool(tmp_path, "broken", code, meta=meta)
    python_tool(tmp_path, "fine", "def tool(input_value=None, **kwargs):\n    return 1\n")
    box = load_toolbox([ToolSource(label="skills", folder=tmp_path)])
    assert [str(e).removeprefix(str(tmp_path / "broken") + "/") for e in box.errors] == [error]
    assert "broken" not in box.tools and box.tools["fine"].schema_hint is None
