"""mc-say's result (bridge/helpers/chat.js): the chat line sent."""

from __future__ import annotations

from agent.world.models import Model


class Said(Model):
    sent: str
