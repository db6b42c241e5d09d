from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from agent.bridge.models import Orientation
from agent.world.toolkit import PitchDeg, ToolArgs, WorldXZ, WorldY, YawDeg, run_tool, whole_point


class Args(ToolArgs):
    # The grammar's forms (agent/tools/schema.py's Form): a yaw, a facing, a point or a snap alone.
    model_config = ConfigDict(json_schema_extra={"forms": [
        {"required": ["yaw"], "absent": ["facing", "x", "y", "z"]},
        {"required": ["facing"], "absent": ["yaw", "x", "y", "z"]},
        {"required": ["x", "y", "z"], "absent": ["yaw", "facing", "pitch"]},
        {"required": ["snap"], "fixed": {"snap": {"enum": [True]}}, "absent": ["yaw", "facing", "x", "y", "z"]}]})
    yaw: YawDeg | None = Field(None, description="degrees: 0 south, 90 west, 180 north, -90 east")
    pitch: PitchDeg | None = Field(None, description="degrees, positive looks down; kept if omitted")
    facing: Literal["north", "east", "south", "west"] | None = None
    snap: bool | None = Field(None, description="true: turn to the nearest cardinal direction")
    # A place the run knows (domains.py): the grammar writes x, y and z together or none of them.
    x: WorldXZ | None = Field(None, description="world point to look at (with y and z)",
                              json_schema_extra={"domain": "place"})
    y: WorldY | None = Field(None, json_schema_extra={"domain": "place"})
    z: WorldXZ | None = Field(None, json_schema_extra={"domain": "place"})

    @model_validator(mode="after")
    def _one_target(self) -> "Args":
        whole_point(self)
        targets = sum(given is not None for given in (self.yaw, self.facing, self.x))
        if targets > 1:
            raise ValueError("give only one of: yaw (and optional pitch), facing, or a point x, y, z")
        if targets == 0 and self.snap is not True:
            raise ValueError("give yaw (and optional pitch), facing, a point x, y, z, or snap: true")
        return self


Result = Orientation


def act(bot, a: Args):
    args = a.bridge_args()
    renamed = {"yaw": "yaw_deg", "pitch": "pitch_deg"}
    return bot.call("look", {renamed.get(k, k): v for k, v in args.items()})


def summarize(o: Result) -> str:
    return f"facing {o.facing} (yaw {o.yaw_deg:.1f}, pitch {o.pitch_deg:.1f})"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize)
