"""mc-respawn's result (bridge/helpers/life.js): the bot state after coming back."""

from __future__ import annotations

from agent.bridge.models import BotState


class Respawned(BotState):
    respawned: bool
