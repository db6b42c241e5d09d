"""What a reading of a goal says, in a player's words: one short phrase per sub-goal ("get 3 oak
logs", "put them in the chest at 3 5 4", "go to the water"), joined as a person says them, and
the whole answer to a goal said in chat ("I'd get 10 dirt and put it in the chest at 3 5 4; I
don't know what 'the shed' is").

The bot says these back to the player who asked (agent/chat), so that they can tell what it
will do before it does it; `describe()` stays the check's own line, for traces and the CLI. A
sub-goal not grounded yet (no bot in the world) is said by what grounding will fill in: "a
chest nearby", "the nearest tree's logs".
"""

from __future__ import annotations

import math

from agent.checks.model import (All, AnyOf, Avoided, BlockAt, Blueprint, Check, ContainerHas, FeetYAtLeast, HasItem,
                                NearBlock, NearPlayer, Not, Shelter, SkyVisible, StandingOn, StandingOnGround, TeamHas,
                                Within)
from agent.goals.understanding import SubGoal, Understanding

# Last words of item ids said without a plural ("10 dirt", "64 cobblestone", "3 raw iron"), and
# so without "a" for one: the way players count them.
MASS = frozenset({
    "dirt", "sand", "gravel", "cobblestone", "stone", "deepslate", "granite", "diorite", "andesite", "tuff",
    "basalt", "blackstone", "netherrack", "obsidian", "clay", "mud", "glass", "wool", "bread", "coal", "redstone",
    "gunpowder", "sugar", "wheat", "leather", "string", "paper", "beef", "mutton", "chicken", "cod", "salmon",
    "fish", "flint", "quartz", "lazuli", "iron", "gold", "copper", "ore", "dust", "meal", "kelp", "bamboo",
    "cactus", "snow", "ice", "moss", "terracotta", "concrete", "glowstone", "prismarine", "grass", "water", "lava",
    "scrap", "dye", "wart", "wood", "sandstone", "calcite", "podzol", "mycelium", "honey", "slime",
})
VOWELS = frozenset("aeiou")
# The words between the goal's phrases: "get 3 oak logs, put them in the chest and come back".
AND, COMMA = " and ", ", "
# The pronoun of a thing said just before: "get 3 oak logs and put them in the chest".
ONE, MANY = "it", "them"


def say(understanding: Understanding) -> str:
    """What the reading will do, its phrases joined: "get 10 dirt and put it in the chest at 3 5
    4"; "" when nothing was understood."""
    phrases: list[str] = []
    before: SubGoal | None = None
    for subgoal in understanding.subgoals:
        words = phrase(subgoal, before)
        if words and (not phrases or phrases[-1] != words):  # one thing asked twice is said once
            phrases.append(words)
        before = subgoal
    if len(phrases) > 1 and all(map(_gets, understanding.subgoals)) and all(p.startswith(GET) for p in phrases):
        phrases = phrases[:1] + [p.removeprefix(GET) for p in phrases[1:]]  # "get 2 torches and an iron ingot"
    return joined(phrases)


GET = "get "


def _gets(subgoal: SubGoal) -> bool:
    """Whether a sub-goal is said as getting a thing: "get 3 oak logs"."""
    return isinstance(subgoal.check, HasItem) and subgoal.count_of not in ("carried", "given")


def answer(understanding: Understanding) -> str:
    """The whole answer to the goal said: what the bot would do, and what it did not understand.

    "I'll get 3 oak logs" (all understood), "I'd get 10 dirt and put it in the chest at 3 5 4; I
    don't know what 'the shed' is" (part), "I don't understand 'tell me a joke'" (nothing)."""
    doing = say(understanding)
    unread = quoted([u.words for u in understanding.unread])
    if doing and unread:
        verb = "is" if len(understanding.unread) == 1 else "are"
        return f"I'd {doing}; I don't know what {unread} {verb}"
    if doing:
        return f"I'll {doing}"
    return f"I don't understand {unread or quoted([understanding.goal.strip()])}"


def phrase(subgoal: SubGoal, before: SubGoal | None = None) -> str:
    """One sub-goal in a player's words; `before`, the sub-goal said just before it, lets a
    thing it named be "it" or "them". "" for a sub-goal that needs no words of its own (carrying
    what the bot already carries, before putting it away)."""
    check = subgoal.check
    if subgoal.count_of == "given" or (isinstance(check, Not) and "mc-give" in subgoal.given):
        return _give(subgoal, before)
    if not subgoal.grounded:
        return _ungrounded(subgoal, before)
    if isinstance(check, ContainerHas) and (it := _pronoun(check.container_has.name, check.container_has.count, before)):
        return f"put {it} {_chest(check)}"
    return check_phrase(check, subgoal.says)


