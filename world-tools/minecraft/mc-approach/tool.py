from pydantic import Field

from agent.bridge import timeouts
from agent.mc.names import BlockName
from agent.world.results.approach import ApproachReport
from agent.world.toolkit import RADII, ToolArgs, menu, run_tool

# The arguments' bounds (here only: approach.js takes the values as checked).
MAX_RADIUS, MAX_TIMEOUT_S = 32, 120


class Args(ToolArgs):
    block: BlockName = Field(description="the block name, e.g. gold_block, chest, oak_log",
                            json_schema_extra={"domain": "block_seen"})
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look in", json_schema_extra=RADII)
    dig: bool = Field(True, description="when every block of the kind within the radius is buried, dig a way to the "
                                        "nearest: stairs and a tunnel, never straight down, never into lava or water")
    timeout: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk, or the digging",
                           json_schema_extra=menu(60, 120))

    def bridge_args(self):
        return {"block": self.block, "radius": self.radius, "dig": self.dig, "timeout_s": self.timeout}


def act(bot, a: Args):
    return bot.call("approach", a.bridge_args(), timeout_s=a.timeout + timeouts.CALL_S)


def summarize(r: ApproachReport) -> str:
    if not r.reached or r.position is None:
        return f"{r.stop_reason}: {r.detail}; feet at {r.end.text()}"
    p, dug = r.position, f", {len(r.dug)} blocks dug on the way" if r.dug else ""
    return f"beside the {r.block} at ({p.x}, {p.y}, {p.z}), {r.distance:.1f} blocks from the feet{dug}"


def judge(r: ApproachReport) -> tuple[str, str] | None:
    return None if r.reached else (r.stop_reason, summarize(r))


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, ApproachReport, summarize, judge, feeds_map=True)
