"""The gate on the model's reading of a goal: words no rule reads are classified by the model
(agent/planner/classify.py) only when `mcagent llm check` measured this very backend on the
reading set (agent/planner/reading_set.py) and it reached the mark (at least 90 % right, at
most 2 % wrong; agent/diagnostics/measured.py).

Why a gate: SmolLM2-135M classifies near chance, and a wrong check is worse than none ("walk
over to the pond" read as has_item cobblestone, which the world then "verified"). A backend
never measured, measured on another set, or below the mark reads nothing, whatever it is:
the scripted and random test backends too, unless a record says otherwise.
"""

from __future__ import annotations

import yaml

from agent.diagnostics.measured import READING, figures, shares
from agent.diagnostics.measurements import todays_score
from agent.llm import Metered
from agent.planner.reading_set import READING_SET, set_digest
from agent.trace.schema import ModelReading

NOT_MEASURED = "not measured"


def reading_leave(backend: Metered) -> ModelReading:
    """Whether `backend` may read goals, from its record; why not, in a few words."""
    score, why_not = todays_score(backend, READING, "reading set", set_digest, READING_SET,
                                  unreadable=(OSError, yaml.YAMLError))
    if score is None:
        return ModelReading(reads=False, why=f"{NOT_MEASURED} {why_not}".strip())
    if not score.qualifies:
        return ModelReading(reads=False, why=f"below the mark: {shares(score)}")
    return ModelReading(reads=True, why=figures(score))
