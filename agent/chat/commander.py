"""Steering the bot from chat.

Players on the config's `chat_allowlist` can say `!stop`, `!status` or `!goal <text>`.
Anyone else is ignored, and the refusal is reported through `on_event` (for the trace).
Where a name proves nothing (a server open to the network, in offline mode) or the user set
a secret, an allowlisted player must first whisper `!auth <secret>`, once; the secret is
never said back, nor kept in a record. Commands are handled on the commander's own thread:
the bot's event callbacks must stay quick, and a reply in chat is a bridge call.
"""

from __future__ import annotations

import hmac
import os
import queue
import threading
from collections.abc import Callable
from typing import Literal

from agent.bridge import BotConnection, BridgeError
from agent.bridge.models import BotEvent
from agent.trace.records import ChatCommand

Command = Literal["!stop", "!status", "!goal"]
COMMANDS: tuple[str, ...] = Command.__args__
AUTH = "!auth"
# Where the user keeps the chat secret: an environment variable, so that it is in no config
# file and no trace (a run's trace holds its whole config).
CHAT_SECRET_ENV = "MCAGENT_CHAT_SECRET"


def chat_secret() -> str | None:
    """The chat secret the user set, or None."""
    return os.environ.get(CHAT_SECRET_ENV) or None


def for_the_record(message: str) -> str:
    """A chat line as a trace may keep it: an !auth line without its secret."""
    return AUTH if message.strip().partition(" ")[0] == AUTH else message


def announce(bot: BotConnection, text: str) -> None:
    """Says `text` in chat, best effort: an announcement never stops the run."""
    try:
        bot.chat(text)
    except BridgeError:
        pass


class ChatCommander:
    """Listens to the bot's chat events and runs allowlisted players' commands.

    With a `secret`, or `secret_required` (a server open to the network), a player's commands
    run only after they whispered the secret; required and not set, every command is refused.
    """

    def __init__(
        self,
        bot: BotConnection,
        allowlist: list[str],
        *,
        on_stop: Callable[[str], None],
        on_goal: Callable[[str], None],
        status: Callable[[], str],
        on_event: Callable[[ChatCommand], None] = lambda command: None,
        secret: str | None = None,
        secret_required: bool = False,
    ):
        self._bot = bot
        self._allowlist = set(allowlist)
        self._secret, self._needs_secret = secret, secret_required or secret is not None
        self._trusted: set[str] = set()  # players who whispered the secret
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
            whispered = event.kind == "whisper"
            self._on_event(self._handle(event.username or "", (event.message or "").strip(), whispered))

    def _handle(self, player: str, text: str, whispered: bool) -> ChatCommand:
        command, _, argument = text.partition(" ")
        argument = argument.strip()
        if command == AUTH:  # the argument is a secret: it goes nowhere but into the comparison
            return self._authenticate(player, argument, whispered)
        if player not in self._allowlist:
            return ChatCommand(player=player, command=command, argument=argument, accepted=False, reason="not on the chat allowlist")
        if refusal := self._untrusted(player):
            return ChatCommand(player=player, command=command, argument=argument, accepted=False, reason=refusal)
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

    def _untrusted(self, player: str) -> str | None:
        """Why an allowlisted player's commands must wait (told them in chat), or None if they need not."""
        if not self._needs_secret or player in self._trusted:
            return None
        if self._secret is None:
            announce(self._bot, f"{player}: chat commands are off: this server is open to the network and no secret is set")
            return "no chat secret set"
        announce(self._bot, f"{player}: whisper the secret first: /tell {self._bot.username} {AUTH} <secret>")
        return "secret not said"

    def _authenticate(self, player: str, said: str, whispered: bool) -> ChatCommand:
        """Trusts `player` once they whispered the secret; neither the chat nor the record gets what they said."""
        if player not in self._allowlist:
            return ChatCommand(player=player, command=AUTH, accepted=False, reason="not on the chat allowlist")
        if self._secret is None:
            reason, reply = "no chat secret set", "no secret is set here"
        elif not whispered:
            reason, reply = "said in open chat", f"everyone heard that: set a new secret and whisper it (/tell {self._bot.username})"
        elif not hmac.compare_digest(said.encode(), self._secret.encode()):
            reason, reply = "wrong secret", "that is not the secret"
        else:
            self._trusted.add(player)
            announce(self._bot, f"{player}: secret accepted, I take your commands")
            return ChatCommand(player=player, command=AUTH, accepted=True)
        announce(self._bot, f"{player}: {reply}")
        return ChatCommand(player=player, command=AUTH, accepted=False, reason=reason)

    def close(self) -> None:
        """Stops handling commands (those already queued are dropped)."""
        self._unsubscribe()
        self._inbox.put(None)
        self._worker.join(timeout=2)
