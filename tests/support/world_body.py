"""A bot in a scenario world, driven through the executor the way the planner drives it:
what every world tool's integration tests share."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from agent.bridge import BotConnection, connect
from agent.infospace import Infospace
from agent.server import LocalServer, Scenario, ServerSettings, load_scenario
from agent.tools import Executor, Toolbox
from agent.tools.result import ToolResult
from support.geometry import World
from support.waiting import wait_for


@dataclass
class Body:
    """A bot in a scenario, driven through the executor the way the planner drives it."""

    bot: BotConnection
    executor: Executor
    world: World

    def call(self, tool: str, **args: object) -> ToolResult:
        return self.executor.execute_action({"type": tool, **args})

    def ok(self, tool: str, **args: object) -> dict:
        result = self.call(tool, **args)
        assert result.ok, f"{tool} {args}: {result.reason}"
        return result.data

    def carried(self, name: str) -> int:
        """How many of the item the inventory holds, over all its stacks (mc-inventory)."""
        return sum(i["count"] for i in self.ok("mc-inventory")["items"] if i["name"] == name)

    def teleport(self, x: float, y: float, z: float, facing: str) -> None:
        """Test set-up only (an operator command): put the bot somewhere known."""
        mark = self.bot.events.last_seq
        self.bot.chat(f"/tp {x} {y} {z}")
        self.bot.events.wait_for("forcedMove", timeout_s=5, after=mark)
        assert wait_for(lambda: (s := self.bot.state()).on_ground and math.hypot(s.position.x - x, s.position.z - z) < 0.01)
        self.ok("mc-look", facing=facing, pitch=0)


def scenario_body(scenario: str | Scenario, username: str, toolbox: Toolbox, version: str | None = None) -> Iterator[Body]:
    """A local server with the scenario (by name, or a test's own; on `version`, else the
    default), a bot in it and an executor over `toolbox`; all torn down after."""
    scenario = load_scenario(scenario) if isinstance(scenario, str) else scenario
    served = {"version": version} if version else {}
    with LocalServer(ServerSettings(), scenario=scenario, **served) as info:
        yield from body_on(info.port, scenario, username, toolbox, version)


def body_on(port: int, scenario: Scenario, username: str, toolbox: Toolbox, version: str | None = None) -> Iterator[Body]:
    """A bot joining the running server on `port` (built from `scenario`) and an executor over
    `toolbox`: a test's own player on a server its module shares; the bot leaves after."""
    with connect(port=port, username=username, version=version) as bot:
        infospace = Infospace.open(":memory:")
        try:
            yield Body(bot, Executor(toolbox, infospace, world=bot), World(scenario))
        finally:
            infospace.close()


def standing_in(scenario: Scenario, username: str) -> Iterator[BotConnection]:
    """A local server with the scenario and a bot on its ground there: what a check is judged by."""
    with LocalServer(ServerSettings(), scenario=scenario) as info:
        with connect(port=info.port, username=username) as bot:
            assert wait_for(lambda: bot.state().on_ground)
            yield bot
