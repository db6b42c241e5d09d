"""The embedded local Minecraft server (flying-squid in its own Node process)."""

from agent.server.local_server import LocalServer, ServerInfo
from agent.server.scenario import Scenario, load_scenario
from agent.server.settings import ServerSettings, load_server_settings

__all__ = ["LocalServer", "ServerInfo", "ServerSettings", "load_server_settings", "Scenario", "load_scenario"]
