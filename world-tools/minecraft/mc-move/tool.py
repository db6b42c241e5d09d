from pydantic import ConfigDict, Field, model_validator

from agent.bridge import timeouts
from agent.bridge.models import MoveReport
from agent.world.toolkit import BLOCKS, ToolArgs, menu, run_tool

KEYS = ("forward", "back", "left", "right", "jump", "sprint")
# The bridge waits up to 3 s for a falling bot to land before it reports.
LANDING_S = 3.0
# A grid step may take 0.5 s a block, 1 s more for each climb or drop, plus one second
# (bridge/helpers/move.js); at worst every block is a climb or a drop.
STEP_S_PER_BLOCK, STEP_BASE_S = 1.5, 1.0


class Args(ToolArgs):
    # The grammar's forms (agent/tools/schema.py's Form): whole blocks, or one key held for a duration.
    model_config = ConfigDict(json_schema_extra={"forms": [
        {"required": ["blocks"], "absent": [*KEYS, "duration"]},
        *({"required": [key, "duration"], "fixed": {key: {"enum": [True]}}, "absent": ["blocks", "max_drop"]}
          for key in KEYS)]})
    forward: bool = False
    back: bool = False
    left: bool = False
    right: bool = False
    jump: bool = False
    sprint: bool = False
    duration: float | None = Field(None, ge=0.05, le=10, description="seconds to hold the keys",
                                   json_schema_extra=menu(0.5, 1, 2))
    blocks: int | None = Field(None, ge=1, le=32, description="whole blocks along the facing", json_schema_extra=BLOCKS)
    max_drop: int | None = Field(None, ge=1, le=16,
                                 description="with blocks: deepest drop to walk down, blocks (default: no fall damage)")

    @model_validator(mode="after")
    def _one_form(self) -> "Args":
        keys = [k for k in KEYS if getattr(self, k)]
        if self.blocks is not None and (keys or self.duration is not None):
            raise ValueError("give either blocks, or keys with a duration, not both")
        if self.blocks is None and not (keys and self.duration is not None):
            raise ValueError("give blocks: N, or at least one key (forward, back, left, right, jump, sprint) with a duration")
        if self.max_drop is not None and self.blocks is None:
            raise ValueError("max_drop goes with blocks: N")
        return self


Result = MoveReport


def act(bot, a: Args):
    if a.blocks is not None:
        limit = STEP_BASE_S + a.blocks * STEP_S_PER_BLOCK + LANDING_S + timeouts.CALL_S
        step = {"blocks": a.blocks} | ({"max_drop": a.max_drop} if a.max_drop is not None else {})
        return bot.call("step", step, timeout_s=limit)
    controls = [k for k in KEYS if getattr(a, k)]
    limit = a.duration + LANDING_S + timeouts.CALL_S
    return bot.call("hold", {"controls": controls, "seconds": a.duration}, timeout_s=limit)


def _blocks(n: int) -> str:
    return f"{n} block{'' if n == 1 else 's'}"


def _stopped_before(m: Result) -> str:
    """What a grid step stopped before, as read ahead: '' when it did not stop early."""
    if m.distance is None:
        return ""
    what = f"a {m.depth}-block drop" if m.stop_reason == "drop_ahead" else (m.block or "an unloaded block")
    return f"stopped before {what} {_blocks(m.distance)} from the start; "


def summarize(m: Result) -> str:
    d = m.displacement
    return (f"{m.stop_reason}: {_stopped_before(m)}moved {m.moved:.2f} blocks (dx {d.x:+.2f}, dy {d.y:+.2f}, dz {d.z:+.2f}) "
            f"to {m.end.text()}, facing {m.facing}"
            + (f", fell {m.fall_distance:.1f}" if m.fall_distance > 1 else ""))


def judge(m: Result):
    return None if m.stop_reason == "completed" else (m.stop_reason, summarize(m))


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
