"""Live replay: recorded calls run again on a fresh server end where the recording did,
a watching bot sees the agent move, and a changed world shows up as divergences."""

from __future__ import annotations

import math

from agent.bridge import connect
from agent.infospace import Infospace
from agent.replay.live import RecordedCall, replay_calls
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.tools import Executor, load_toolbox, standard_sources
from support.observing import seen
from support.waiting import wait_for

WALK_OUT = [
    ("mc-look", {"facing": "north"}),
    ("mc-observe-blocks", {"radius": 4}),
    ("mc-move", {"blocks": 5}),
    ("mc-observe-blocks", {"radius": 4}),
    ("mc-status", {}),
]


def _session(scenario: str):
    return LocalServer(ServerSettings(), scenario=load_scenario(scenario))


def _executor(bot) -> Executor:
    return Executor(load_toolbox(standard_sources("minecraft", [])), Infospace.open(":memory:"), world=bot)


def test_replay_of_a_recorded_walk_ends_where_the_recording_did() -> None:
    with _session("room") as info, connect(port=info.port, username="recorder") as bot:
        executor = _executor(bot)
        recorded = [RecordedCall(tool=t, args=a, result=executor.execute_action({"type": t, **a}).as_dict()) for t, a in WALK_OUT]
        recorded_end = bot.state().position
    assert recorded[3].result["data"]["sky_visible"], "the recording should end outside under the sky"

    with _session("room") as info, connect(port=info.port, username="recorder") as bot, \
         connect(port=info.port, username="watcher") as watcher:
        start = wait_for(lambda: seen(watcher, "recorder"))
        report = replay_calls(_executor(bot), recorded)
        assert report.divergences == [], [str(d) for d in report.divergences]
        end = report.end_position
        assert math.dist((end.x, end.y, end.z), (recorded_end.x, recorded_end.y, recorded_end.z)) < 0.5
        moved = wait_for(lambda: (p := seen(watcher, "recorder")) and p.position.distance_to(start.position) > 4 and p)
        assert moved, "the watching bot never saw the agent move"


def test_a_changed_world_shows_up_as_divergences() -> None:
    with _session("room") as info, connect(port=info.port, username="recorder") as bot:
        executor = _executor(bot)
        recorded = [RecordedCall(tool=t, args=a, result=executor.execute_action({"type": t, **a}).as_dict()) for t, a in WALK_OUT]
    with _session("flat") as info, connect(port=info.port, username="recorder") as bot:  # no room this time
        report = replay_calls(_executor(bot), recorded)
    # inside the room the walls were 3 blocks away; in the open field nothing is in the way
    assert any(d.index == 1 and d.what == "free" for d in report.divergences), [str(d) for d in report.divergences]
    # the walk itself still ends where it did: only what the bot saw diverged
    assert not any(d.tool == "mc-move" for d in report.divergences)

