"""The model's weight in every tool choice (agent/planner/prior.py): its skill above chance and
above the runtime's own order on the choice set (agent/planner/choice_set.py), as `mcagent llm
check` measured this very backend.

Why measured, not assumed: SmolLM2-135M scoring tool names chose worse than the runtime's own
order, and worse than random in places. A backend never measured, or measured on another set,
weighs nothing: the runtime's prior decides, and the model is not asked. A scripted backend is
a test's stand-in for a model, its choices the test's point: unless measured, taken as vouched for. A baseline
policy (random, the first offer) chooses alone and has no weight (Capabilities.baseline).
"""

from __future__ import annotations

from agent.diagnostics.measured import CHOICES, choice_weight
from agent.diagnostics.measurements import todays_score
from agent.llm import Metered
from agent.planner.choice_set import CHOICE_SET, set_digest
from agent.planner.prior import VOUCHED, Weight

NOT_MEASURED = "not measured: mcagent llm check measures it"


def choosing_weight(backend: Metered, configured: float | None = None) -> Weight:
    """The backend's weight, and why: as the config sets it (an ablation, said so), else from its
    record; a script never measured is vouched for."""
    if configured is not None:
        return Weight(configured, "set by the config's llm_weight")
    score, why_not = todays_score(backend, CHOICES, "choice set", set_digest, CHOICE_SET)
    if score is not None:
        return Weight(choice_weight(score), f"{score.right}/{len(score.cases)} right on the choice set, chance "
                                            f"{(score.chance or 0) * 100:.0f} %")
    if backend.name.split(":", 1)[0] == "scripted":
        return Weight(VOUCHED, "a script, vouched for by its test")
    return Weight(0.0, f"{NOT_MEASURED} {why_not}".strip())
