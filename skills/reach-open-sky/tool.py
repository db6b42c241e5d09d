"""reach-open-sky: python checks the ground truth; mc-explore searches, and climbs or digs
through its sub-planner when no walkable way is left."""

from typing import Literal

from pydantic import Field

from agent.tools import ToolResult
from agent.tools.model_schema import ArgsModel

SKY = {"sky_visible": True}
# Per round: a long walk, and one climbing sub-plan when the walking runs out.
EXPLORE = {"type": "mc-explore", "check": SKY, "climbs": 1, "max_blocks": 128, "max_seconds": 120}


class Args(ArgsModel):
    rounds: Literal[1, 2, 3, 4, 5] = Field(2, description="rounds of exploring before giving up (default 2)")


def tool(input_value=None, **kwargs):
    executor = kwargs.pop("executor")
    rounds = Args.model_validate(kwargs).rounds  # the executor checked the schema made from it: this holds
    for done_rounds in range(rounds + 1):
        seen = executor.execute_action({"type": "mc-observe-blocks", "radius": 8})
        if not seen.ok:
            return seen
        if seen.data.get("sky_visible"):
            status = executor.execute_action({"type": "mc-status"})
            position = status.data.get("position") if status.ok else None
            data = {"sky_visible": True, "rounds": done_rounds, "position": position}
            return ToolResult.success(data, f"open sky above after {done_rounds} round(s) of exploring; {seen.value}")
        if done_rounds < rounds:
            executor.execute_action(EXPLORE)
    return ToolResult.failure("tool_failed", f"sky still hidden after {rounds} round(s) of exploring: {seen.value}", seen.data)
