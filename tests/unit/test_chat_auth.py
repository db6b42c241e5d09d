"""Chat commands behind a secret: a name proves nothing where anyone can take any name."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest

from agent.bridge.models import BotEvent
from agent.chat import ChatCommand, ChatCommander, for_the_record
from support.fake_chat import FakeBot

SECRET = "blue-heron-42"
# A command is handled on the commander's own thread; it answers within milliseconds.
HANDLED_S = 5.0


class Harness:
    def __init__(self, *, secret: str | None, secret_required: bool) -> None:
        self.bot = FakeBot("steered")
        self.stops: list[str] = []
        self._heard: queue.Queue[ChatCommand] = queue.Queue()
        self.commander = ChatCommander(
            self.bot, ["boss"], on_stop=self.stops.append, on_goal=lambda goal: None, status=lambda: "status: idle",
            on_event=self._heard.put, secret=secret, secret_required=secret_required,
        )

    def say(self, player: str, message: str, *, whisper: bool = False) -> ChatCommand:
        kind = "whisper" if whisper else "chat"
        self.bot.events.push(BotEvent(kind=kind, time=time.time(), username=player, message=message))
        return self._heard.get(timeout=HANDLED_S)


@pytest.fixture
def secured() -> Iterator[Harness]:
    harness = Harness(secret=SECRET, secret_required=True)
    yield harness
    harness.commander.close()


def test_commands_wait_for_the_whispered_secret(secured: Harness) -> None:
    refused = secured.say("boss", "!stop")
    assert (refused.accepted, refused.reason) == (False, "secret not said") and secured.stops == []
    assert secured.bot.said[-1] == "boss: whisper the secret first: /tell steered !auth <secret>"

    assert secured.say("boss", f"!auth {SECRET}", whisper=True) == ChatCommand(player="boss", command="!auth", accepted=True)
    assert secured.say("boss", "!stop").accepted and secured.stops == ["boss"]
    assert not any(SECRET in line for line in secured.bot.said)


def test_a_wrong_or_open_secret_is_refused_and_never_recorded(secured: Harness) -> None:
    wrong = secured.say("boss", "!auth guess", whisper=True)
    assert (wrong.accepted, wrong.reason, wrong.argument) == (False, "wrong secret", "")
    heard = secured.say("boss", f"!auth {SECRET}")
    assert (heard.accepted, heard.reason, heard.argument) == (False, "said in open chat", "")
    assert secured.bot.said[-1].startswith("boss: everyone heard that: set a new secret")
    assert not secured.say("boss", "!status").accepted


def test_the_secret_does_not_lift_the_allowlist(secured: Harness) -> None:
    stranger = secured.say("stranger", f"!auth {SECRET}", whisper=True)
    assert (stranger.accepted, stranger.reason, stranger.argument) == (False, "not on the chat allowlist", "")
    assert not secured.say("stranger", "!stop").accepted and secured.stops == []


def test_required_but_unset_refuses_every_command() -> None:
    harness = Harness(secret=None, secret_required=True)
    try:
        assert harness.say("boss", "!stop").reason == "no chat secret set"
        assert harness.say("boss", "!auth anything", whisper=True).reason == "no chat secret set"
        assert harness.stops == [] and "no secret is set" in harness.bot.said[-1]
    finally:
        harness.commander.close()


def test_loopback_without_a_secret_takes_commands_at_once() -> None:
    harness = Harness(secret=None, secret_required=False)
    try:
        assert harness.say("boss", "!stop").accepted and harness.stops == ["boss"]
    finally:
        harness.commander.close()


def test_a_trace_keeps_an_auth_line_without_its_secret() -> None:
    assert for_the_record(f"  !auth {SECRET} ") == "!auth"
    assert for_the_record("!authority") == "!authority" and for_the_record("hello") == "hello"
