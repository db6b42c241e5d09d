"""The gate on the model's reading (agent/session/model_reading.py): words no rule reads are
classified by the model only when `mcagent llm check` recorded this backend's reading score at
the mark; a backend with no record, one below the mark or one measured on another set reads
nothing, and the run says why (the trace's `understood`, and one printed line)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.checks import Verdict
from agent.checks.model import NearBlock, Nearness
from agent.config import AgentConfig
from agent.diagnostics.measured import READING, CaseScore, score_of
from agent.diagnostics.measurements import identity_of, record, record_path, recorded
from agent.goals import SubGoal, Understanding
from agent.llm.base import ModelInfo
from agent.llm.scripted import ScriptedBackend
from agent.planner import PlannerOptions
from agent.planner.reading_set import set_digest
from agent.replay.timeline import model_reading_line
from agent.session import run
from agent.session.model_reading import reading_leave
from agent.session.world import WorldOptions
from agent.trace.schema import ModelReading, Understood

GOAL = "walk over to the pond"


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records go to a cache of the test's own, never the user's."""
    monkeypatch.setenv("MCAGENT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def backend() -> ScriptedBackend:
    return ScriptedBackend(["none"], name="scripted:gate-test")


def measured(right: int, wrong: int, digest: str | None = None) -> None:
    """A record for backend(): `right` right and `wrong` wrong of 50, the rest none."""
    cases = [CaseScore(ask=f"ask {n}", expected="sky_visible", read="sky_visible", outcome="right")
             for n in range(right)]
    cases += [CaseScore(ask=f"wrong {n}", expected="none", read="sky_visible", outcome="wrong") for n in range(wrong)]
    cases += [CaseScore(ask=f"none {n}", expected="sky_visible", read="none", outcome="none")
              for n in range(50 - right - wrong)]
    record(identity_of(backend()), "scripted:gate-test", score_of(READING, digest or set_digest(), cases, 1.0))


def test_a_backend_with_no_record_does_not_read():
    assert reading_leave(backend()) == ModelReading(reads=False, why="not measured")


def test_a_backend_below_the_mark_does_not_read_and_says_its_shares():
    measured(right=31, wrong=12)
    assert reading_leave(backend()) == ModelReading(reads=False, why="below the mark: 62 % right, 24 % wrong")


def test_a_backend_at_the_mark_reads():
    measured(right=47, wrong=1)
    assert reading_leave(backend()) == ModelReading(reads=True, why="47/50 right (94 %), 1 wrong (2 %), 2 none")


def test_a_score_on_another_set_is_no_measurement():
    measured(right=50, wrong=0, digest="0" * 64)
    assert reading_leave(backend()) == ModelReading(reads=False, why="not measured on today's reading set")


def test_another_backend_s_record_is_not_this_one_s():
    measured(right=50, wrong=0)
    other = ScriptedBackend(["none"], name="scripted:another")
    assert reading_leave(other).why == "not measured" and reading_leave(backend()).reads


def test_a_damaged_record_is_no_measurement(cache: Path):
    measured(right=50, wrong=0)
    record_path(identity_of(backend())).write_text('{"identity": 3}', encoding="utf-8")
    assert reading_leave(backend()) == ModelReading(reads=False, why="not measured (its record is damaged)")


def test_a_llama_server_s_slots_share_one_record():
    class Served(ScriptedBackend):
        def model_info(self) -> ModelInfo:  # as llama-server says it: the alias, whichever slot
            return ModelInfo(model="smollm2-135m", context_tokens=8192)

    slot0 = Served([], name="llama-server:http://127.0.0.1:8080?slot=0")
    slot1 = Served([], name="llama-server:http://127.0.0.1:8080?slot=1")
    assert identity_of(slot0) == identity_of(slot1)
    assert identity_of(slot0).backend == "llama-server:http://127.0.0.1:8080"
    assert identity_of(Served([], name="llama-server:http://127.0.0.1:9090?slot=0")) != identity_of(slot0)


def test_the_record_keeps_each_set_s_latest_score(cache: Path):
    measured(right=10, wrong=10)
    measured(right=50, wrong=0)
    found = recorded(identity_of(backend()))
    assert found is not None and list(found.sets) == [READING] and found.sets[READING].right == 50
    assert record_path(identity_of(backend())).parent == cache / "llm-check"


# ---- understood(): the run's reading of its goal ----

class FakeBot:
    """The bridge's `grounds` answer: a pond 3 blocks off."""

    def call(self, name: str, args: dict) -> dict:
        assert name == "grounds"
        return {"feet": {"x": 0.5, "y": 64, "z": 0.5}, "carried": {},
                "blocks": [{"name": "grass_block", "distance": 1}, {"name": "water", "distance": 3}]}


@pytest.fixture
def classify_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """classify replaced by a spy that reads every goal as near_block water."""
    calls: list[str] = []

    def spy(goal, grounds, backend, mc_version=None):
        calls.append(goal)
        return SubGoal(says=goal, check=NearBlock(near_block=Nearness(block="water")), by="model")

    monkeypatch.setattr(run, "classify", spy)
    monkeypatch.setattr(run, "evaluate", lambda bot, check: Verdict(holds=False, detail="not yet"))
    return calls


def understood(goal: str = GOAL):
    request = run.RunRequest(config=AgentConfig(), tool_sources=[], world=WorldOptions(), goal=goal,
                             goals=Understanding(goal=goal), options=PlannerOptions(), trace=None)
    return run.understood(request, SimpleNamespace(bot=FakeBot()), backend())


def test_understood_does_not_ask_the_model_without_a_record(classify_calls: list[str]):
    goals, reading = understood()
    assert classify_calls == [] and goals.subgoals == []
    assert reading == ModelReading(reads=False, why="not measured")


def test_understood_does_not_ask_the_model_below_the_mark(classify_calls: list[str]):
    measured(right=44, wrong=0)
    goals, reading = understood()
    assert classify_calls == [] and goals.subgoals == [] and not reading.reads


def test_understood_asks_the_model_when_its_reading_qualifies(classify_calls: list[str]):
    measured(right=46, wrong=1)
    goals, reading = understood()
    assert classify_calls == [GOAL] and reading.reads
    assert [(s.by, s.describe()) for s in goals.subgoals] == [("model", "near_block water 2")]


def test_a_goal_given_as_a_check_asks_no_gate(classify_calls: list[str]):
    request = run.RunRequest(config=AgentConfig(), tool_sources=[], world=WorldOptions(), goal=GOAL,
                             check=NearBlock(near_block=Nearness(block="water")), options=PlannerOptions(), trace=None)
    goals, reading = run.understood(request, SimpleNamespace(bot=FakeBot()), backend())
    assert reading is None and classify_calls == [] and goals.subgoals[0].by == "given"


# ---- what the run prints ----

def test_the_printed_line_says_why_the_model_read_nothing_and_only_then():
    def event(reading: ModelReading | None) -> Understood:
        return Understood(goal=GOAL, subgoals=[], model_reading=reading)

    line = model_reading_line(event(ModelReading(reads=False, why="not measured")))
    assert line is not None and line.plain == "the model reads no goals (llm check: not measured)"
    assert model_reading_line(event(ModelReading(reads=True, why="50/50 right"))) is None
    assert model_reading_line(event(None)) is None
