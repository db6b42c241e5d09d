"""A team's shape (agent/session/team.py), its results taken together (team_run.py) and its
traces read as one timeline (agent/trace/team.py), without a server."""

from __future__ import annotations

import _thread
import signal
import threading
import time
from pathlib import Path

import pytest

from agent.checks import Verdict
from agent.errors import ConfigError
from agent.mc.names import Item
from agent.server import load_scenario
from agent.session.team import Team, Teammate, load_team
from agent.planner.control import RunControl, StopRequested
from agent.session.team_run import TeamResult, _run_all, model_slots
from agent.config import AgentConfig
from agent.planner import RunResult
from agent.trace import TraceError, TraceWriter
from agent.trace.records import Usage
from agent.trace.schema import Chat
from agent.trace.team import interleaved, team_traces


def test_bots_n_are_named_after_the_username_and_share_the_goal() -> None:
    team = Team.of(3, "mcagent", "Craft shears")
    assert [b.name for b in team.bots] == ["mcagent1", "mcagent2", "mcagent3"] and team.shares_goal()
    assert [b.name for b in Team.of(2, "a_sixteen_letter", None).bots] == ["a_sixteen_lette1", "a_sixteen_lette2"]
    with pytest.raises(ConfigError, match="1 to 8 bots, got 9"):
        Team.of(9, "mcagent", "x")


def test_a_team_file_is_read_and_its_mistakes_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "team.yaml"
    path.write_text("goal: Craft shears\nbots:\n  - {name: Ada, inventory: [{name: iron_ingot, count: 1}]}\n"
                    "  - {name: Bob, denied: [mc-collect]}\n")
    team = load_team(path)
    assert [(b.name, b.inventory, b.denied) for b in team.bots] == [
        ("Ada", [Item(name="iron_ingot", count=1)], []), ("Bob", None, ["mc-collect"])]
    path.write_text("bots: [{name: Ada}, {name: ada}]\n")
    with pytest.raises(ConfigError, match="given twice: ada"):
        load_team(path)
    path.write_text("bots: [{name: A}]\n")
    with pytest.raises(ConfigError, match="3 to 16 letters"):
        load_team(path)
    with pytest.raises(ConfigError, match="does not exist"):
        load_team(tmp_path / "none.yaml")


def test_each_bots_goal_and_inventory_in_the_world() -> None:
    flat = load_scenario("flat").model_copy(update={"goal": None})
    team = Team(goal=None, bots=[Teammate(name="Ada", goal="Collect 2 dirt"),
                                 Teammate(name="Bob", inventory=[Item(name="stick", count=2)])])
    assert not team.shares_goal() and team.goal_of(team.bots[0], flat) == "Collect 2 dirt"
    with pytest.raises(ConfigError, match="bot Bob has no goal"):
        team.goal_of(team.bots[1], flat)
    world = team.in_world(flat)
    assert world is not None and world.inventories == {"Bob": [Item(name="stick", count=2)]}
    assert world.inventory == flat.inventory  # the others carry what the scenario gives everyone
    with pytest.raises(ConfigError, match="local server only"):
        team.in_world(None)


def _run(outcome: str, holds: bool | None, steps: int, calls: int) -> RunResult:
    check = None if holds is None else Verdict(holds=holds, detail="has_item shears 1")
    return RunResult(outcome=outcome, reason="r", steps=steps, inner_steps=1, wall_s=float(steps),
                     usage=Usage(calls=calls, seconds=1.0), final_check=check)


def test_a_shared_goal_is_reached_when_any_bot_reaches_it_goals_of_their_own_when_all_do() -> None:
    one_of_two = {"Ada": _run("stopped", False, 2, 3), "Bob": _run("success", True, 4, 5)}
    assert TeamResult(results=one_of_two, shared=True).verified
    assert not TeamResult(results=one_of_two, shared=False).verified
    unchecked = {"Ada": _run("success", None, 1, 1)}  # a DONE no check confirmed is not reached
    assert not TeamResult(results=unchecked, shared=True).verified


