"""Steering the bot from chat.

Players on the config's `chat_allowlist` can say `!stop`, `!status` or `!goal <text>`, and give
a goal in their own words: whispered to the bot, or said in chat after its name ("scout, get me
3 logs"). A goal is read first (`read`: agent/session/chat_goals.py). Understood whole, it runs
at once and the bot says what it understood; understood in part, the bot says what it
understood and what not and asks back, and the player's "yes" runs it (confirm.py); not
understood at all, the bot says so and does nothing. Anyone else is ignored, and the refusal is
reported through `on_event` (for the trace), as is every turn of a goal. Where a name proves
nothing (a server open to the network, in offline mode) or the user set a secret, an
allowlisted player must first whisper `!auth <secret>`, once; the secret is never said back, nor
kept in a record. Commands are handled on the commander's own thread: the bot's event callbacks
must stay quick, and reading a goal and a reply in chat are bridge calls.
"""

from __future__ import annotations

import hmac
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Literal

from agent.bridge import BotConnection, BridgeError
from agent.bridge.models import BotEvent
from agent.chat.confirm import (Question, Questions, Reading, addressed, declined, question, reply_to_question,
                                taken_as_said, timed_out)
from agent.trace.records import ChatCommand, GoalExchange, GoalOutcome

Command = Literal["!stop", "!status", "!goal"]
COMMANDS: tuple[str, ...] = Command.__args__
AUTH = "!auth"
# Where the user keeps the chat secret: an environment variable, so that it is in no config
# file and no trace (a run's trace holds its whole config).
CHAT_SECRET_ENV = "MCAGENT_CHAT_SECRET"
# How often the commander looks at its questions' clock while no line comes: a question whose
# wait ran out is said so within this.
EXPIRY_POLL_S = 0.5
NOT_ALLOWED = "not on the chat allowlist"
# What the commander reports: a command heard, or a turn of a goal said in chat.
Record = ChatCommand | GoalExchange
Via = Literal["command", "whisper", "chat", "clock"]
_QUIET = object()  # no line came within EXPIRY_POLL_S


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
    """Listens to the bot's chat events and runs allowlisted players' commands and goals.

    With a `secret`, or `secret_required` (a server open to the network), a player's commands
    run only after they whispered the secret; required and not set, every command is refused.
    `read` reads a goal said in chat (without one, every goal is understood as said); `clock`
    times the questions' wait (confirm.ANSWER_WAIT_S).
    """

    def __init__(
        self,
        bot: BotConnection,
        allowlist: list[str],
        *,
        on_stop: Callable[[str], None],
        on_goal: Callable[[str], None],
        status: Callable[[], str],
        on_event: Callable[[Record], None] = lambda record: None,
        secret: str | None = None,
        secret_required: bool = False,
        read: Callable[[str], Reading] = taken_as_said,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._bot = bot
        self._allowlist = set(allowlist)
        self._secret, self._needs_secret = secret, secret_required or secret is not None
        self._trusted: set[str] = set()  # players who whispered the secret
        self._on_stop, self._on_goal, self._status, self._on_event = on_stop, on_goal, status, on_event
        self._read = read
        self._questions = Questions(clock)  # the worker's alone
        self._inbox: queue.Queue[BotEvent | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="chat-commander", daemon=True)
        self._worker.start()
        self._unsubscribe = bot.events.subscribe(self._heard)

    def _heard(self, event: BotEvent) -> None:
        # Every other player's line goes to the worker, which tells commands, goals and answers
        # from talk among players: which lines answer a question is the worker's to know.
        if event.kind in ("chat", "whisper") and event.username != self._bot.username:
            self._inbox.put(event)

    def _work(self) -> None:
        while True:
            try:
                event: BotEvent | object | None = self._inbox.get(timeout=EXPIRY_POLL_S)
            except queue.Empty:
                event = _QUIET
            if event is None:
                return
            records: list[Record] = [*self._expired()]
            if isinstance(event, BotEvent):
                records += self._line(event)
            for record in records:
                self._on_event(record)

    def _line(self, event: BotEvent) -> list[Record]:
        """What a line is: a command; a goal (whispered, or said after the bot's name); an answer
        to a question its player was asked; else talk, which is none of the commander's business."""
        player, text, whispered = event.username or "", (event.message or "").strip(), event.kind == "whisper"
        if text.startswith("!"):
            return self._command(player, text, whispered)
        if not player or not text:
            return []
        named = addressed(text, self._bot.username)
        if whispered or named is not None:
            return self._goal_line(player, named or text, "whisper" if whispered else "chat", to_me=True)
        if self._questions.waiting(player) is not None:
            return self._goal_line(player, text, "chat", to_me=False)
        return []

    def _command(self, player: str, text: str, whispered: bool) -> list[Record]:
        command = self._handle(player, text, whispered)
        if command.accepted and command.command == "!goal":
            return [command, *self._goal(player, command.argument, "command", to_me=True)]
        return [command]

    def _handle(self, player: str, text: str, whispered: bool) -> ChatCommand:
        command, _, argument = text.partition(" ")
        argument = argument.strip()
        if command == AUTH:  # the argument is a secret: it goes nowhere but into the comparison
            return self._authenticate(player, argument, whispered)
        if player not in self._allowlist:
            return ChatCommand(player=player, command=command, argument=argument, accepted=False, reason=NOT_ALLOWED)
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
        elif command == "!status":
            announce(self._bot, self._status())
        return ChatCommand(player=player, command=command, argument=argument, accepted=True)  # !goal: read by _goal

    def _goal_line(self, player: str, words: str, via: Via, *, to_me: bool) -> list[GoalExchange]:
        """A goal said without `!goal`, under the same rules as a command: the allowlist, then the secret."""
        refusal = NOT_ALLOWED if player not in self._allowlist else self._untrusted(player)
        if refusal:
            return [GoalExchange(player=player, said=words, via=via, outcome="refused", reason=refusal)]
        return self._goal(player, words, via, to_me=to_me)

    def _goal(self, player: str, words: str, via: Via, *, to_me: bool) -> list[GoalExchange]:
        """A trusted player's goal, or their answer to the question they were asked. A line not
        said to the bot (`to_me` false: open chat while a question waits) is an answer only when
        it says yes or no, or reads as a goal: else it was said to someone else."""
        asked = self._questions.waiting(player)
        if asked is not None and (said := reply_to_question(words)) is not None:
            self._questions.take(player)
            return [self._answered(asked, words, via, said == "yes")]
        reading = self._reading(words)
        if not to_me and reading.extent == "nothing":
            return []
        self._questions.take(player)  # a new wording replaces the question, unanswered
        return [self._act(player, reading, via)]

    def _act(self, player: str, reading: Reading, via: Via) -> GoalExchange:
        """Runs a goal understood whole; asks back about one understood in part; says what was not
        understood of one understood not at all."""
        if reading.extent == "all":
            return self._start(player, reading, reading.words, via, goal=reading.words)
        if reading.extent == "partly":
            self._questions.ask(player, reading)
            reply, outcome = question(player, reading), "asked"
        else:
            reply, outcome = f"{player}: {reading.answer}", "not_understood"
        announce(self._bot, reply)
        return _exchange(player, reading, said=reading.words, via=via, outcome=outcome, reply=reply,
                         reason=reading.failure)

    def _answered(self, asked: Question, said: str, via: Via, yes: bool) -> GoalExchange:
        """Yes runs what was understood (what the player agreed to), no drops it."""
        if yes:
            return self._start(asked.player, asked.reading, said, via, goal=asked.reading.understood)
        reply = declined(asked.player)
        announce(self._bot, reply)
        return _exchange(asked.player, asked.reading, said=said, via=via, outcome="declined", reply=reply)

    def _start(self, player: str, reading: Reading, said: str, via: Via, *, goal: str) -> GoalExchange:
        self._on_goal(goal)
        reply = f"new goal from {player}: {reading.understood}"
        announce(self._bot, reply)
        return _exchange(player, reading, said=said, via=via, outcome="started", reply=reply, goal=goal)

    def _expired(self) -> list[GoalExchange]:
        """The questions no answer came to in time, each said so and dropped."""
        records = []
        for asked in self._questions.expired():
            reply = timed_out(asked.player)
            announce(self._bot, reply)
            records.append(_exchange(asked.player, asked.reading, said="", via="clock", outcome="timed_out", reply=reply))
        return records

    def _reading(self, words: str) -> Reading:
        """The reader's reading of `words`. A reader that fails leaves the words not understood:
        the commander's thread must outlive it, and the trace keeps why (Reading.failure)."""
        try:
            return self._read(words)
        except Exception as e:  # noqa: BLE001 - any bug of the reader's: reported, and chat goes on
            return Reading(words=words, not_understood=[words], answer=f"I could not read '{words}'",
                           failure=f"{type(e).__name__}: {e}")

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
            return ChatCommand(player=player, command=AUTH, accepted=False, reason=NOT_ALLOWED)
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


def _exchange(player: str, reading: Reading, *, said: str, via: Via, outcome: GoalOutcome, reply: str,
              goal: str | None = None, reason: str = "") -> GoalExchange:
    """A turn of a goal for the trace, with what was understood of it."""
    return GoalExchange(player=player, said=said, via=via, outcome=outcome, understood=reading.understood,
                        not_understood=reading.not_understood, reply=reply, goal=goal, reason=reason)
