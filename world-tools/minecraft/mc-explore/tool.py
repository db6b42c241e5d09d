"""mc-explore: walk to the most promising place the map knows, look, remember, again, until
the goal check holds, nothing is left to explore, or the bound is hit.

Python decides where to go (agent.world.spatial: the map and next_target); the pathfinder
walks there (bridge/helpers/goto.js); the world decides when it is done (the check,
agent.checks). When no frontier is left, a short sub-plan with the climbing tools may get the
bot out of the pit or room, and exploring goes on from there."""

import math
import time
from typing import Annotated, Any, Literal

from pydantic import Field, WithJsonSchema, field_validator

from agent.bridge import timeouts
from agent.checks import Check, Verdict, evaluate, parse_check, pursued_check
from agent.checks.model import CheckError
from agent.mc.geometry import Frozen, Vec3
from agent.world.pathfinding import GotoReport
from agent.world.spatial import Target, memory_of, next_target, survey_into
from agent.world.spatial.walking import SAFE_DROP
from agent.world.toolkit import ToolArgs, run_tool, stop_if_cancelled

SURVEY_RADIUS = 8
# How far from the bot (blocks, each way) the map is searched for places to go.
SEARCH_RADIUS = 24
# One walk may take this long; the pathfinder gives up sooner on a path it cannot find.
LEG_TIMEOUT_S = 20
FRONTIERS_SHOWN = 8
CLIMB_TOOLS = ["mc-map", "mc-observe-blocks", "mc-look", "mc-pillar-up", "mc-dig-stairs", "mc-tunnel"]
CLIMB_STEPS = 4
STUCK_GOAL = (
    "mc-explore is stuck: no place it can walk to is left to explore, and the goal check is false "
    "({verdict}). {where}. Get out by climbing or digging: in a pit open to the sky, call "
    "mc-pillar-up (it needs blocks in the inventory) or mc-dig-stairs with direction up; in a closed "
    "room or tunnel, turn to the nearest wall with mc-look, then call mc-tunnel to dig through it (mc-tunnel and "
    "mc-dig-stairs dig along the facing). Report DONE once you have climbed or dug."
)


class Args(ToolArgs):
    max_blocks: Literal[16, 32, 64, 128, 256] = Field(64, description="blocks to walk at most")
    max_seconds: Literal[30, 60, 120, 300] = Field(120, description="seconds at most")
    allow_dig: bool = Field(False, description="pathfinder may dig through blocks")
    allow_build: bool = Field(False, description="pathfinder may place blocks to tower or bridge")
    climbs: Literal[0, 1, 2] = Field(2, description="climbing sub-plans allowed when no frontier is left")
    # Read as a Check (below); offered to the planner as an object.
    check: Annotated[Any, WithJsonSchema({"type": "object"})] = Field(
        None, description="a goal check to explore for instead of the run's (YAML/JSON form)")

    @field_validator("check")
    @classmethod
    def _parsed(cls, value: Any) -> Check | None:
        try:
            return None if value in (None, {}) else parse_check(value, "check")
        except CheckError as e:
            raise ValueError(str(e)) from None


StopReason = Literal["goal_reached", "goal_lost", "no_frontier", "max_blocks", "max_seconds"]


class Cell(Frozen):
    """A feet block, world blocks."""

    x: int
    y: int
    z: int


class Leg(Frozen):
    """One walk to a chosen cell."""

    target: Cell
    why: Literal["goal", "frontier", "beyond_wall"] = Field(
        description="goal: the check would hold there; frontier: next to unknown space; beyond_wall: unknown space "
                    "behind a one-block wall, dug through (allow_dig)")
    reached: bool
    reason: str = Field(description="pathfinder's: reached, no_path, timeout, ...")
    end: Vec3


class FrontierLeft(Frozen):
    """A frontier still open when mc-explore stopped."""

    x: int
    y: int
    z: int
    moves: int | None = Field(description="walking moves from the bot; None: not reachable by walking")
    distance: float = Field(description="straight-line blocks from the bot")


class Result(Frozen):
    """What mc-explore returns: why it stopped, what it found, the way it went and what is left.

    World blocks: x east, y up, z south; a cell is a feet block."""

    stop_reason: StopReason
    check: str = Field(description="the goal check explored for, as written by describe()")
    verdict: str = Field(description="the check read in the world at the end")
    start: Vec3
    end: Vec3
    sky_above: bool = Field(description="nothing opaque above the head where it stopped")
    blocks_walked: float = Field(description="sum of the legs' straight-line lengths, blocks")
    seconds: float
    legs: list[Leg]
    climbs: int = Field(description="sub-plans run with the climbing tools when no frontier was left")
    frontiers_left: list[FrontierLeft] = Field(description="nearest first, at most 8")
    known_cells: int


