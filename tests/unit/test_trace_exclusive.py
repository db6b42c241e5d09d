"""A trace belongs to one run: run folders are made exclusively (a suffix when taken, even under
a race) and left behind only when used, the writer never overwrites a file, holds a lock while
its run lives, and keeps only a bounded tail of events in memory."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from agent.trace import TraceError, TraceWriter, new_folder_kept_if_used, new_run_folder, read_trace
from agent.trace.schema import Chat
from agent.trace.writer import RECENT_EVENTS

RACERS = 8


def test_runs_racing_for_one_folder_name_each_get_a_folder_of_their_own(tmp_path: Path) -> None:
    start = threading.Barrier(RACERS)
    made: list[Path] = []

    def race() -> None:
        start.wait()
        made.append(new_run_folder(tmp_path / "runs", "20260101-120000-explore"))

    threads = [threading.Thread(target=race) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    names = sorted(folder.name for folder in made)
    assert len(set(names)) == RACERS and all(folder.is_dir() for folder in made)
    assert set(names) == {"20260101-120000-explore"} | {f"20260101-120000-explore-{n}" for n in range(2, RACERS + 1)}


def test_a_run_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "runs").write_text("a file where the folder should be")
    with pytest.raises(TraceError, match=r"^cannot create the trace folder .*runs: "):
        new_run_folder(tmp_path / "runs", "x")


def test_a_run_folder_goes_again_when_nothing_was_written_in_it(tmp_path: Path) -> None:
    with pytest.raises(TraceError), new_folder_kept_if_used(tmp_path, "failed") as unused:
        raise TraceError("the run failed before its first event")
    with new_folder_kept_if_used(tmp_path, "ran") as used:
        (used / "trace.jsonl").write_text("{}\n")
    assert not unused.exists() and (used / "trace.jsonl").read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["ran"]


def test_an_existing_trace_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text("what another run wrote\n")
    with pytest.raises(TraceError) as refused:
        TraceWriter(path)
    assert str(refused.value).startswith(f"{path} already exists, and a trace is never overwritten: ")
    assert "\n" not in str(refused.value)
    assert path.read_text() == "what another run wrote\n"


def test_the_writer_holds_its_lock_while_open_and_the_reader_sees_it(tmp_path: Path) -> None:
    path = tmp_path / "run" / "trace.jsonl"
    writer = TraceWriter(path)
    writer.add(Chat(username="alex", message="hi"))
    live = read_trace(path)
    assert live.being_written and live.abnormal == "the run is still writing this trace: it has no run_end yet"
    writer.close()
    done = read_trace(path)
    assert not done.being_written and "ended abnormally" in (done.abnormal or "")


def test_the_writer_keeps_a_bounded_tail_in_memory_and_every_event_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    writer = TraceWriter(path)
    sent = [Chat(username="alex", message=str(n)) for n in range(RECENT_EVENTS + 44)]
    for event in sent:
        writer.add(event)
    writer.close()
    assert len(writer.recent_events) == RECENT_EVENTS and writer.events == sent[-RECENT_EVENTS:]
    assert read_trace(path).events == sent


def test_text_utf8_cannot_hold_costs_neither_the_event_nor_the_run(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    writer = TraceWriter(path)
    writer.add(Chat(username="alex", message="half \ud800 a pair"))
    writer.close()
    [event] = read_trace(path).events
    assert isinstance(event, Chat) and event.message == "half ? a pair"
