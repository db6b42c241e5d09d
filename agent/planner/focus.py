"""The sub-goal the outer loop works on: the first of the run's sub-goals (agent/goals) that does
not hold in the world, read before each outer step of the main plan. Reading them all each time,
rather than stepping through a list, lets a sub-goal undone by a later step (logs dropped on the
way back) become the focus again; one that a later sub-goal uses up (logs carried, then put in
a chest) is done for good once it has held.

The focus decides what the run offers first: the tools that achieve its kind (a Skill.md's
`achieves:`; of an `all`, the kinds of the parts that do not hold yet) and the arguments its
check states (given.py), and what mc-explore and a method's `[when: goal]` pursue (the
executor's goal_check: the whole sub-goal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from agent.checks import Check, Verdict
from agent.checks.model import All, HasItem
from agent.chat.team import Holdings
from agent.goals.asking import ASK_STEPS
from agent.goals.needs import MAX_DEPTH, MAX_NEEDS, NEED_STEPS, needed
from agent.goals.understanding import SubGoal, Understanding, is_where
from agent.mc.names import Item
from agent.planner.given import dug, made, parts_of
from agent.tools import Toolbox
from agent.tools.spec import ToolSpec
from agent.trace.schema import ModelReading

# The domains of items that are made, not found, and of blocks dug (agent/tools/schema.py's Domain).
MADE = ("craftable", "obtainable", "smeltable")
DUG = ("block_seen",)

Reader = Callable[[Check], Verdict]
# Readings a sub-goal added on the way stays the focus before it is given up, by what added it.
GIVE_UP_AFTER = {"need": NEED_STEPS, "team": ASK_STEPS}


@dataclass
class Focus:
    goals: Understanding
    read: Reader
    index: int | None = None  # 0-based; None before the first reading
    used: set[int] = field(default_factory=set)  # sub-goals that do not last and have held (or were given up): done for good
    needs: int = 0  # sub-goals added for what steps lacked, in this run
    tries: dict[int, int] = field(default_factory=dict)  # readings a need stayed the focus, by its position
    # Whether the model read words no rule read (the gate of agent/session/model_reading.py), for
    # the trace's `understood`; None when rules read them or the check was given.
    model_reading: ModelReading | None = None

    def update(self) -> SubGoal | None:
        """Reads the sub-goals in order; the new focus when it moved, else None. A sub-goal that a
        later one uses up (logs carried, then stored) counts as done once it has held; the rest
        are read each time. A need the focus stayed on for NEED_STEPS readings is given up (the
        world could not give it; the step that needed it may find another way). When every one
        holds the focus stays where it was: the run's own check decides the end. An ask of a
        teammate or a give is given up after ASK_STEPS readings (agent/goals/asking.py)."""
        for index, subgoal in enumerate(self.goals.subgoals):
            if index in self.used:
                continue
            if self.read(subgoal.check).holds:
                if not subgoal.lasting:
                    self.used.add(index)
                continue
            if subgoal.by in GIVE_UP_AFTER and self._tried(index) > GIVE_UP_AFTER[subgoal.by]:
                self.used.add(index)
                continue
            if index == self.index:
                return None
            self.index = index
            return subgoal
        return None

    def not_yet_held(self) -> SubGoal | None:
        """The first place the goal passes through (a sub-goal of where the bot is that does not
        last) that has not held yet, read now: "find the gold block, then come back" is not done
        at the start, where coming back already holds. None when every such one has held."""
        for index, subgoal in enumerate(self.goals.subgoals):
            if subgoal.lasting or not is_where(subgoal.check) or index in self.used:
                continue
            if not self.read(subgoal.check).holds:
                return subgoal
            self.used.add(index)
        return None

    def judge(self, check: Check) -> Verdict:
        """The run's verdict: `check` (the lasting sub-goals) holds, and every sub-goal passed
        through on the way has held."""
        passed = self.not_yet_held()  # read at every judging: a place passed through between steps counts
        verdict = self.read(check)
        if verdict.holds and passed is not None:
            return Verdict(holds=False, detail=f"{verdict.detail}; but {passed.check.describe()} ({passed.says}) "
                                               f"has not held yet")
        return verdict

    def _tried(self, index: int) -> int:
        self.tries[index] = self.tries.get(index, 0) + 1
        return self.tries[index]

    @property
    def current(self) -> SubGoal | None:
        return None if self.index is None else self.goals.subgoals[self.index]

    def unmet(self) -> Check | None:
        """What of the focused sub-goal's check does not hold now: the parts of an `all` that do
        not, as one check (the whole check while none or every part holds). The offer aims at
        this, so a tool that achieves only a part already done (the feet high enough, but still
        inside the pit) is no longer put first."""
        if (subgoal := self.current) is None:
            return None
        parts = parts_of(subgoal.check)
        left = [part for part in parts if not self.read(part).holds] if len(parts) > 1 else parts
        if not left or len(left) == len(parts):
            return subgoal.check
        return left[0] if len(left) == 1 else All(all=left)


    def need(self, items: list[Item], tool: str, team: Holdings | None = None) -> list[tuple[int, SubGoal]]:
        """Carrying `items`, which a step of `tool` towards the focus lacked, as sub-goals just
        before it, so the next reading turns to them; within the bounds of needs.py, and not an
        item the focus or a sub-goal before it already asks to carry (a need met, then used up,
        is asked again). What `team`'s teammates carry is asked of them. The sub-goals added with
        their positions (0-based), in order."""
        if (current := self.current) is None or self.index is None or current.depth >= MAX_DEPTH:
            return []
        asked = {part.has_item.name for index, subgoal in enumerate(self.goals.subgoals[:self.index + 1])
                 if index not in self.used for part in parts_of(subgoal.check) if isinstance(part, HasItem)}
        fresh = [item for item in items if item.name not in asked][:max(0, MAX_NEEDS - self.needs)]
        added = self._insert(needed(fresh, tool, current.depth + 1, team, current.check))
        self.needs += len(added)
        return added

    def take(self, subgoals: list[SubGoal]) -> list[tuple[int, SubGoal]]:
        """`subgoals` (a player's asks to hand something over) first of all, so the next reading
        turns to them: a teammate waits on them, and needs added before the focus (this bot's own
        wait while that teammate makes the thing) must not come first. Not one the same as a
        sub-goal still to do (an ask said twice)."""
        waiting = {s.says for i, s in enumerate(self.goals.subgoals) if i not in self.used}
        return self._insert([s for s in subgoals if s.says not in waiting], at=0)

    def _insert(self, added: list[SubGoal], at: int | None = None) -> list[tuple[int, SubGoal]]:
        """`added` at `at` (default: before the focus, or first before any reading); the focus
        index moves past them, so that update() moves to the first. Their positions (0-based)."""
        if not added:
            return []
        at = (self.index or 0) if at is None else at
        subgoals, n = self.goals.subgoals, len(added)
        self.goals = self.goals.model_copy(update={"subgoals": [*subgoals[:at], *added, *subgoals[at:]]})
        self.used = {i + n if i >= at else i for i in self.used}
        self.tries = {i + n if i >= at else i: k for i, k in self.tries.items()}
        if self.index is not None and self.index >= at:
            self.index += n
        return list(enumerate(added, at))


def achievers(check: Check, toolbox: Toolbox) -> list[str]:
    """The tools whose Skill.md says they achieve the check's kind (any part's, for `all`); for
    an item no recipe or furnace makes (a log), not the tools that only make things (craft,
    mc-craft, mc-smelt: their item is one a recipe or a furnace makes); for one no dig gives
    (planks, a door: only a build holds them, and its cells are kept), not mc-collect, whose
    block is one seen."""
    parts = parts_of(check)
    kinds = {part.kind for part in parts}
    unmade = all(isinstance(p, HasItem) and not made(p.has_item.name) for p in parts if p.kind == "has_item")
    items = [p.has_item.name for p in parts if isinstance(p, HasItem)]
    undug = bool(items) and not any(dug(item) for item in items)
    return [name for name, spec in toolbox.tools.items()
            if kinds & set(spec.achieves) and not (unmade and _takes(spec, MADE)) and not (undug and _takes(spec, DUG))]


def _takes(spec: ToolSpec, domains: tuple[str, ...]) -> bool:
    """Whether the tool's required item is of these domains (agent/planner/domains.py): MADE, an
    item that is made; DUG, a block seen."""
    schema = spec.schema_hint
    return schema is not None and any(node.domain in domains for name, node in schema.properties.items()
                                       if name in schema.required)


def aimed_words(words: str, check: Check | None) -> str:
    """What a ranked offer matches tools against: the words, and what the check asks in words
    ("near_block gold_block 2": near block gold block), so a check read from words no tool's
    text shares still finds the tools that serve it."""
    return words if check is None else f"{words} {check.describe().replace('_', ' ')}"
