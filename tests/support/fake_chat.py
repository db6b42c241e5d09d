"""A bot connection as a ChatCommander uses it, with no server: its name, its events, what it
said, and a halt that does nothing."""

from __future__ import annotations

from agent.bridge.events import EventLog


class FakeBot:
    """What a ChatCommander uses of a BotConnection: its name, its events, saying and halting."""

    def __init__(self, username: str) -> None:
        self.username = username
        self.events = EventLog()
        self.said: list[str] = []

    def chat(self, text: str) -> None:
        self.said.append(text)

    def halt(self) -> None:
        pass
