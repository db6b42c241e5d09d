"""way-to: how far a world point is from the bot, and which way to face to walk there."""

import math

from agent.tools.registry import register_tool

# Minecraft's yaw convention in degrees: 0 faces south (+z), 90 west, 180 north, -90 east.
FACINGS = {0: "south", 90: "west", 180: "north", -180: "north", -90: "east"}
BLOCKS_PER_CHUNK = 16


@register_tool(
    "How far a world point is from the bot, and which way (north, east, south, west) to face to go there",
    slots=[
        {"name": "x", "type": "float", "required": True, "description": "world x of the point, blocks (east is +)",
         "prompt": "Which point? Give its world x and z, e.g. from mc-status or a map."},
        {"name": "z", "type": "float", "required": True, "description": "world z of the point, blocks (south is +)",
         "prompt": "Which point? Give its world x and z, e.g. from mc-status or a map."},
        {"name": "unit", "type": "str", "enum": ["blocks", "chunks"], "description": "of the distance (default blocks)"},
    ],
    outputs=[
        {"name": "distance", "type": "float", "description": "horizontal distance from the bot's feet, in the unit asked"},
        {"name": "facing", "type": "str", "description": "the cardinal nearest the way there"},
    ],
    # What the planner ranks it by, for a goal: a user's goal in a user's words.
    when_to_use="Before walking to a point or a place: how far away it is, and which way to go to reach it",
    # As the seed writes it: not complete when the bot's position could not be read.
    is_complete=lambda way: way is not None,
)
def way_to(x: float, z: float, unit: str = "blocks", executor=None):
    """Reads the bot's position with mc-status (a nested call, recorded like any other); returns
    {distance, facing}, or None when there is no position to measure from."""
    status = executor.execute_action({"type": "mc-status"}) if executor is not None else None
    if status is None or not status.ok:
        return None
    here = status.data["position"]
    dx, dz = x - here["x"], z - here["z"]
    yaw = math.degrees(math.atan2(-dx, dz))  # the yaw that faces (dx, dz)
    facing = FACINGS[min(FACINGS, key=lambda cardinal: abs(cardinal - yaw))]
    distance = math.hypot(dx, dz) / (BLOCKS_PER_CHUNK if unit == "chunks" else 1)
    return {"distance": round(distance, 2), "facing": facing}
