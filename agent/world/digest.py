"""A fingerprint of the world around the bot (bridge/helpers/digest.js): where its feet are, what
it carries and the blocks around it. Two equal fingerprints, before and after a step, say the
step changed nothing there."""

from __future__ import annotations

from agent.bridge import BotConnection, BridgeError


def world_digest(bot: BotConnection | None) -> str | None:
    """16 hex digits; None when there is no bot or it cannot be read (dead, disconnected)."""
    if bot is None:
        return None
    try:
        return str(bot.call("digest")["digest"])
    except BridgeError:
        return None