class Exploration:
    """One mc-explore call: the check it explores for, the map, and the legs walked so far."""

    def __init__(self, executor, bot, a: Args):
        self.executor, self.bot, self.a = executor, bot, a
        self.check = a.check or pursued_check(executor)
        self.memory = memory_of(executor)
        self.started, self.start = time.monotonic(), bot.state().position
        self.legs: list[Leg] = []
        self.failed: set[tuple[int, int, int]] = set()  # cells a walk did not reach
        self.climbs = 0

    def run(self) -> Result:
        while True:
            stop_if_cancelled(self.executor)
            verdict = evaluate(self.bot, self.check)
            if not verdict.holds and self.legs and self.legs[-1].why == "goal" and self.legs[-1].reached:
                self.failed.add(_cell(self.legs[-1].target))  # the map said it would hold there; the world says no
            stop = "goal_reached" if verdict.holds else "goal_lost" if verdict.lost else self._bound()
            if stop:
                return self._report(stop, verdict)
            feet = survey_into(self.bot, self.memory, SURVEY_RADIUS).feet
            here = (feet.x, feet.y, feet.z)
            target = next_target(self.memory, here, self.check, self.failed, radius=SEARCH_RADIUS, max_drop=SAFE_DROP,
                                 change_terrain=self.a.allow_dig or self.a.allow_build, dig=self.a.allow_dig)
            if target is not None:
                self._walk(target)
            elif not self._climb(here, verdict):
                return self._report("no_frontier", verdict)

    def walked(self) -> float:
        """Blocks, leg by leg in straight lines."""
        ends = [leg.end for leg in self.legs]
        return sum(b.distance_to(a) for a, b in zip([self.start, *ends], ends))

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def _bound(self) -> str | None:
        if self.walked() >= self.a.max_blocks:
            return "max_blocks"
        return "max_seconds" if self.seconds() >= self.a.max_seconds else None

    def _walk(self, target: Target) -> None:
        x, y, z = target.cell
        limit = max(1.0, min(LEG_TIMEOUT_S, self.a.max_seconds - self.seconds()))
        args = {"x": x + 0.5, "y": y, "z": z + 0.5, "exact": True, "timeout_s": limit,
                "allow_dig": self.a.allow_dig, "allow_build": self.a.allow_build, "max_drop": SAFE_DROP}
        went = GotoReport.model_validate(self.bot.call("goto", args, timeout_s=limit + timeouts.CALL_S))
        self.legs.append(Leg(target=Cell(x=x, y=y, z=z), why=target.why, reached=went.reached, reason=went.reason,
                             end=went.end))
        if not went.reached:
            self.failed.add(target.cell)

    def _climb(self, here: tuple[int, int, int], verdict: Verdict) -> bool:
        """A climbing sub-plan, while any is left; False when none may run."""
        if self.climbs >= self.a.climbs or self.executor.subplanner is None:
            return False
        self.climbs += 1
        where = "Sky is visible above" if self.memory.sky(*here) else "Sky is hidden above"
        goal = STUCK_GOAL.format(verdict=verdict.detail, where=where)
        self.executor.subplan(goal, tools=CLIMB_TOOLS, max_steps=CLIMB_STEPS)
        self.failed.clear()  # the terrain may have changed: every cell is worth a new try
        return True

    def _report(self, stop: str, verdict: Verdict) -> Result:
        feet = survey_into(self.bot, self.memory, SURVEY_RADIUS).feet
        here = (feet.x, feet.y, feet.z)
        left = sorted(self.memory.frontiers(here, SAFE_DROP, radius=SEARCH_RADIUS), key=lambda f: (f.moves is None, f.moves or 0))
        shown = [FrontierLeft(x=f.x, y=f.y, z=f.z, moves=f.moves, distance=round(math.dist((f.x, f.y, f.z), here), 1))
                 for f in left[:FRONTIERS_SHOWN]]
        return Result(stop_reason=stop, check=self.check.describe(), verdict=verdict.detail, start=self.start,
                             end=self.bot.state().position, sky_above=self.memory.sky(*here),
                             blocks_walked=round(self.walked(), 2), seconds=round(self.seconds(), 2), legs=self.legs,
                             climbs=self.climbs, frontiers_left=shown, known_cells=self.memory.known_cells())


def _cell(c: Cell) -> tuple[int, int, int]:
    return c.x, c.y, c.z


def summarize(r: Result) -> str:
    e = r.end
    head = {"goal_reached": f"goal reached ({r.verdict})",
            "goal_lost": f"the goal can no longer hold, wherever the bot goes ({r.verdict})",
            "no_frontier": f"stuck: no place left to explore by walking ({r.verdict})",
            "max_blocks": f"walked its {r.blocks_walked:.0f} blocks ({r.verdict})",
            "max_seconds": f"out of time after {r.seconds:.0f} s ({r.verdict})"}[r.stop_reason]
    climbed = f", {r.climbs} climbing sub-plan(s)" if r.climbs else ""
    return (f"{head}; {len(r.legs)} legs, {r.blocks_walked:.1f} blocks walked in {r.seconds:.1f} s{climbed}; "
            f"now at x={e.x:.1f} y={e.y:.1f} z={e.z:.1f}, sky {'visible' if r.sky_above else 'hidden'} above; "
            f"{len(r.frontiers_left)} frontier(s) left")


def judge(r: Result):
    if r.stop_reason == "goal_reached":
        return None
    code = {"goal_lost": "goal_lost", "no_frontier": "stuck"}.get(r.stop_reason, "timeout")
    return code, summarize(r)


def tool(input_value=None, **kwargs):
    executor = kwargs.get("executor")
    return run_tool(kwargs, Args, lambda bot, a: Exploration(executor, bot, a).run(), Result, summarize, judge)
