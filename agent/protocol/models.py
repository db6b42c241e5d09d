"""A method's protocol as the runtime reads it: sections, the loop's steps with their calls,
branches and state updates, the termination outcomes and the declared state variables."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Call(_Strict):
    """A tool a step calls (`Call NAME` or `Call NAME with {...}`), with its arguments when the
    protocol writes them as literal JSON; None: the model fills them in."""

    tool: str
    args: dict[str, JsonValue] | None = None
    line: int


class Branch(_Strict):
    """Where a step may go: `If CONDITION: proceed to STEP N` or `Otherwise: ... TERMINATION (X)`.
    `when` is the condition's [when: ...] expression (agent/protocol/expressions.py); without one
    the condition is prose, the model's to judge. An `otherwise` branch holds when every other
    branch of its step is checked and false."""

    line: int
    condition: str = Field(description="the prose as written; empty for Otherwise")
    when: str | None = None
    otherwise: bool = False
    step: int | None = Field(None, description="the step it goes to; None when it ends the method")
    outcome: str | None = Field(None, description="the termination outcome it ends in")


class Assignment(_Strict):
    """`[set: NAME = EXPRESSION]`: updates a declared state variable after the step's tool ran."""

    name: str
    expression: str
    line: int


StateType = Literal["int", "float", "bool", "str", "list"]


class StateVariable(_Strict):
    """A #RUNTIME STATE line with `[state: TYPE = INITIAL]`: kept by the runtime, shown to the model."""

    name: str
    type: StateType
    initial: JsonValue
    text: str = Field(description="what the protocol says it is")
    line: int


class ProtocolStep(_Strict):
    """One `STEP N — TITLE` block of a method's main loop, with the steps and outcomes it points to."""

    number: int
    title: str
    text: str
    line: int
    goes_to: list[int] = []
    outcomes: list[str] = []
    calls: list[Call] = []
    branches: list[Branch] = []
    sets: list[Assignment] = []


class Outcome(_Strict):
    """A named termination outcome (SUCCESS, FAILED, INAPPLICABLE, DISCOVERY, ...) and its conditions.
    `when`: the [when: ...] expressions among them; while any is false the outcome cannot be chosen."""

    name: str
    text: str
    line: int
    when: list[str] = []


class Section(_Strict):
    """A `#NAME (QUALIFIER):` section of a method body, e.g. PURPOSE or PRECONDITIONS."""

    name: str
    qualifier: str = ""
    text: str
    line: int


class MethodProtocol(_Strict):
    """What the method parser understood: the sections, the loop's steps and the outcomes."""

    sections: list[Section]
    preamble: str = ""
    steps: list[ProtocolStep]
    outcomes: list[Outcome]
    state: list[StateVariable] = []

    def section(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)
