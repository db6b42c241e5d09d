"""Python <-> Mineflayer: one Node process (JSPyBridge), bots in it, typed replies."""

from agent.bridge.connection import BotConnection, connect
from agent.bridge.errors import BotDisconnected, BridgeError, ConnectError
from agent.bridge.models import BlockBox, BotEvent, BotState, MoveReport, Orientation
from agent.bridge.runtime import shutdown

__all__ = [
    "BotConnection",
    "connect",
    "shutdown",
    "BridgeError",
    "BotDisconnected",
    "ConnectError",
    "BotState",
    "BotEvent",
    "BlockBox",
    "MoveReport",
    "Orientation",
]
