"""What a run understood of its goal: an ordered list of sub-goals, each a check the world judges.

"Chop three oak logs and put them in the chest" is two: has_item oak_log 3, then container_has
oak_log 3. The planner works on the first sub-goal that does not hold (agent/planner/focus.py);
the run is done when the sub-goals that must last hold together (`check`): the logs put away
are no longer carried, so the first does not last.

Some sub-goals are read before the bot is in the world and grounded once it is (grounding.py):
"come back here" is `within` the start, "climb 4 blocks" is feet_y_at_least the start's y + 4,
"get out of this hole" is standing at the level of the ground around, "some wood" is the log
kind found nearest, "build a small house" is the house's template placed ahead of where the bot
looks (structures.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_serializer, field_validator

from agent.blueprint.templates import Order
from agent.checks.model import All, Check, ContainerHas, FeetYAtLeast, HasItem, Not, Within, parse_check
from agent.config.layers import StrictModel
from agent.mc.names import Item

# rules: read from the words (meaning.py); given: the check a user or a scenario wrote; model: the
# model's classification among grounded choices; need: what a failed step lacked (needs.py);
# team: an ask of a teammate, or a player's ask handed over (asking.py).
ReadBy = Literal["rules", "given", "model", "need", "team"]
# A count the world gives when the run starts: every log of the nearest tree of the kind, all the
# bot carries of the item ("held": and one when it carries none: "put the dirt in the chest"), what
# the nearest chest holds of it; "given": what the bot carries plus one, so that carrying less than
# that says it was handed over.
CountOf = Literal["tree", "carried", "held", "chest", "given"]


class SubGoal(StrictModel):
    """One step of the goal and the check that says it is reached."""

    says: str = Field(description="the words it was read from")
    check: Check
    by: ReadBy = "rules"
    from_start: bool = Field(False, description="the check's place is relative to where the bot starts: "
                                                "within's point is an offset from the start, feet_y_at_least "
                                                "a rise above it; grounding makes it absolute")
    kinds: list[str] = Field(default_factory=list, description="names of a kind (any log): the world picks "
                                                               "the one to pursue; the check names the first")
    on_ground: bool = Field(False, description="out of a hole: standing at the level of the ground around the "
                                               "start, which grounding reads")
    players: list[str] = Field(default_factory=list, description="near_player for a pronoun: the goal's words, "
                                                                 "among which grounding finds a player online")
    lasting: bool = Field(True, description="false when a later sub-goal uses it up (logs put in a chest)")
    depth: int = Field(0, ge=0, description="a need's depth: 1 for what a step lacked, 2 for what a step "
                                            "towards that lacked, ...; 0 for what the goal says")
    given: dict[str, dict[str, Any]] = Field(default_factory=dict,
                                             description="the tools that do it and their arguments, in order, "
                                                         "offered first: a teammate to ask (mc-tell, then "
                                                         "mc-wait), an item to hand over (mc-give)")
    building: Order | None = Field(None, description="a structure asked, which grounding places ahead of the bot "
                                                     "or around the thing named; until then the check has it at "
                                                     "the origin, looking south")
    count_of: CountOf | None = Field(None, description="the check's count is read in the world at the start "
                                                       "(CountOf); until then it is 1")
    counted: str | None = Field(None, description="with count_of carried or held: the item whose count is "
                                                  "meant, when not the check's own (smelting the raw beef "
                                                  "carried makes as many cooked)")
    at_nearest: bool = Field(False, description="container_has: the chest meant is the nearest one, whose cell "
                                                "grounding puts in the check")
    contents: bool = Field(False, description="everything the nearest chest holds at the start, taken: grounding "
                                              "makes the check a has_item of each; until then it is a has_item "
                                              "of the chest's name")
    above_ground: bool = Field(False, description="feet_y_at_least is a height above the ground around the start")
    on_top: bool = Field(False, description="standing_on the top of the structure of that block nearest the start "
                                            "(its highest block with room above), which grounding reads")

    @field_validator("check", mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Check:
        return parse_check(value, "check")

    @field_serializer("check")
    def _written(self, check: Check) -> dict[str, Any]:
        return check.as_data()

    @property
    def grounded(self) -> bool:
        return not (self.from_start or self.kinds or self.players or self.on_ground or self.building or
                    self.count_of or self.counted or self.at_nearest or self.contents or self.above_ground or
                    self.on_top)

    def describe(self) -> str:
        """The check in a line, with what the world will fill in said in words: `container_has dirt
        (all carried) at the nearest chest`, `within 2 of the start`, `has_item any _log 3`."""
        if self.contents:
            return "has_item everything in the nearest chest"
        if self.count_of == "given" and "mc-give" in self.given:
            give = self.given["mc-give"]
            return f"give {give['player']} {give['count']} {give['item']}"
        if self.on_ground:
            return "out of the hole, on the ground around"
        text = self.check.describe()
        number = _count(self.check)
        if self.count_of is not None and number is not None:
            counted = COUNTED[self.count_of] if self.counted is None else \
                COUNTED[self.count_of].replace("all carried", f"one for each {self.counted} carried")
            text = text.replace(f" {number}", f" ({counted})", 1)
        if self.kinds:
            text = text.replace(self.kinds[0], f"any {_suffix(self.kinds)}", 1)
        if self.players:
            text = text.replace(" someone ", " (a player the words mean) ", 1)
        if self.from_start and isinstance(self.check, Within):
            text = f"within {self.check.within.distance:g} of the start"
        elif self.from_start and isinstance(self.check, FeetYAtLeast):
            text = f"feet_y_at_least start + {self.check.feet_y_at_least:g}"
        elif self.above_ground and isinstance(self.check, FeetYAtLeast):
            text = f"feet_y_at_least ground + {self.check.feet_y_at_least:g}"
        return text + (" at the nearest chest" if self.at_nearest else "")


COUNTED = {"tree": "the tree's logs", "carried": "all carried", "held": "all carried, else 1", "chest": "all in the chest",
           "given": "fewer than carried"}


def _count(check: Check) -> int | None:
    if isinstance(check, HasItem):
        return check.has_item.count
    if isinstance(check, ContainerHas):
        return check.container_has.count
    if isinstance(check, Not) and isinstance(check.not_, HasItem):
        return check.not_.has_item.count
    return None


def _suffix(kinds: list[str]) -> str:
    """What a kind's names share at their end: _log for oak_log, birch_log, ..."""
    first = kinds[0].split("_")
    for n in range(1, len(first)):
        end = "_" + "_".join(first[n:])
        if all(k.endswith(end) for k in kinds):
            return end
    return kinds[0]


