"""A loaded tool as plain serializable data: what a Skill.md says, checked, plus where it came from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from agent.checks.model import ACCEPTED, PREDICATES
from agent.protocol.models import MethodProtocol
from agent.tools.completion import parse_completion, unknown_args
from agent.tools.schema import RESERVED_ARGS, Domain, JsonSchema, Output, Slot, slots_schema

ToolType = Literal["primitive", "python", "llm", "instruction", "method"]
TOOL_TYPES: tuple[str, ...] = ToolType.__args__

# Tool names as the seeds write them: mc-observe-blocks, explore-area, create-note.
NAME_PATTERN = r"[a-z0-9][a-z0-9_.-]{0,63}"

# The bound the seed's traces show for a method's inner loop when its Skill.md sets none.
DEFAULT_MAX_STEPS = 24


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolMeta(_Strict):
    """The frontmatter keys shared by the file format and the loaded spec."""

    name: str = Field(pattern=f"^{NAME_PATTERN}$")  # anchored: pydantic searches, it does not fullmatch
    type: ToolType
    description: str = Field(min_length=1)
    when_to_use: str | None = Field(None, description="when to pick this tool, in the words goals use: the ranked "
                                                      "catalog matches goals against it (agent/tools/ranking.py)")
    examples: list[JsonValue] = []
    resumable: bool = False
    invalidates: list[str] = []
    hidden: bool = False
    # Strict: YAML's `true` is not a count of 1, nor a second.
    max_steps: int | None = Field(None, ge=1, le=1000, strict=True)
    timeout_s: float | None = Field(None, gt=0, le=3600, strict=True, allow_inf_nan=False,
                                    description="python tools: seconds a call may take before it fails with "
                                                "code timeout; None: the executor's default (config tool_timeout_s)")
    slots: list[Slot] | None = Field(None, description="the arguments as typed slots (else schema_hint)")
    outputs: list[Output] = Field([], description="what the tool returns in data, as the seed's outputs")
    complete_when: str | None = Field(None, description="a check of a successful result, over data and args "
                                                        "(agent/tools/completion.py); false: failed, code incomplete")
    needs: list[Domain] = Field([], description="argument domains (agent/tools/schema.py's Domain) that must offer "
                                                "something for a call to work: mc-pillar-up needs a placeable "
                                                "block carried; the outer loop does not offer it otherwise")
    achieves: list[str] = Field([], description="the goal check kinds (agent/checks) a call can make hold: the "
                                               "outer loop offers the tool first for a sub-goal of such a kind")

    @model_validator(mode="after")
    def _max_steps_only_for_methods(self) -> ToolMeta:
        if self.max_steps is not None and self.type != "method":
            raise ValueError("max_steps applies only to type: method")
        if self.timeout_s is not None and self.type != "python":
            raise ValueError("timeout_s applies only to type: python (world tools bound each bridge call)")
        return self

    @field_validator("achieves")
    @classmethod
    def _achieves_check_kinds(cls, kinds: list[str]) -> list[str]:
        unknown = [k for k in kinds if k not in PREDICATES]
        if unknown:
            raise ValueError(f"achieves: {unknown[0]!r} is no check kind (accepted: {ACCEPTED})")
        return kinds

    @field_validator("complete_when")
    @classmethod
    def _complete_when_parses(cls, source: str | None) -> str | None:
        if source is not None:
            parse_completion(source)
        return source


def schema_problem(schema: JsonSchema | None, complete_when: str | None) -> str | None:
    """What is wrong with a tool's argument schema, wherever it came from, else None."""
    if schema is not None:
        if schema.types() not in ([], ["object"]):
            return "schema_hint must describe an object (type: object): the action's arguments"
        taken = [name for name in RESERVED_ARGS if name in schema.properties]
        if taken:
            return f"argument name {taken[0]!r} is reserved by the executor"
    return complete_when and unknown_args(complete_when, list(schema.properties) if schema else [])


class Frontmatter(ToolMeta):
    """A Skill.md's frontmatter: the argument schema as a JSON schema_hint or as typed slots. A
    python tool may give neither: then its tool.py's `Args` model is the schema, read at load. A
    primitive gives neither: its arguments model (agent/tools/primitives/) is its schema."""

    schema_hint: JsonSchema | None = None

    @model_validator(mode="after")
    def _one_schema(self) -> Frontmatter:
        if self.schema_hint is not None and self.slots is not None:
            raise ValueError("give the arguments as schema_hint or as slots, not both")
        schema = self.input_schema()
        if self.type == "primitive" and schema is not None:
            key = "slots" if self.slots is not None else "schema_hint"
            raise ValueError(f"{key} is not for a primitive: "
                             "its arguments model in agent/tools/primitives/ is its schema")
        # A python tool's or a primitive's schema may still come from its code; the loader checks it then.
        code_schema = schema is None and self.type in ("python", "primitive")
        problem = None if code_schema else schema_problem(schema, self.complete_when)
        if problem:
            raise ValueError(problem)
        return self

    def input_schema(self) -> JsonSchema | None:
        return slots_schema(self.slots) if self.slots is not None else self.schema_hint

    def spec(self, source: str, path: Path, body: str = "", protocol: MethodProtocol | None = None,
             entry: str | None = None) -> ToolSpec:
        """The loaded tool: the one way both front doors (a Skill.md, @register_tool) make a spec."""
        return ToolSpec(**self.model_dump(exclude={"schema_hint"}), schema_hint=self.input_schema(),
                        source=source, path=path, body=body.strip(), protocol=protocol, entry=entry)


class ToolSpec(ToolMeta):
    """A loaded tool. Nothing is run to build it; only a python tool whose Skill.md states no
    arguments has its tool.py imported, for its `Args` model, and a primitive's schema is its
    arguments model's (agent/tools/loader.py)."""

    source: str = Field(description="core, the world's name (e.g. minecraft), skills, or the package or module "
                                     "of a decorated tool")
    path: Path = Field(description="the Skill.md it was read from, or the module file of a decorated tool")
    schema_hint: JsonSchema | None = None
    body: str = Field("", description="prompt (llm), text (instruction), protocol (method), docs (others)")
    protocol: MethodProtocol | None = None
    entry: str | None = Field(None, description="a decorated python tool: module:attribute (else tool.py beside path)")

    @property
    def origin(self) -> str:
        """Where the tool came from, as people look for it: its folder, or module:function."""
        return self.entry or str(self.path.parent)

    def summary(self) -> dict[str, Any]:
        """Everything but the body, as JSON; methods add their steps (number, title) and outcomes."""
        data = self.model_dump(mode="json", exclude={"body", "protocol", "schema_hint"})
        data["origin"] = self.origin
        data["schema_hint"] = self.schema_hint.dump() if self.schema_hint else None
        if self.protocol is not None:
            data["steps"] = [{"number": s.number, "title": s.title} for s in self.protocol.steps]
            data["outcomes"] = [o.name for o in self.protocol.outcomes]
        return data


def _one_line(text: str) -> str:
    return " ".join(text.split())


class LoadError(_Strict):
    """One problem with one tool file, on one line; every other tool still loads."""

    path: Path
    line: int | None = None
    message: Annotated[str, AfterValidator(_one_line)]

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"
