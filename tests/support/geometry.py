"""An independent model of a scenario's blocks, to compute what observations must say.

Superflat ground (bedrock y=0, dirt 1-3, grass 4, air above), then the scenario's boxes and
blocks in order. Written from the scenario format's definition, not from the bridge's code.
"""

from __future__ import annotations

import math

from agent.server.scenario import Scenario, Spawn

# Unit steps (dx, dz) for each facing, and the right hand of each.
FORWARD = {"south": (0, 1), "west": (-1, 0), "north": (0, -1), "east": (1, 0)}
RIGHT = {"south": (-1, 0), "west": (0, -1), "north": (1, 0), "east": (0, 1)}
NON_SOLID = {"air", "water", "lava"}


class World:
    def __init__(self, scenario: Scenario):
        self.changes: dict[tuple[int, int, int], str] = {}
        for box in scenario.boxes:
            lo = [min(a, b) for a, b in zip(box.from_, box.to)]
            hi = [max(a, b) for a, b in zip(box.from_, box.to)]
            for x in range(lo[0], hi[0] + 1):
                for y in range(lo[1], hi[1] + 1):
                    for z in range(lo[2], hi[2] + 1):
                        shell = x in (lo[0], hi[0]) or y in (lo[1], hi[1]) or z in (lo[2], hi[2])
                        if shell or not box.hollow:
                            self.changes[(x, y, z)] = box.block
        for single in scenario.blocks:
            self.changes[tuple(single.at)] = single.block
        for chest in scenario.chests:
            self.changes[tuple(chest.at)] = "chest"

    def block(self, x: int, y: int, z: int) -> str:
        if (x, y, z) in self.changes:
            return self.changes[(x, y, z)]
        return {0: "bedrock", 4: "grass_block"}.get(y, "dirt" if 1 <= y <= 3 else "air")

    def passable(self, x: int, y: int, z: int) -> bool:
        return self.block(x, y, z) in NON_SOLID

    def at(self, feet: tuple[int, int, int], facing: str, forward: int, right: int, up: int) -> tuple[int, int, int]:
        (fx, fz), (rx, rz) = FORWARD[facing], RIGHT[facing]
        return feet[0] + forward * fx + right * rx, feet[1] + up, feet[2] + forward * fz + right * rz

    def free(self, feet: tuple[int, int, int], facing: str, radius: int) -> dict[str, int]:
        """Free blocks before the first obstruction, per the mc-observe-blocks contract."""

        def body(f: int, r: int) -> bool:
            return self.passable(*self.at(feet, facing, f, r, 0)) and self.passable(*self.at(feet, facing, f, r, 1))

        def count(ok) -> int:
            k = 0
            while k < radius and ok(k + 1):
                k += 1
            return k

        return {
            "forward": count(lambda k: body(k, 0)),
            "back": count(lambda k: body(-k, 0)),
            "left": count(lambda k: body(0, -k)),
            "right": count(lambda k: body(0, k)),
            "up": count(lambda k: self.passable(*self.at(feet, facing, 0, 0, 1 + k))),
            "down": count(lambda k: self.passable(*self.at(feet, facing, 0, 0, -k))),
        }

    def sky_visible(self, feet: tuple[int, int, int]) -> bool:
        x, y, z = feet
        return all(self.passable(x, yy, z) for yy in range(y + 2, y + 64))


# How far from its column `on_surface` looks for dry land (bridge/lib/scenario.js).
DRY_LAND_REACH = 48


def at_spawn(x: float, y: float, z: float, spawn: Spawn) -> bool:
    """Whether feet at (x, y, z) are where `spawn` puts them: the point as written, or with
    `on_surface`, on the dry land nearest its column (the same place within a block, at most
    DRY_LAND_REACH blocks off; the ground decides y)."""
    if not spawn.on_surface:
        return math.dist((x, y, z), (spawn.x, spawn.y, spawn.z)) < 0.01
    dx, dz = x - spawn.x, z - spawn.z
    return max(abs(dx), abs(dz)) <= DRY_LAND_REACH and abs(dx - round(dx)) + abs(dz - round(dz)) < 0.01

