"""Bridge failures, each with the short code the JS side reported."""

from agent.errors import McAgentError


class BridgeError(McAgentError):
    """A bridge call failed. `code` is machine-readable (bad_args, timeout, internal, ...)."""

    def __init__(self, message: str, code: str = "bridge"):
        super().__init__(message)
        self.code = code


class ConnectError(BridgeError):
    """The bot could not join: refused, kicked, wrong version, unreachable or too slow."""


class BotDisconnected(BridgeError):
    """The bot left the server (kicked, server closed, network); it cannot act any more."""

    def __init__(self, message: str):
        super().__init__(message, code="disconnected")
