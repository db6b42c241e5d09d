"""The choice set: tool choices taken from the suites' traces, each prompt as the planner wrote it
up to `TOOL_NAME: `, with the tools offered and the ones a person judged right
(server-config/eval/choices/, its README says how they were written). `mcagent llm check` runs
it and keeps the score; the model's weight in every choice (prior.py) is its skill on it above
chance and above the first offer (agent/diagnostics/measured.py choice_weight), 0 for a model
that never was measured.

A backend reads each prompt in its own chat template: the cases keep the messages, not one
model's rendering of them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

import sglang as sgl
from pydantic import Field, ValidationError, model_validator

from agent.config.layers import StrictModel
from agent.diagnostics.measured import CHOICES, CaseScore, SetScore, measure
from agent.errors import ConfigError
from agent.llm import Metered
from agent.paths import SERVER_CONFIG_DIR
from agent.planner import prompts
from agent.planner.decide import pick

CHOICE_SET = SERVER_CONFIG_DIR / "eval" / "choices" / "decisions.jsonl"


class Message(StrictModel):
    role: Literal["system", "user", "assistant"]
    content: str


class ChoiceCase(StrictModel):
    id: str = Field(min_length=1)
    suite: str
    source: str = Field(description="the trace and call it was taken from")
    messages: list[Message] = Field(min_length=2, description="the last one the open assistant turn, "
                                                              "ending with TOOL_NAME: ")
    choices: list[str] = Field(min_length=2)
    right: list[str] = Field(min_length=1, description="what a person judged right, among the choices")
    why: str

    @model_validator(mode="after")
    def _well_formed(self) -> ChoiceCase:
        last = self.messages[-1]
        if last.role != "assistant" or not last.content.endswith(prompts.TOOL_NAME):
            raise ValueError(f"the last message must be the open assistant turn ending with {prompts.TOOL_NAME!r}")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError("a choice is there twice")
        if stray := [r for r in self.right if r not in self.choices]:
            raise ValueError(f"right answer {stray[0]!r} is not among the choices")
        return self

    @property
    def chance(self) -> float:
        """What a uniform pick scores here."""
        return len(self.right) / len(self.choices)


def load_choice_set(path: Path | None = None) -> list[ChoiceCase]:
    """Every case (of the set at CHOICE_SET unless `path`); any problem is one ConfigError line
    naming the file and the line."""
    path = path or CHOICE_SET
    if not path.is_file():
        raise ConfigError(f"choice set {path} does not exist")
    cases: list[ChoiceCase] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append(ChoiceCase.model_validate_json(line))
        except ValidationError as e:
            first = e.errors()[0]
            raise ConfigError(f"{path}:{n}: {'.'.join(map(str, first['loc'])) or 'the case'}: {first['msg']}") from None
    if len({c.id for c in cases}) != len(cases):
        raise ConfigError(f"{path}: two cases share an id")
    if not cases:
        raise ConfigError(f"{path}: no cases")
    return cases


def set_digest(path: Path | None = None) -> str:
    """What a measurement was made on: the cases, and the label the choice follows."""
    path = path or CHOICE_SET
    return hashlib.sha256(path.read_bytes() + prompts.TOOL_NAME.encode()).hexdigest()


_ROLES = {"system": sgl.system, "user": sgl.user, "assistant": sgl.assistant}


@sgl.function
def _choose(s, case: ChoiceCase, caps):
    for message in case.messages[:-1]:
        s += _ROLES[message.role](message.content)
    s += sgl.assistant_begin()
    s += case.messages[-1].content
    return pick(s, "tool", case.choices, caps, label=prompts.TOOL_NAME, what="tool name").value


def read_case(case: ChoiceCase, backend: Metered) -> CaseScore:
    """The backend's own pick (its scores alone, no prior), scored against the person's answer."""
    picked = _choose.run(case=case, caps=backend.capabilities, backend=backend, use_thread=False).ret_value
    outcome = "none" if picked is None else "right" if picked in case.right else "wrong"
    return CaseScore(ask=case.id, expected=" or ".join(case.right), read=picked or "none", outcome=outcome)


def measure_choices(backend: Metered, path: Path | None = None) -> SetScore:
    """Every case chosen by `backend`, scored; beside it the set's chance and what the first tool
    offered gets right (measured.py choice_weight weighs the model above the better of the two)."""
    if backend.capabilities.whole_turns:
        raise ConfigError("the choice set asks for a tool name inside an open turn; a backend that answers "
                          "whole chat turns is not measured on it yet")
    cases = load_choice_set(path)
    score = measure(CHOICES, set_digest(path), cases, lambda case: read_case(case, backend))
    first = sum(c.choices[0] in c.right for c in cases) / len(cases)
    return score.model_copy(update={"chance": round(sum(c.chance for c in cases) / len(cases), 4),
                                    "first_offer": round(first, 4)})
