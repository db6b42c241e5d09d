"""mc-status' result (bridge/helpers/state.js): the bridge's bot state and whether the bot stands or falls."""

from __future__ import annotations

from typing import Literal

from agent.bridge.models import BotState


class Status(BotState):
    vertical_state: Literal["stable", "falling"]
