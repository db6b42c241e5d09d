"""Who can reach a local server: this machine only (loopback), or the network with --public.

The server runs in offline mode: a player names itself, and nothing checks the name. On
loopback every player is this machine's user; anywhere else anyone who reaches the port can
join under any name, an operator's or an allowlisted one's included.
"""

from __future__ import annotations

import ipaddress

from agent.errors import ConfigError


def is_loopback(host: str) -> bool:
    """Whether `host` reaches this machine only: localhost, 127.0.0.0/8 or ::1 (a host name
    other than localhost may resolve anywhere)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_loopback_or_public(host: str, public: bool) -> None:
    """Refuses to open a local server to the network unless the user asked for it."""
    if not public and not is_loopback(host):
        raise ConfigError(
            f"server.host {host!r} is not loopback: a local server listens on 127.0.0.1, ::1 or localhost, "
            "unless --public (config server.public: true) opens it to the network"
        )
