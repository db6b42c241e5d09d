"""The reading set: asks in small worlds, each with the check a person wrote for it, read by a
backend through the goal classifier (classify.py) exactly as a run reads a goal no rule reads.
`mcagent llm check` runs it and keeps the score (agent/diagnostics/measurements.py); a run lets
the model read goals only when that score reaches the mark (agent/session/model_reading.py).

The set file (server-config/eval/reading/model-reading.yaml) says each case's world as the
classifier sees it: the items carried and the block kinds around, nearest first. Its answers
must be ones the classifier can give in that world (a name it offers, near_block at its
distance): the loader refuses any other, so the set never counts against a model what no model
could read.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, field_validator, model_validator

from agent.checks.model import CheckError, HasItem, NearBlock, SkyVisible, parse_check
from agent.config.layers import StrictModel, load_model_file
from agent.diagnostics.measured import READING, CaseScore, SetScore, measure, outcome
from agent.errors import ConfigError
from agent.goals.grounds import Grounds, Point, Sighted
from agent.llm import Metered
from agent.paths import SERVER_CONFIG_DIR
from agent.planner import classify as classifier
from agent.planner.classify import NEAR_DISTANCE, classify, names_for

READING_SET = SERVER_CONFIG_DIR / "eval" / "reading" / "model-reading.yaml"
NONE = "none"
# Where the classifier's world puts the bot; only the names around it matter to a reading.
_FEET = Point(x=0.5, y=64, z=0.5)

Answer = HasItem | NearBlock | SkyVisible


class World(StrictModel):
    """What the classifier is offered: items carried (name -> count), block kinds nearest first."""

    carried: dict[str, int] = Field(default_factory=dict)
    blocks: list[str] = Field(default_factory=list)

    def grounds(self) -> Grounds:
        """As agent/goals/grounds.py would read it: each kind a block further than the one before."""
        sighted = [Sighted(name=name, distance=float(n)) for n, name in enumerate(self.blocks, 1)]
        return Grounds(feet=_FEET, carried=self.carried, blocks=sighted)


class ReadingCase(StrictModel):
    ask: str = Field(min_length=1)
    world: World
    answer: Answer | None = Field(description="the check a person wrote, or None for `none`")

    @field_validator("answer", mode="before")
    @classmethod
    def _check_or_none(cls, value: Any) -> Any:
        if value == NONE:
            return None
        if not isinstance(value, dict):
            raise ValueError(f"expected a check (has_item, near_block, sky_visible) or `{NONE}`")
        try:
            check = parse_check(value, "answer")
        except CheckError as e:
            raise ValueError(str(e)) from None
        if not isinstance(check, Answer):
            raise ValueError(f"{check.kind} is not a kind the classifier reads (has_item, near_block, "
                             f"sky_visible, or `{NONE}`)")
        return check

    def expected(self) -> str:
        return NONE if self.answer is None else self.answer.describe()


class ReadingSet(StrictModel):
    cases: list[ReadingCase] = Field(min_length=1)

    @model_validator(mode="after")
    def _asks_differ(self) -> ReadingSet:
        seen: set[str] = set()
        for case in self.cases:
            if case.ask in seen:
                raise ValueError(f"the ask {case.ask!r} is there twice")
            seen.add(case.ask)
        return self


def load_reading_set(path: Path = READING_SET, mc_version: str | None = None) -> ReadingSet:
    """The set, every answer one the classifier can give in its world; any problem is one
    ConfigError line naming the file and the ask."""
    if not path.is_file():
        raise ConfigError(f"reading set {path} does not exist")
    loaded = load_model_file(ReadingSet, path)
    for n, case in enumerate(loaded.cases):
        problem = _unreachable(case, mc_version)
        if problem:
            raise ConfigError(f"{path}: cases[{n}] ({case.ask!r}): {problem}")
    return loaded


def _unreachable(case: ReadingCase, mc_version: str | None) -> str:
    """Why the classifier could not give the case's answer in its world; "" when it could."""
    answer = case.answer
    if answer is None or isinstance(answer, SkyVisible):
        return ""
    offered = names_for(case.world.grounds(), mc_version)
    if isinstance(answer, NearBlock):
        kind, name = "near_block", answer.near_block.block
        if answer.near_block.distance != NEAR_DISTANCE:
            return f"near_block is read at distance {NEAR_DISTANCE:g}, not {answer.near_block.distance:g}"
    else:
        kind, name = "has_item", answer.has_item.name
    if name not in offered[kind]:
        return f"{kind} {name}: the world offers no such name ({', '.join(offered[kind]) or 'none'})"
    return ""


def set_digest(path: Path = READING_SET) -> str:
    """What a measurement was made on: the set's content (its YAML as data, so a comment changes
    nothing) and the classifier's own words (its prompt and kinds). Either changed, an earlier
    measurement says nothing of the reading now."""
    content = json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), sort_keys=True)
    reader = "\n".join([classifier.PROMPT, *classifier.KINDS, classifier.KIND_LABEL, classifier.NAME_LABEL])
    return hashlib.sha256(f"{content}\0{reader}".encode()).hexdigest()


def read_case(case: ReadingCase, backend: Metered, mc_version: str | None = None) -> CaseScore:
    """The backend's reading of one ask, scored: the checks compared in their YAML forms (has_item
    by name and count, near_block by block and distance)."""
    read = classify(case.ask, case.world.grounds(), backend, mc_version)
    check = None if read is None else read.check
    scored = outcome(None if check is None else check.as_data(), None if case.answer is None else case.answer.as_data())
    return CaseScore(ask=case.ask, expected=case.expected(), read=NONE if check is None else check.describe(),
                     outcome=scored)


def measure_reading(backend: Metered, path: Path = READING_SET, mc_version: str | None = None) -> SetScore:
    """Every ask of the set read by `backend`, scored (agent/diagnostics/measured.py)."""
    reading = load_reading_set(path, mc_version)
    return measure(READING, set_digest(path), reading.cases, lambda case: read_case(case, backend, mc_version))
