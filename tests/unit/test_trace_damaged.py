"""Reading a trace degrades gracefully: every good event, the bad lines named in one warning,
bad bytes replaced; `replay --follow` waits for a missing file a bounded time, and ends by
itself at run_end or when the run that writes the trace is gone (SIGKILL included)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agent.cli import main
from agent.llm import Usage
from agent.trace import TraceError, TraceWriter, read_trace
from agent.trace.reader import WRITER_GONE_S
from agent.trace.schema import Chat, RunEnd

HELLO = Chat(username="alex", message="hello")
END = RunEnd(goal="g", outcome="stopped", reason="stopped, as alex asked", steps=1, inner_steps=0, wall_s=1.0,
             usage=Usage())
# Line 1 good, 2 not JSON, 3 good with a byte that is not UTF-8, 4 an unknown event, 5 a field the
# schema lacks, 6 good, and a last line cut off as a killed run leaves it.
DAMAGED = b"\n".join([
    HELLO.model_dump_json().encode(),
    b"\xff\xfe{not json",
    b'{"event": "chat", "username": "bob", "message": "caf\xe9"}',
    b'{"event": "foo"}',
    b'{"event": "death", "colour": "red"}',
    END.model_dump_json().encode(),
    b'{"event": "chat", "usern',
])
WARNING = ("3 bad lines skipped: line 2 (not JSON), line 4 (unknown event 'foo'), "
           "line 5 (not a valid death: colour: Extra inputs are not permitted)")
# A run that writes one event, a second one a little later, then hangs until killed.
WRITER = """
import sys, time
from pathlib import Path
from agent.trace import TraceWriter
from agent.trace.schema import Chat
writer = TraceWriter(Path(sys.argv[1]))
writer.add(Chat(username="alex", message="before"))
print("ready", flush=True)
time.sleep(0.5)
writer.add(Chat(username="alex", message="while followed"))
time.sleep(600)
"""
KILL_AFTER_S = 1.5


def test_every_good_event_is_read_and_each_bad_line_named(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(DAMAGED)
    trace = read_trace(path)
    assert [e.event for e in trace.events] == ["chat", "chat", "run_end"]
    assert trace.events[1].message == "caf\ufffd"  # the bad byte, replaced
    assert [(bad.number, bad.why.split(":")[0]) for bad in trace.bad_lines] == [
        (2, "not JSON"), (4, "unknown event 'foo'"), (5, "not a valid death")]
    assert trace.warning == f"{path}: {WARNING}"
    assert trace.truncated_line is not None and trace.abnormal is None


def test_a_warning_names_five_bad_lines_then_counts_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_text("\n".join(["nope"] * 7 + [HELLO.model_dump_json()]) + "\n")
    assert read_trace(path).warning == (f"{path}: 7 bad lines skipped: line 1 (not JSON), line 2 (not JSON), "
                                        "line 3 (not JSON), line 4 (not JSON), line 5 (not JSON), and 2 more")


@pytest.mark.parametrize("content, why", [
    (b"", "it is empty"),
    (b"[1]\n\xff\n", "2 bad lines: line 1 (not a JSON object), line 2 (not JSON)"),
    (b'{"event": "chat", "us', "only a cut-off line"),
])
def test_a_file_without_one_good_event_is_an_error(tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(content)
    with pytest.raises(TraceError) as error:
        read_trace(path)
    assert str(error.value) == f"{path} holds no trace event: {why}"


def test_replay_and_report_show_the_good_events_and_warn_once(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "trace.jsonl"
    path.write_bytes(DAMAGED)
    assert main(["replay", str(path)]) == 0
    shown = capsys.readouterr()
    assert shown.out.splitlines() == [
        "chat <alex> hello", "chat <bob> caf\ufffd", "outcome: stopped (stopped, as alex asked)"]
    assert shown.err.splitlines() == [f"mcagent replay: warning: {path}: {WARNING}"]
    page = tmp_path / "page.html"
    assert main(["report", str(path), "-o", str(page)]) == 0
    reported = capsys.readouterr()
    assert reported.out.splitlines() == [f"report: {page} (3 events)"]
    assert reported.err.splitlines() == [f"mcagent report: warning: {path}: {WARNING}"]
    assert "3 bad lines skipped: line 2 (not JSON)" in page.read_text()


@pytest.mark.parametrize("command", ["replay", "report"])
def test_a_missing_or_eventless_trace_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture, command: str) -> None:
    missing, empty = tmp_path / "missing.jsonl", tmp_path / "empty.jsonl"
    empty.write_bytes(b"\xff\n")
    assert main([command, str(missing)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"mcagent {command}: cannot read the trace {missing}: No such file or directory"]
    assert main([command, str(empty)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"mcagent {command}: {empty} holds no trace event: 1 bad line: line 1 (not JSON)"]


def test_follow_gives_up_on_a_missing_file_after_its_wait(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "never.jsonl"
    started = time.monotonic()
    assert main(["replay", str(path), "--follow", "--wait", "1"]) == 1
    assert 1 <= time.monotonic() - started < 3
    assert capsys.readouterr().err.splitlines() == [
        f"waiting for {path} to appear (at most 1 s)",
        f"mcagent replay: {path} did not appear within 1 s: is a run writing it?",
    ]


def test_follow_waits_for_the_file_then_follows_it_to_run_end(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "later" / "trace.jsonl"

    def run_later() -> None:
        time.sleep(0.5)
        writer = TraceWriter(path)
        writer.add(HELLO)
        time.sleep(0.3)
        writer.add(END)
        time.sleep(WRITER_GONE_S + 1)  # still open: the follower ends at run_end, not at the writer's end
        writer.close()

    later = threading.Thread(target=run_later)
    later.start()
    started = time.monotonic()
    try:
        assert main(["replay", str(path), "--follow", "--wait", "5"]) == 0
        assert time.monotonic() - started < WRITER_GONE_S + 1
    finally:
        later.join()
    shown = capsys.readouterr()
    assert shown.out.splitlines() == ["chat <alex> hello", "outcome: stopped (stopped, as alex asked)"]
    assert shown.err.splitlines() == [f"waiting for {path} to appear (at most 5 s)"]


def test_follow_ends_by_itself_when_the_writing_run_is_killed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "trace.jsonl"
    run = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert run.stdout is not None and run.stdout.readline() == "ready\n"
        killer = threading.Timer(KILL_AFTER_S, run.kill)  # SIGKILL: no run_end, no clean close
        killer.start()
        started = time.monotonic()
        assert main(["replay", str(path), "--follow"]) == 0
        took = time.monotonic() - started
    finally:
        run.kill()
        run.wait()
    assert KILL_AFTER_S <= took < KILL_AFTER_S + WRITER_GONE_S + 2  # followed while it lived, ended soon after
    shown = capsys.readouterr()
    assert shown.out.splitlines() == [
        "chat <alex> before", "chat <alex> while followed",
        "note: the run ended abnormally: the trace has no run_end (killed or crashed); no run is writing it any more",
    ]
    assert shown.err == ""
