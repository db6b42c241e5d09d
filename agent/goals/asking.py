"""Working together: what a step lacked, got through the team rather than alone, and what a
player asks for, handed over (issue 39). Each is a sub-goal the focus works on first
(agent/planner/focus.py) that states the tools doing it and their arguments (SubGoal.given),
which the offer then puts first, with their arguments.

What a step lacked (`count` of an item, the total it must carry), when a teammate carries some:
- ask: the sub-goal is to carry it (has_item, as any need), by whispering the teammate
  "please give me N item" (mc-tell), then waiting (mc-wait) until it is carried, at most
  ASK_WAIT_S: a wait that ends on the clock may end just before the throw, and an asker that
  walks off then picks nothing up;
- give: the teammate is the one to gather the item (below) and lacks some: the sub-goal is to
  carry that many fewer (not has_item of the rest plus one), handing them over (mc-give) without
  waiting to be asked, since the teammate's ask says nothing the rule did not;
- wait: the teammate gathers it and this bot has none to give: the sub-goal is what the step
  served (the team's check: team_has), waited for (mc-wait) while the teammate makes it, the
  wait ending once a player speaks (the teammate's ask, read before the next step).
And a player's line "give me N item" (ASK_WORDS: a teammate's ask, or anyone's) for an item
this bot carries becomes a give of as many as it carries, at most those asked.
Each is given up after ASK_STEPS readings, and the item is then the bot's own to get.

Who asks whom. Two bots that each lack what the other holds (one iron ingot each; shears take
two) must not both ask and both give, swapping forever, nor both wait for the other to make it
(planks with one, sticks with the other, a pickaxe wanted: a rule item by item names a
different gatherer for each). Each bot settles it alone, by a rule every bot of the team reads
alike whatever it lacks: the teammate whose name comes first in alphabetical order gathers;
the others give it what it lacks and it asks them, the one carrying most first (the name first
on a tie). The rule assumes teammates want the same thing: one goal for the team.
"""

from __future__ import annotations

import re
from typing import Any

from agent.checks.model import Check, HasItem, Not
from agent.chat.team import Holding, Holdings, Message
from agent.goals.understanding import SubGoal
from agent.mc.gamedata import item_names
from agent.mc.names import MAX_ITEM_COUNT, Item

# How an ask is worded, and read back from any player: "please give me 2 iron_ingot".
ASK = "please give me {count} {item}"
ASK_WORDS = re.compile(r"\b(?:give|hand|pass) me (?:(\d+) )?([a-z0-9_]+)", re.IGNORECASE)
# The longest wait for what a teammate brings or makes: it reads its inbox once its own step
# ends (a wait of its own ends at the ask), walks over and throws (mc-give: a thrown item can
# be picked up after 2 s, and the give waits up to 8 s for the pickup), or crafts.
ASK_WAIT_S = 30.0
# Readings of the focus a team sub-goal stays on before it is given up: the tell and two waits
# (the teammate reads its inbox only once its own step ends).
ASK_STEPS = 3


def teamwork(need: Item, team: Holdings, towards: Check, tool: str, depth: int) -> SubGoal | None:
    """The sub-goal that gets `need` (the total `tool` must carry, for a step towards the check
    `towards`) through the team; None when this bot carries enough, or gathers and no teammate
    carries any (it gets it alone)."""
    name, mine = need.name, team.me.count(need.name)
    if mine >= need.count or not team.mates:
        return None
    gatherer = min([team.me, *team.mates], key=lambda h: h.player)
    if gatherer is team.me:
        holders = sorted((m for m in team.mates if m.count(name) > 0), key=lambda m: (-m.count(name), m.player))
        if not holders:
            return None
        return ask(need, holders[0].player, min(need.count - mine, holders[0].count(name)), tool, depth)
    short = need.count - gatherer.count(name)  # this bot gives the gatherer what it lacks, or leaves the making to it
    if mine > 0 and short > 0:
        return give(gatherer.player, Item(name=name, count=min(mine, short)), mine, depth)
    return SubGoal(says=f"wait while {gatherer.player} makes it", check=towards,
                   by="team", depth=depth, lasting=False,
                   given={"mc-wait": {"seconds": ASK_WAIT_S, "until_told": True}})


def ask(need: Item, player: str, count: int, tool: str, depth: int) -> SubGoal:
    """The sub-goal of carrying `need` by asking `player` for `count` of it."""
    return SubGoal(says=f"ask {player} for {count} {need.name} ({tool} needs it)", check=HasItem(has_item=need),
                   by="team", depth=depth, lasting=False,
                   given={"mc-tell": {"player": player, "text": ASK.format(count=count, item=need.name)},
                          "mc-wait": {"seconds": ASK_WAIT_S, "until_carried": need.model_dump()}})


def give(player: str, item: Item, held: int, depth: int = 1) -> SubGoal:
    """The sub-goal of handing `item` to `player`, of the `held` carried: carrying `item.count`
    fewer. Worded alike however it came (the rule, or an ask), so that one said twice is one."""
    rest = Item(name=item.name, count=held - item.count + 1)
    given: dict[str, Any] = {"player": player, "item": item.name, "count": item.count}
    return SubGoal(says=f"give {player} {item.count} {item.name}", check=Not(**{"not": HasItem(has_item=rest)}),
                   by="team", depth=depth, lasting=False, given={"mc-give": given})


def asked_for(text: str, mc_version: str | None = None) -> Item | None:
    """The item a line asks for ("please give me 2 iron_ingot": one word after `me` and the
    count, an item's name), or None."""
    found = ASK_WORDS.search(text)
    if found is None or found.group(2).lower() not in item_names(mc_version):
        return None
    count = int(found.group(1) or 1)
    return Item(name=found.group(2).lower(), count=count) if 1 <= count <= MAX_ITEM_COUNT else None


def gives(messages: list[Message], me: Holding, mc_version: str | None = None) -> list[SubGoal]:
    """The sub-goals of handing over what the lines ask for, of what this bot carries (as much
    as it carries, at most what was asked), the last ask of each player for each item."""
    out: dict[tuple[str, str], SubGoal] = {}
    for message in messages:
        item = asked_for(message.text, mc_version)
        held = me.count(item.name) if item is not None else 0
        if item is not None and held > 0:
            out[(message.player, item.name)] = give(message.player, item.model_copy(update={"count": min(item.count, held)}), held)
    return list(out.values())
