from typing import Literal

from agent.world.results.equip import Equipped
from agent.world.toolkit import ToolArgs, call, run_tool


class Args(ToolArgs):
    item: str
    destination: Literal["hand", "off-hand", "head", "torso", "legs", "feet"] = "hand"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("equip"), Equipped, lambda e: f"{e.equipped} in {e.destination}")
