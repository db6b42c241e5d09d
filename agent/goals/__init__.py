"""Goal understanding: a goal's words as ordered sub-goals, each a check the world judges."""

from agent.goals.grounding import ground
from agent.goals.grounds import Grounds, read_grounds, read_grounds_for
from agent.goals.reading import understand
from agent.goals.understanding import SubGoal, Understanding

__all__ = ["Grounds", "SubGoal", "Understanding", "ground", "read_grounds", "read_grounds_for", "understand"]
