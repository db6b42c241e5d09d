"""A respawn's reply (bridge/helpers/respawn.js), the bot state after coming back: mc-respawn's result, and
what the session's keeper reads after every step (agent/session/keeper.py)."""

from __future__ import annotations

from agent.bridge.models import BotState


class Respawned(BotState):
    respawned: bool
