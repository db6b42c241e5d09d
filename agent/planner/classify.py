"""A goal no rule reads, classified by the model among grounded choices: which kind of check says
it is done (has an item, is beside a block, sees the sky) and the name it is about, each chosen
from a fixed list under the backend's constraint (a select, or an enum in a chat API's schema),
never written freely. The names are what the world offers at the start (agent/goals/grounds.py):
the items carried, the drops of the blocks around and what a recipe makes from what is carried
for has_item; the block kinds around, nearest first, for near_block.

The sub-goal is recorded as read by the model. One that already holds at the start says
nothing about the goal (a goal is what is not yet so), and the caller drops it.
"""

from __future__ import annotations

import re
from typing import Any

import sglang as sgl

from agent.checks.model import Check, HasItem, NearBlock, Nearness, SkyVisible
from agent.goals import Grounds, SubGoal
from agent.goals.reading.model import NEAR_DISTANCE
from agent.goals.reading.words import NUMBER_WORDS
from agent.llm import Capabilities, Metered
from agent.mc.gamedata import item_names, mined
from agent.mc.names import Item
from agent.planner import whole_turns
from agent.planner.decide import match_name, pick
from agent.planner.domains import MAX_VALUES, domain_values

NONE = "none"
KINDS = ["has_item", "near_block", "sky_visible", NONE]
PROMPT = ("A player gave a Minecraft bot this GOAL: {goal}\n"
          "Which check says the GOAL is done? has_item: the bot holds an item; near_block: the bot stands "
          "beside a block; sky_visible: the bot sees the open sky; none: none of these.")
KIND_LABEL, NAME_LABEL = "CHECK: ", "NAME: "
_NUMBER = re.compile(r"\b(\d{1,3}|" + "|".join(n for n in NUMBER_WORDS if len(n) > 2) + r")\b")


def names_for(grounds: Grounds, mc_version: str | None = None) -> dict[str, list[str]]:
    """The names each kind may take, as the world offers them now."""
    values = domain_values(grounds, mc_version)
    drops = [mined(kind, mc_version) for kind in grounds.kinds]
    known = item_names(mc_version)
    items = [n for n in dict.fromkeys([*values["carried"], *drops, *values["craftable"]]) if n in known][:MAX_VALUES]
    return {"has_item": items, "near_block": values["block_seen"]}


def classify(goal: str, grounds: Grounds, backend: Metered, mc_version: str | None = None) -> SubGoal | None:
    """The model's sub-goal for `goal`, or None when it answers none or names nothing offered."""
    state = _program.run(goal=goal, names=names_for(grounds, mc_version), caps=backend.capabilities,
                         backend=backend, use_thread=False)
    check = state.ret_value
    return None if check is None else SubGoal(says=goal, check=check, by="model")


@sgl.function
def _program(s, goal: str, names: dict[str, list[str]], caps: Capabilities):
    s += sgl.user(PROMPT.format(goal=goal))
    kind = _choose(s, "kind", KIND_LABEL, KINDS, caps)
    if kind in (None, NONE):
        return None
    if kind == "sky_visible":
        return SkyVisible(sky_visible=True)
    offered = names[kind]
    if not offered:
        return None
    s += sgl.user(f"Which name? One of: {', '.join(offered)}")
    name = _choose(s, "name", NAME_LABEL, offered, caps)
    if name is None:
        return None
    return _check(kind, name, goal)


def _check(kind: str, name: str, goal: str) -> Check:
    if kind == "near_block":
        return NearBlock(near_block=Nearness(block=name, distance=NEAR_DISTANCE))
    number = _NUMBER.search(goal.lower())
    count = 1 if number is None else int(number[1]) if number[1].isdigit() else NUMBER_WORDS[number[1]]
    return HasItem(has_item=Item(name=name, count=max(1, count)))


def _choose(s, key: str, label: str, choices: list[str], caps: Capabilities) -> str | None:
    """One of `choices` after `label`, held to them by the backend's constraint."""
    if caps.whole_turns:
        def accept(reply: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
            found = match_name(str(reply.get(whole_turns.key(label), "")), choices)
            return ({"choice": found}, None) if found else (None, f"{label.strip()} is not one of the choices")

        answer, _ = whole_turns.ask(s, key, whole_turns.choice_schema(label, choices), caps, accept)
        return answer["choice"] if answer else None
    s += sgl.assistant_begin()
    s += label
    chosen = pick(s, key, choices, caps, label=label, what=label.strip(": ").lower())
    s += sgl.assistant_end()
    return chosen.value
