"""Reading a goal's words for their meaning (docs/reading.md): words, clauses, asks (intents with
their parts), things, and the sub-goals they mean."""

from agent.goals.reading.meaning import understand

__all__ = ["understand"]
