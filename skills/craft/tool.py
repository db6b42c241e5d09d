"""craft: the recipe tree walked by python (agent/world/crafting_plan.py), each step run by a
world tool through the executor, and the inventory read again whenever a step falls short."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agent.chat.team import BotTeam
from agent.mc import gamedata
from agent.mc.names import MAX_ITEM_COUNT
from agent.tools import ToolResult
from agent.tools.model_schema import ArgsModel
from agent.world.crafting_plan import FURNACE, TABLE, CraftingPlan, Step, plan, used_up
from agent.world.toolkit import COUNTS

REPLANS = 3
SCAN_RADIUS = 32
FIND_KINDS = 8  # mc-find's bound on block kinds per call
MAX_SCANNED = 48
COLLECT_BOUND = 16  # mc-collect's bound on blocks per call
# Looked for whatever the item: what tech trees are made of.
RAW_MATERIALS = ("stone", "cobblestone", "coal_ore", "iron_ore", "deepslate_iron_ore", "sand", "gravel", "dirt")
TOOL_OF = {"collect": "mc-collect", "craft": "mc-craft", "smelt": "mc-smelt"}
# The station a making step works at: when no walk reaches the one near, the next plan makes one.
STATION_OF = {"craft": TABLE, "smelt": FURNACE}
# A step that failed so: no plan made again helps.
FATAL = ("disconnected", "dead", "not_spawned", "timeout", "stopped")
# What lies under the ground in a natural world, and the stairs dug down towards it at a time
# (each step digs two or three blocks: below 3-4 of dirt, stone, which gives cobblestone).
UNDERGROUND = frozenset({"stone", "cobblestone", "coal", "coal_ore", "raw_iron", "iron_ore", "deepslate_iron_ore",
                         "raw_copper", "copper_ore", "raw_gold", "gold_ore", "redstone", "redstone_ore",
                         "lapis_lazuli", "lapis_ore", "diamond", "diamond_ore"})
STAIRS_DOWN = 6
# Explored for a block none of which is within the scan, until one is this near (blocks).
EXPLORE_NEAR = 16


class Args(ArgsModel):
    item: str = Field(description="the item wanted, e.g. wooden_pickaxe, iron_ingot, oak_planks",
                      json_schema_extra={"domain": "obtainable"})
    count: int = Field(1, ge=1, le=MAX_ITEM_COUNT, description="how many the inventory should hold",
                       json_schema_extra=COUNTS)


def tool(input_value=None, **kwargs) -> ToolResult:
    executor = kwargs.pop("executor")
    asked = Args.model_validate(kwargs)  # the executor checked the schema made from it: this holds
    item, count = asked.item, asked.count
    version = _version(executor)
    if item not in gamedata.item_names(version):
        return ToolResult.failure("bad_args", f"item must be an item's name, such as wooden_pickaxe; got {item!r}")
    done: list[dict[str, Any]] = []
    lost: set[str] = set()  # stations seen near that no walk reaches: the next plan makes new ones
    for replans in range(REPLANS + 1):
        held = _inventory(executor)
        if held is None:
            return ToolResult.failure("disconnected", "the inventory could not be read")
        if held.get(item, 0) >= count:
            return ToolResult.success({"item": item, "count": count, "held": held[item], "steps": done, "replans": replans},
                                      f"the inventory holds {held[item]} {item} ({len(done)} steps)")
        if replans == 0 and (ask := _teammates_carry(executor, item, count, held, version)) is not None:
            return ask
        steps = plan(item, count, held, _near(executor, item, version) - lost, version)
        if steps.unobtainable:
            return ToolResult.failure("refused", "; ".join(steps.unobtainable), {"steps": done})
        failed = _run(executor, steps, done, version)
        if failed is not None and failed.code in FATAL:
            return ToolResult.failure(failed.code, failed.reason, {"steps": done})
        if failed is not None and (station := _station_lost(failed, done[-1]["action"])) is not None:
            lost.add(station)  # the table left up the stairs, or one walled in: the next plan makes another
    return ToolResult.failure("incomplete", f"{item}: still short after {REPLANS} plans; last: {done[-1] if done else 'no step'}",
                              {"steps": done})


def _run(executor: Any, steps: CraftingPlan, done: list[dict[str, Any]], version: str | None) -> ToolResult | None:
    """Runs the plan's steps until one falls short; returns that step's result, or None. What
    lies underground and is not found (stone, ore) is dug down to by a staircase, then collected;
    what grows above (logs) is explored for, and the plan made again."""
    for step in steps.steps:
        for args in _calls(step):
            record = {**step.model_dump(), "count": args["count"]}
            result = _call(executor, {"type": TOOL_OF[step.action], **args}, record, done)
            if not result.ok and step.action == "collect" and step.item not in UNDERGROUND and result.code == "not_found":
                explored = _explored_for(executor, step.item, version, done)
                # the plan is made again from what is near now, unless the exploring could not go on
                return explored if explored.code in FATAL else result
            if not result.ok and step.action == "collect" and step.item in UNDERGROUND \
                    and result.code in ("not_found", "unreachable"):  # logs out of reach are not dug down to
                result = _dug_down_for(executor, {"type": "mc-collect", **args}, record, done)
            if not result.ok:
                return result
    return None


def _station_lost(failed: ToolResult, action: str) -> str | None:
    """The station a failed making step could not work at although the plan saw it near: no walk
    reaches it (unreachable), or none is open to a walk at all (refused, the station missing)."""
    station = STATION_OF.get(action)
    missing = failed.data.get("missing", []) if isinstance(failed.data, dict) else []
    if station is None or not (failed.code == "unreachable" or any(m.get("name") == station for m in missing)):
        return None
    return station


def _explored_for(executor: Any, item: str, version: str | None, done: list[dict[str, Any]]) -> ToolResult:
    """mc-explore until a block that gives `item` is near (any log, for a log: the wood that grows
    here, which the next plan then takes), for none within the scan (a desert's edge)."""
    names = gamedata.block_names(version)
    sources = _logs(version) if item.endswith("_log") else sorted(gamedata.dropped_by(version).get(item, ())) or [item]
    check = {"any": [{"near_block": {"block": b, "distance": EXPLORE_NEAR}} for b in sources if b in names]}
    return _call(executor, {"type": "mc-explore", "check": check, "max_blocks": 128, "max_seconds": 120, "climbs": 0},
                 {"action": "explore", "item": item, "count": 1}, done)


def _logs(version: str | None) -> list[str]:
    """Every kind of log a tree grows (not the stripped ones)."""
    return sorted(b for b in gamedata.block_names(version) if b.endswith("_log") and not b.startswith("stripped_"))


def _dug_down_for(executor: Any, collect: dict[str, Any], record: dict[str, Any],
                  done: list[dict[str, Any]]) -> ToolResult:
    """A staircase dug down, the collect again from there, and the walk back up the stairs to
    where they began (where there is room to set a station down)."""
    down = _call(executor, {"type": "mc-dig-stairs", "direction": "down", "steps": STAIRS_DOWN},
                 {"action": "dig-stairs", "item": record["item"], "count": STAIRS_DOWN}, done)
    result = _call(executor, collect, record, done)
    start = down.data.get("start") if isinstance(down.data, dict) else None
    if start is not None:
        _call(executor, {"type": "mc-goto", "x": start["x"], "y": start["y"], "z": start["z"], "range": 1},
              {"action": "goto", "item": "the stairs' top", "count": 1}, done)
    return result


def _call(executor: Any, action: dict[str, Any], record: dict[str, Any], done: list[dict[str, Any]]) -> ToolResult:
    """One tool call, recorded in `done` with whether it did what was asked."""
    result = executor.execute_action(action)
    done.append({**record, "ok": result.ok, **({} if result.ok else {"failed": f"{result.code}: {result.reason}"})})
    return result


def _calls(step: Step) -> list[dict[str, Any]]:
    """A step as tool arguments; a collect of more than mc-collect takes at once, in parts."""
    if step.action != "collect":
        return [{"item": step.item, "count": step.count}]
    parts = range(0, step.count, COLLECT_BOUND)
    return [{"block": step.item, "count": min(COLLECT_BOUND, step.count - p), "radius": SCAN_RADIUS,
             "timeout_s": 120} for p in parts]


def _teammates_carry(executor: Any, item: str, count: int, held: dict[str, int],
                     version: str | None) -> ToolResult | None:
    """A refusal naming what this bot lacks when its teammates carry it all: what a plan from the
    team's inventories together uses up, down the whole recipe tree, with nothing dug (polished
    deepslate for deepslate tiles, two crafts down), beyond what this bot holds. It is asked for
    (agent/goals/asking.py), not gathered from the world. None for a bot alone, or when the team
    does not carry enough."""
    team = BotTeam(lambda: executor.world).holdings() if executor.world is not None else None
    if team is None or not team.mates:
        return None
    together = dict(held)
    for stack in (i for mate in team.mates for i in mate.items):
        together[stack.name] = together.get(stack.name, 0) + stack.count
    # Only the stations near matter to a plan that digs nothing: one short scan, not _near's.
    used = used_up(item, count, together, _scanned(executor, [TABLE, FURNACE]), version)
    lacking = {name: n - held.get(name, 0) for name, n in (used or {}).items() if n > held.get(name, 0)}
    if not lacking:
        return None
    said = ", ".join(f"{short} more {name}" for name, short in lacking.items())
    return ToolResult.failure("refused", f"{item} needs {said}, which teammates carry: ask them", {
        "missing": [{"name": name, "count": short} for name, short in lacking.items()],
        "inventory": [{"name": name, "count": held[name]} for name in lacking if held.get(name)]})


def _version(executor: Any) -> str | None:
    status = executor.execute_action({"type": "mc-status"})
    return status.data.get("version") if status.ok else None


def _inventory(executor: Any) -> dict[str, int] | None:
    seen = executor.execute_action({"type": "mc-inventory"})
    if not seen.ok:
        return None
    held: dict[str, int] = {}
    for stack in seen.data["items"]:
        held[stack["name"]] = held.get(stack["name"], 0) + stack["count"]
    return held


def _near(executor: Any, item: str, version: str | None) -> set[str]:
    """The blocks within SCAN_RADIUS, of those that could matter for `item`: stations, every kind
    of log, the common raw materials, and what drops the materials of a plan made as if every
    block were near."""
    wide = plan(item, 1, {}, _everything(version), version)
    drops = gamedata.dropped_by(version)
    names = gamedata.block_names(version)
    wanted = [TABLE, FURNACE, *_logs(version), *(b for b in RAW_MATERIALS if b in names),
              *sorted(b for s in wide.steps if s.action == "collect" for b in drops.get(s.item, ()))]
    return _scanned(executor, list(dict.fromkeys(wanted))[:MAX_SCANNED])


def _scanned(executor: Any, kinds: list[str]) -> set[str]:
    """Which of the block `kinds` are within SCAN_RADIUS."""
    near: set[str] = set()
    for i in range(0, len(kinds), FIND_KINDS):
        asked = kinds[i:i + FIND_KINDS]
        found = executor.execute_action({"type": "mc-find", "blocks": asked, "radius": SCAN_RADIUS, "count": 1})
        if found.ok:  # `found` holds only the nearest one; every kind not `missing` is near
            near |= set(asked) - set(found.data["missing"])
    return near


def _everything(version: str | None) -> frozenset[str]:
    """Every block that is not crafted: a plan as if all of them were near names every raw material."""
    return frozenset(gamedata.block_names(version)) - frozenset(gamedata.recipes(version)) - {TABLE, FURNACE}
