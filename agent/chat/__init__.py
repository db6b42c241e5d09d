"""Talking with players in the game: steering commands from an allowlist, and announcements."""

from agent.chat.commander import AUTH, CHAT_SECRET_ENV, ChatCommand, ChatCommander, announce, chat_secret, for_the_record

__all__ = ["AUTH", "CHAT_SECRET_ENV", "ChatCommand", "ChatCommander", "announce", "chat_secret", "for_the_record"]
