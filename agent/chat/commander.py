"""Steering the bot from chat.

Players on the config's `chat_allowlist` can say `!stop`, `!status` or `!goal <text>`.
Anyone else is ignored, and the refusal is reported through `on_event` (for the trace).
Commands are handled on the commander's own thread: the bot's event callbacks must stay quick,
and a reply in chat is a bridge call.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Literal

from agent.bridge import BotConnection, BridgeError
from agent.bridge.models import BotEvent
from agent.trace.records import ChatCommand

Command = Literal["!stop", "!status", "!goal"]
COMMANDS: tuple[str, ...] = Command.__args__


def announce(bot: BotConnection, text: str) -> None:
    """Says `text` in chat, best effort: an announcement never stops the run."""
    try:
        bot.chat(text)
    except BridgeError:
        pass


class ChatCommander:
    """Listens to the bot's chat events and runs allowlisted players' commands."""

    def __init__(
        self,
        bot: BotConnection,
        allowlist: list[str],
        *,
        on_stop: Callable[[str], None],
        on_goal: Callable[[str], None],
        status: Callable[[], str],
        on_event: Callable[[ChatCommand], None] = lambda command: None,
    ):
        self._bot = bot
        self._allowlist = set(allowlist)
        self._on_stop, self._on_goal, self._status, self._on_event = on_stop, on_goal, status, on_event
        self._inbox: queue.Queue[BotEvent | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="chat-commander", daemon=True)
        self._worker.start()
        self._unsubscribe = bot.events.subscribe(self._heard)

    def _heard(self, event: BotEvent) -> None:
        if event.kind in ("chat", "whisper") and event.username != self._bot.username:
            if (event.message or "").strip().startswith("!"):
                self._inbox.put(event)

    def _work(self) -> None:
        while (event := self._inbox.get()) is not None:
            self._on_event(self._handle(event.username or "", (event.message or "").strip()))

    def _handle(self, player: str, text: str) -> ChatCommand:
        command, _, argument = text.partition(" ")
        argument = argument.strip()
        if player not in self._allowlist:
            return ChatCommand(player=player, command=command, argument=argument, accepted=False, reason="not on the chat allowlist")
        if command not in COMMANDS:
            announce(self._bot, f"{player}: I know {', '.join(COMMANDS)}")
            return ChatCommand(player=player, command=command, argument=argument, accepted=False, reason="unknown command")
        if command == "!goal" and not argument:
            announce(self._bot, f"{player}: say !goal <what to do>")
            return ChatCommand(player=player, command=command, accepted=False, reason="no goal given")
        if command == "!stop":
            self._on_stop(player)
            self._bot.halt()  # a tool still running stops before its next step, not at its own end
            announce(self._bot, f"stopping, as {player} asked")
        elif command == "!goal":
            self._on_goal(argument)
            announce(self._bot, f"new goal from {player}: {argument}")
        else:
            announce(self._bot, self._status())
        return ChatCommand(player=player, command=command, argument=argument, accepted=True)

    def close(self) -> None:
        """Stops handling commands (those already queued are dropped)."""
        self._unsubscribe()
        self._inbox.put(None)
        self._worker.join(timeout=2)
