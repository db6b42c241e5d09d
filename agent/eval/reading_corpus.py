"""The reading corpus: asks in words with the sub-goals they mean, to measure how the goal reader
(agent/goals) generalizes. Three sources, in server-config/eval/reading/ unless said:
- asks.yaml: asks written by hand, in families;
- templates.yaml: asks made from templates over the lexicon (verbs x things x quantities x places
  x politeness), a fixed sample of each template's combinations;
- every one-item `goal` of Mindcraft's task files (server-config/eval/mindcraft/*.json), with the
  check its target says (the others are listed, not scored).
The split into a part to tune on and a test part is by whole families (asks.yaml's families,
whole templates, and every template value marked `part: test`: a verb, a count, a thing), so the
test part measures asks of kinds the reader was never tuned on, not rows of the same templates.

An ask is read right when the reader's sub-goals, each as SubGoal.describe() prints it before the
world grounds it, are the expected ones in order; none when it reads no sub-goal; wrong otherwise
(and any reading of an ask that expects none is wrong).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

from pydantic import Field

from agent.config.layers import StrictModel, load_model_file
from agent.diagnostics.measured import Outcome, outcome
from agent.errors import ConfigError
from agent.goals import understand
from agent.mc.aliases import item_id
from agent.paths import SERVER_CONFIG_DIR

READING_DIR = SERVER_CONFIG_DIR / "eval" / "reading"
MINDCRAFT_DIR = SERVER_CONFIG_DIR / "eval" / "mindcraft"
Part = Literal["tune", "test", "mindcraft"]


class Ask(StrictModel):
    """One ask and the sub-goal lines it means ([]: no check fits)."""

    ask: str
    read: list[str]


class Family(StrictModel):
    family: str
    part: Literal["tune", "test"]
    asks: list[Ask] = Field(min_length=1)


class HandWritten(StrictModel):
    families: list[Family]


class SlotValue(StrictModel):
    """A value a template's slot takes: the words said, and fields the expected lines use."""

    say: str
    part: Literal["tune", "test"] = "tune"
    n: int | None = None
    id: str | None = None


class Template(StrictModel):
    family: str
    part: Literal["tune", "test"]
    say: str = Field(description="the ask, with {slot} for each slot's words")
    read: list[str] = Field(description="the expected lines, with {slot.n} / {slot.id} for a value's fields")


class Templates(StrictModel):
    per_template: int = Field(ge=1)
    seed: int
    slots: dict[str, list[SlotValue]]
    templates: list[Template]


class Case(StrictModel):
    """One ask of the corpus, where it comes from, and what it means."""

    ask: str
    expect: list[str]
    family: str
    part: Part


class Scored(StrictModel):
    case: Case
    got: list[str]
    verdict: Outcome


def corpus(folder: Path = READING_DIR, mindcraft: Path = MINDCRAFT_DIR) -> list[Case]:
    """Every case: hand-written, from templates, and Mindcraft's one-item goals."""
    return [*hand_written(folder / "asks.yaml"), *from_templates(folder / "templates.yaml"),
            *mindcraft_goals(mindcraft)[0]]


def hand_written(path: Path) -> list[Case]:
    data = load_model_file(HandWritten, path)
    return [Case(ask=a.ask, expect=a.read, family=f.family, part=f.part) for f in data.families for a in f.asks]


def from_templates(path: Path) -> list[Case]:
    """Each template's asks: a fixed sample of its slots' combinations, at most per_template."""
    data = load_model_file(Templates, path)
    cases: list[Case] = []
    for template in data.templates:
        names = _slot_names(template.say, data.slots, path)
        combos = list(itertools.product(*(data.slots[n] for n in names)))
        random.Random(f"{data.seed}:{template.family}").shuffle(combos)
        for values in combos[:data.per_template]:
            chosen = {n: SimpleNamespace(**v.model_dump()) for n, v in zip(names, values)}
            held = template.part == "test" or any(v.part == "test" for v in values)
            cases.append(Case(ask=" ".join(template.say.format(**{n: v.say for n, v in chosen.items()}).split()),
                              expect=[line.format(**chosen) for line in template.read], family=template.family,
                              part="test" if held else "tune"))
    return cases


def _slot_names(say: str, slots: dict[str, list[SlotValue]], path: Path) -> list[str]:
    names = list(dict.fromkeys(part.split("}")[0] for part in say.split("{")[1:]))
    unknown = [n for n in names if n not in slots]
    if unknown:
        raise ConfigError(f"{path}: template {say!r} names slot {unknown[0]!r}, which slots: does not define")
    return names


def mindcraft_goals(folder: Path) -> tuple[list[Case], list[str]]:
    """Mindcraft's task goals whose target is one item (count number_of_target), and the names of
    the tasks left out (a goal per agent, a target of several items, none)."""
    cases: list[Case] = []
    left: list[str] = []
    for path in sorted(folder.glob("*.json")):
        for name, task in json.loads(path.read_text(encoding="utf-8")).items():
            target, goal = task.get("target"), task.get("goal")
            item = item_id(target) if isinstance(target, str) else None
            if item is None or not isinstance(goal, str):
                left.append(f"{path.stem}:{name}")
                continue
            count = int(task.get("number_of_target") or 1)
            cases.append(Case(ask=goal, expect=[f"has_item {item} {count}"], family=path.stem, part="mindcraft"))
    return cases, left


def score(case: Case, mc_version: str | None = None) -> Scored:
    """The reader's lines for the ask and the verdict. For Mindcraft's goals, the target's line
    among the sub-goals is right ("smelt 1 iron ingot and 1 copper ingot" targets the copper)."""
    got = [s.describe() for s in understand(case.ask, mc_version).subgoals]
    read = case.expect if case.part == "mindcraft" and case.expect and case.expect[0] in got else got
    return Scored(case=case, got=got, verdict=outcome(read or None, case.expect or None))
