"""Goal checks: typed world predicates (model.py) the bot evaluates in one bridge call (evaluate.py)."""

from agent.checks.evaluate import Verdict, evaluate, start_the_way
from agent.checks.model import Check, Standing, load_check, parse_check
from agent.checks.reading import pursued_check, read_fact, read_goal

__all__ = ["Check", "Standing", "Verdict", "parse_check", "load_check", "evaluate", "pursued_check", "read_goal", "read_fact",
           "start_the_way"]