def check_phrase(check: Check, says: str = "") -> str:
    """A grounded check in a player's words; `says`, the words a build was read from, names a
    build (a blueprint's cells say nothing a player asked). Anything else is its describe()."""
    if isinstance(check, HasItem):
        return f"get {item_words(check.has_item.name, check.has_item.count)}"
    if isinstance(check, TeamHas):
        return f"get {item_words(check.team_has.name, check.team_has.count)} for the team"
    if isinstance(check, ContainerHas):
        stock = check.container_has
        return f"put {item_words(stock.name, stock.count)} {_chest(check)}"
    if isinstance(check, NearBlock):
        return f"go to the {words_of(check.near_block.block)}"
    if isinstance(check, StandingOn):
        return f"stand on the {words_of(check.standing_on.block)}"
    if isinstance(check, NearPlayer):
        return f"stay with {check.near_player.name}"
    if isinstance(check, Within):
        w = check.within
        return f"go to {_cell(w.x, w.y, w.z)}"
    if isinstance(check, FeetYAtLeast):
        return f"climb to y {_number(check.feet_y_at_least)}"
    if isinstance(check, SkyVisible):
        return "get out under the open sky"
    if isinstance(check, StandingOnGround):
        return "stand on the ground"
    if isinstance(check, Avoided):
        return f"keep out of {AND.join(words_of(b) for b in check.avoided)}"
    if isinstance(check, BlockAt):
        x, y, z = check.block_at.at
        return f"put {_article(words_of(check.block_at.block))} at {x} {y} {z}"
    if _builds(check):
        return _build(says)
    if isinstance(check, All):
        return _all(check, says)
    if isinstance(check, AnyOf):
        return "either " + " or ".join(check_phrase(c, says) for c in check.any)
    return check.describe()


