"""Talking with players in the game: steering commands from an allowlist, and announcements."""

from agent.chat.commander import ChatCommand, ChatCommander, announce

__all__ = ["ChatCommand", "ChatCommander", "announce"]
