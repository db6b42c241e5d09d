"""A bot's team as its planner reads it, through the bridge: what other players said to the bot
since the planner last read (its inbox: bridge/helpers/inbox.js keeps players' chat lines and
whispers to it, not the server's lines nor its own), and what the team carries
(bridge/helpers/team.js: the bots of this process on the same server, the bot first). A chat
command (`!goal ...`) is the commander's, not a message. Reading never fails a run: a bot that
cannot be read has heard nothing and has no teammates."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from agent.bridge import BotConnection, BridgeError
from agent.config.layers import StrictModel
from agent.mc.names import Item


class Message(StrictModel):
    """One line a player said to the bot: whispered to it alone, or said in chat to everyone."""

    player: str
    text: str
    whispered: bool
    time: float = Field(description="when the bridge heard it, seconds since the epoch")

    def line(self) -> str:
        """`alex (whispered): please give me 1 iron_ingot`, as the prompt shows it."""
        return f"{self.player}{' (whispered)' if self.whispered else ''}: {self.text}"


class Holding(StrictModel):
    """What one bot of the team carries, by name."""

    player: str
    items: list[Item] = []

    def count(self, name: str) -> int:
        return sum(item.count for item in self.items if item.name == name)


class Holdings(StrictModel):
    """What the team carries: this bot's, and its teammates' (none for a bot alone)."""

    me: Holding
    mates: list[Holding] = []

    def mates_carry(self, name: str) -> int:
        """How many of the item the teammates carry together."""
        return sum(mate.count(name) for mate in self.mates)


def is_command(text: str) -> bool:
    """A chat command (agent/chat/commander.py), which the commander handles, not the planner."""
    return text.strip().startswith("!")


class BotTeam:
    """The planner's view of the team of the bot `bot()` returns (the bot of the moment: a rejoin
    brings a new one)."""

    def __init__(self, bot: Callable[[], BotConnection]):
        self._bot = bot

    def unread(self) -> list[Message]:
        """The players' lines heard since the last reading, oldest first; read from then on."""
        try:
            said = self._bot().call("inbox")["messages"]
        except BridgeError:
            return []
        return [m for m in (Message.model_validate(line) for line in said) if not is_command(m.text)]

    def holdings(self) -> Holdings | None:
        """What the team carries now; None when the bot cannot be read."""
        try:
            return Holdings.model_validate(self._bot().call("teamHoldings"))
        except BridgeError:
            return None
