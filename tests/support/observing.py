"""One bot watching another through the server, as the tests that check the world do."""

from __future__ import annotations

from agent.bridge import BotConnection, BridgeError
from agent.bridge.models import PlayerPose


def seen(observer: BotConnection, username: str) -> PlayerPose | None:
    """Where `observer` sees player `username`, or None while that player is not in view."""
    try:
        return observer.player_pose(username)
    except BridgeError:
        return None