def joined(phrases: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(phrases) <= 1:
        return "".join(phrases)
    return COMMA.join(phrases[:-1]) + AND + phrases[-1]


def quoted(words: list[str]) -> str:
    """"'the shed'", "'the shed' and 'dance'"."""
    return joined([f"'{w}'" for w in words if w])


def words_of(name: str) -> str:
    """A game id as words: oak_log -> "oak log"; a block's state dropped (oak_door[half=lower])."""
    return name.partition("[")[0].replace("_", " ")


def item_words(name: str, count: int) -> str:
    """How many of an item, as a player counts it: "3 oak logs", "an oak log", "10 dirt"."""
    words = words_of(name)
    if _uncounted(words):
        return f"{count} {words}"
    return _article(words) if count == 1 else f"{count} {plural(words)}"


def plural(words: str) -> str:
    """The words with their last one made plural: "oak log" -> "oak logs", "torch" -> "torches"."""
    head, _, last = words.rpartition(" ")
    if last.endswith(("ch", "sh", "x", "z")) or (last.endswith("o") and last[-2:-1] not in VOWELS):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in VOWELS:
        last = last[:-1] + "ies"
    elif not _uncounted(last):
        last += "s"
    return f"{head} {last}" if head else last


def _uncounted(words: str) -> bool:
    """Said without a plural: a mass noun (dirt), or a name already plural (oak planks, shears)."""
    last = words.rpartition(" ")[2]
    return last in MASS or last.endswith("s")


def _article(words: str) -> str:
    if _uncounted(words):
        return words
    return f"{'an' if words[:1] in VOWELS else 'a'} {words}"


def _pronoun(name: str, count: int, before: SubGoal | None) -> str | None:
    """"it" or "them" when the sub-goal before got just that many of that thing, else None."""
    if before is None or not isinstance(before.check, HasItem) or before.count_of is not None:
        return None
    item = before.check.has_item
    if (_suffix_word(before.kinds) if before.kinds else item.name, item.count) != (name, count):
        return None
    return MANY if count > 1 and not _uncounted(words_of(name)) else ONE


def _chest(check: ContainerHas) -> str:
    """Where a container_has puts things: the chest at its cell, else any chest within reach."""
    at = check.container_has.at
    return "in a chest nearby" if at is None else f"in the chest at {at[0]} {at[1]} {at[2]}"


def _give(subgoal: SubGoal, before: SubGoal | None) -> str:
    """Handing things over (agent/goals/asking.py): "give alex 3 apples", or "give them to alex"
    after getting just those."""
    give = subgoal.given.get("mc-give")
    if give is None:
        return subgoal.describe()
    player, name, count = give["player"], give["item"], int(give["count"])
    if it := _pronoun(name, count, before):
        return f"give {it} to {player}"
    return f"give {player} {item_words(name, count)}"


def _ungrounded(subgoal: SubGoal, before: SubGoal | None) -> str:
    """A sub-goal whose place, thing or count the world fills in at the start, said by what it
    will be: no bot is in the world to read it yet."""
    check = subgoal.check
    if subgoal.building is not None:
        return _build(subgoal.says)
    if subgoal.on_ground:
        return OUT_OF_HOLE
    if subgoal.contents:
        return "take everything in the nearest chest"
    if subgoal.players and isinstance(check, NearPlayer):
        return "stay with the player you mean"
    if subgoal.from_start and isinstance(check, Within):
        return "come back to where I started"
    if subgoal.from_start and isinstance(check, FeetYAtLeast):
        return f"climb {_number(check.feet_y_at_least)} blocks higher"
    if subgoal.above_ground and isinstance(check, FeetYAtLeast):
        return f"climb to {_number(check.feet_y_at_least)} blocks above the ground"
    return _counted(subgoal, before)


def _counted(subgoal: SubGoal, before: SubGoal | None) -> str:
    """A thing of a kind ("any log"), a count the world gives, a chest not found yet."""
    check = subgoal.check
    name = _suffix_word(subgoal.kinds) if subgoal.kinds else _name(check)
    if subgoal.count_of == "carried" and isinstance(check, HasItem):
        return ""  # what the bot carries already: putting it away says it
    if isinstance(check, HasItem):
        count = check.has_item.count
        if subgoal.count_of == "tree":
            return f"get the {plural(words_of(name))} of the nearest tree"
        return f"get {item_words(name, count)}"
    if isinstance(check, ContainerHas):
        where = "in the nearest chest" if subgoal.at_nearest else _chest(check)
        if subgoal.count_of == "carried":
            return f"put all the {_all_of(name)} I carry {where}"
        if it := _pronoun(name, check.container_has.count, before):
            return f"put {it} {where}"
        return f"put {item_words(name, check.container_has.count)} {where}"
    if isinstance(check, NearBlock | StandingOn):
        verb = "go to" if isinstance(check, NearBlock) else "stand on"
        return f"{verb} the {words_of(name)}"
    return subgoal.describe()


def _all_of(name: str) -> str:
    words = words_of(name)
    return words if _uncounted(words) else plural(words)


def _suffix_word(kinds: list[str]) -> str:
    """The id a kind's names share at their end: "log" for oak_log, birch_log, ..."""
    first = kinds[0].split("_")
    for n in range(1, len(first)):
        end = "_".join(first[n:])
        if all(k.endswith("_" + end) for k in kinds):
            return end
    return kinds[0]


def _name(check: Check) -> str:
    if isinstance(check, HasItem):
        return check.has_item.name
    if isinstance(check, ContainerHas):
        return check.container_has.name
    if isinstance(check, NearBlock):
        return check.near_block.block
    if isinstance(check, StandingOn):
        return check.standing_on.block
    return ""


OUT_OF_HOLE = "climb out onto the ground"
# Words a build was asked in start with a verb; a says without one is a part of a longer ask.
BUILD = "build it"


def _builds(check: Check) -> bool:
    """A structure: a blueprint or a shelter, alone or with the other parts of a build."""
    parts = check.all if isinstance(check, All) else [check]
    return any(isinstance(part, Blueprint | Shelter) for part in parts)


def _build(says: str) -> str:
    """A build in the words it was asked in ("build a small house"), else "build it"."""
    words = says.strip().rstrip(".!?").strip()
    return words.removeprefix("please ").strip() or BUILD


def _all(check: All, says: str) -> str:
    """Out of a hole (at the ground's level, standing, outside its columns: grounding.py's _on_ground)
    is one thing to a player; any other `all` is its parts."""
    kinds = {type(part) for part in check.all}
    if FeetYAtLeast in kinds and StandingOnGround in kinds:
        return OUT_OF_HOLE
    return AND.join(check_phrase(part, says) for part in check.all)


def _cell(x: float, y: float, z: float) -> str:
    """A point as the block it is in: "12 65 -8"."""
    return " ".join(str(math.floor(v)) for v in (x, y, z))


def _number(value: float) -> str:
    return f"{round(value, 1):g}"
