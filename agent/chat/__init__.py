"""Talking with players in the game: steering commands and goals from an allowlist, asking back
about a goal understood in part, and announcements."""

from agent.chat.commander import AUTH, CHAT_SECRET_ENV, ChatCommand, ChatCommander, announce, chat_secret, for_the_record
from agent.chat.confirm import ANSWER_WAIT_S, Reading
from agent.trace.records import GoalExchange

__all__ = ["ANSWER_WAIT_S", "AUTH", "CHAT_SECRET_ENV", "ChatCommand", "ChatCommander", "GoalExchange", "Reading",
           "announce", "chat_secret", "for_the_record"]