class Unread(StrictModel):
    """Words of the goal nothing read, and why."""

    words: str = Field(description="as the user wrote them")
    why: str = Field("", description="what was not understood of them, when more can be said")

    def line(self) -> str:
        return f'"{self.words}"' + (f" ({self.why})" if self.why else "")


class Understanding(StrictModel):
    """The goal's sub-goals in order (none when nothing in the words could be read), and the words
    that were not understood."""

    goal: str
    subgoals: list[SubGoal] = Field(default_factory=list)
    unread: list[Unread] = Field(default_factory=list)

    @classmethod
    def given(cls, goal: str, check: Check | None) -> Understanding:
        """A check written by a user or a scenario: one sub-goal, taken as written."""
        return cls(goal=goal, subgoals=[] if check is None else needs_first([SubGoal(says=goal, check=check, by="given")]))

    @property
    def check(self) -> Check | None:
        """What the world must show at the end: every lasting sub-goal at once; None without any."""
        lasting = [s.check for s in self.subgoals if s.lasting]
        if not lasting:
            return None
        return lasting[0] if len(lasting) == 1 else All(all=lasting)

    def line(self) -> str:
        """`1. has_item oak_log 3  2. container_has oak_log 3`, as `mcagent run` prints it."""
        if not self.subgoals:
            return "nothing a check can judge"
        return "  ".join(f"{n}. {s.describe()}" for n, s in enumerate(self.subgoals, 1))

    def unread_line(self) -> str | None:
        """`not understood: "the shed" (no such thing in the game)`; None when every word was read."""
        if not self.unread:
            return None
        return "not understood: " + "; ".join(u.line() for u in self.unread)

    @property
    def partly(self) -> bool:
        """Some of the words were read, some not."""
        return bool(self.subgoals) and bool(self.unread)


# Checks of where the bot is: of two in a row only the later can hold at the end.
WHERE = frozenset({"within", "near_block", "near_player", "feet_y_at_least", "outside", "sky_visible", "standing_on",
                   "standing_on_ground"})


def left_behind(subgoals: list[SubGoal]) -> list[SubGoal]:
    """The sub-goals with each place the bot is to be left for a later one not lasting: "go to
    the gold block, then come back" ends at the start, not at both."""
    later = False
    out: list[SubGoal] = []
    for subgoal in reversed(subgoals):
        where = is_where(subgoal.check)
        out.append(subgoal.model_copy(update={"lasting": False}) if where and later else subgoal)
        later = later or where
    return out[::-1]


def is_where(check: Check) -> bool:
    """Whether the check says only where the bot is (not what it or a chest holds)."""
    parts = check.all if isinstance(check, All) else [check]
    return all(is_where(part) if isinstance(part, All) else part.kind in WHERE for part in parts)


def needs_first(subgoals: list[SubGoal]) -> list[SubGoal]:
    """The sub-goals with what each needs first before it: storing needs the things carried. A
    sub-goal just before that gets them serves (and does not last: once stored they are no longer
    carried); else one is added, which a bot that already carries them finds held at once."""
    out: list[SubGoal] = []
    for subgoal in subgoals:
        if isinstance(subgoal.check, ContainerHas):
            stock = subgoal.check.container_has
            last = out[-1] if out else None
            if last is not None and isinstance(last.check, HasItem) and last.check.has_item.name == stock.name:
                out[-1] = last.model_copy(update={"lasting": False})
            else:
                carry = HasItem(has_item=Item(name=stock.name, count=stock.count))
                out.append(SubGoal(says=f"carry what goes in the chest ({subgoal.says})", check=carry,
                                   by=subgoal.by, kinds=subgoal.kinds, lasting=False, count_of=subgoal.count_of,
                                   counted=subgoal.counted))
        out.append(subgoal)
    return out