def test_the_team_as_one_result_is_the_reaching_bots_with_everyones_costs() -> None:
    whole = TeamResult(results={"Ada": _run("stopped", False, 2, 3), "Bob": _run("success", True, 4, 5)},
                       shared=True).as_one()
    assert (whole.outcome, whole.final_check.holds, whole.steps, whole.inner_steps) == ("success", True, 6, 2)
    assert (whole.usage.calls, whole.usage.seconds, whole.wall_s) == (8, 2.0, 4.0)


def test_each_bots_own_run_is_kept_beside_the_sum() -> None:
    totals = TeamResult(results={"Ada": _run("stopped", False, 2, 3), "Bob": _run("success", True, 4, 5)},
                        shared=True).totals()
    assert list(totals) == ["Ada", "Bob"]
    assert [(t.outcome, t.steps, t.usage.calls) for t in totals.values()] == [("stopped", 2, 3), ("success", 4, 5)]


def test_model_slots_give_a_server_spec_a_slot_per_bot_and_other_specs_as_they_are() -> None:
    with model_slots(AgentConfig(llm="llama-server:http://127.0.0.1:9"), 3) as specs:
        assert specs == [f"llama-server:http://127.0.0.1:9?slot={i}" for i in range(3)]
    with model_slots(AgentConfig(llm="random:4"), 2) as specs:
        assert specs == ["random:4", "random:4"]
    with model_slots(AgentConfig(llm="llamacpp"), 1) as specs:  # one bot keeps the model in its process
        assert specs == ["llamacpp"]


def test_a_teams_traces_are_one_timeline_in_time_order(tmp_path: Path) -> None:
    for bot, times in {"Ada": [1.0, 3.0], "Bob": [2.0, 3.0]}.items():
        writer = TraceWriter(tmp_path / bot / "trace.jsonl")
        for t in times:
            writer.add(Chat(t=t, username=bot, message=f"{bot} at {t}"))
        writer.close()
    said = [(bot, e.message) for bot, e in interleaved(team_traces(tmp_path))]
    assert said == [("Ada", "Ada at 1.0"), ("Bob", "Bob at 2.0"), ("Ada", "Ada at 3.0"), ("Bob", "Bob at 3.0")]
    with pytest.raises(TraceError, match="holds no team's traces"):
        team_traces(tmp_path / "Ada")


def test_what_a_shared_goal_asks_to_hold_is_the_teams_to_hold() -> None:
    from agent.checks import parse_check
    from agent.session.team_run import held_by_team
    both = parse_check({"all": [{"has_item": {"name": "stick", "count": 4}}, {"sky_visible": True}]}, "check")
    assert held_by_team(both).describe() == "all(team_has stick 4, sky_visible)"
    assert held_by_team(parse_check({"sky_visible": True}, "check")).describe() == "sky_visible"


def test_ctrl_c_while_the_team_waits_stops_every_bot_and_returns_only_once_each_run_ended() -> None:
    controls, finished = [RunControl(), RunControl()], []
    give_up = time.monotonic() + 30  # an interrupt that never lands fails the test, never hangs it

    def run(i: int) -> None:
        while time.monotonic() < give_up:  # a bot's steps, each ending at a stop request
            try:
                controls[i].check()
            except StopRequested:
                time.sleep(0.3 * (i + 1))  # ending takes its time: the team must wait for it
                finished.append(i)
                return
            time.sleep(0.01)

    class Session:  # what _run_all halts on Ctrl-C
        class bot:  # noqa: N801
            halt = staticmethod(lambda: None)

    # A shell's `make test &` hands SIGINT on ignored, and interrupt_main then does nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.2, _thread.interrupt_main).start()
        interrupted = _run_all({"a": lambda: run(0), "b": lambda: run(1)}, controls, [Session(), Session()])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert interrupted is True
    assert sorted(finished) == [0, 1]
