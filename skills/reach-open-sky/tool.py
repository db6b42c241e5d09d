"""reach-open-sky: python checks the ground truth, a sub-plan does the walking in between."""

from __future__ import annotations

from agent.tools import ToolResult

DEFAULT_ROUNDS, MAX_ROUNDS = 3, 10
DEFAULT_STEPS, MAX_STEPS = 6, 20
# What the sub-plan may use: looking, walking and checking, no methods and no digging.
SUBPLAN_TOOLS = ["mc-look", "mc-move", "mc-observe-blocks", "mc-status"]
SUBPLAN_GOAL = (
    "Walk to a place with open sky above. What the bot sees now: {seen}. "
    "Turn towards the direction with the most free blocks and walk there; report DONE when the sky is visible."
)


def tool(input_value=None, rounds: int | None = None, steps: int | None = None, **kwargs):
    executor = kwargs["executor"]
    rounds = max(1, min(rounds or DEFAULT_ROUNDS, MAX_ROUNDS))
    steps = max(1, min(steps or DEFAULT_STEPS, MAX_STEPS))
    for done_rounds in range(rounds + 1):
        seen = executor.execute_action({"type": "mc-observe-blocks", "radius": 8})
        if not seen.ok:
            return seen
        if seen.data.get("sky_visible"):
            status = executor.execute_action({"type": "mc-status"})
            position = status.data.get("position") if status.ok else None
            data = {"sky_visible": True, "rounds": done_rounds, "position": position}
            return ToolResult.success(data, f"open sky above after {done_rounds} sub-plan(s); {seen.value}")
        if done_rounds < rounds:
            executor.subplan(SUBPLAN_GOAL.format(seen=seen.value), tools=SUBPLAN_TOOLS, max_steps=steps)
    return ToolResult.failure("tool_failed", f"sky still hidden after {rounds} sub-plan(s): {seen.value}", seen.data)
