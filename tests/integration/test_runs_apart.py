"""Two real `mcagent run`s with one goal, started together, each on a local server of its own:
two folders, two intact traces. The folder names the clock gives them are taken beforehand
for the next minutes, so the runs race for the suffixes whichever second they start in. A run
that fails before it writes leaves no folder, and one never writes into another run's map."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from agent.trace import read_trace
from agent.world.spatial import MAP_FILE
from support.planning import EXPLORE_POLICY, run_config
from support.procs import env_with_token, mcagent, new_token, transcript, wait_until_gone

GOAL = "get out of the room to open sky"
SLUG = "get-out-of-the-room-to-open-sky"
TAKEN_AHEAD_S = 300  # the seconds whose folder names are taken before the runs start
RUN_TIMEOUT_S = 240


def _start_run(folder: Path, trace_dir: Path, token: str) -> subprocess.Popen[str]:
    folder.mkdir()
    config = run_config(folder, f"trace_dir: {trace_dir}\n")
    return subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "run", "--goal", GOAL, "--config", str(config), "--scenario", "room",
         "--port", "0", "--llm", f"scripted:{EXPLORE_POLICY}", "--max-steps", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
    )


def test_two_runs_with_one_goal_at_once_write_two_intact_traces(tmp_path: Path) -> None:
    trace_dir = tmp_path / "runs"
    trace_dir.mkdir()
    now = time.time()
    for second in range(-2, TAKEN_AHEAD_S):
        (trace_dir / f"{time.strftime('%Y%m%d-%H%M%S', time.localtime(now + second))}-{SLUG}").mkdir(exist_ok=True)
    token = new_token()
    runs = [_start_run(tmp_path / name, trace_dir, token) for name in ("a", "b")]
    try:
        outputs = [run.communicate(timeout=RUN_TIMEOUT_S) for run in runs]
    finally:
        for run in runs:
            run.kill()
    for run, (out, err) in zip(runs, outputs):
        assert run.returncode == 0, f"exit {run.returncode}\n{out}\n{err}"
    traces = [Path(re.search(r"^trace: (.+)$", out, re.MULTILINE).group(1)) for out, _ in outputs]
    assert traces[0].parent != traces[1].parent
    for trace in traces:
        assert trace.parent.parent == trace_dir and re.fullmatch(rf"\d{{8}}-\d{{6}}-{SLUG}-\d+", trace.parent.name)
        read = read_trace(trace)
        assert read.bad_lines == [] and read.truncated_line is None and not read.being_written
        assert read.start is not None and read.start.goal == GOAL
        assert read.end is not None and read.end.outcome == "success"
        assert sum(e.event == "run_start" and e.plan == 0 for e in read.events) == 1
    assert wait_until_gone(token, timeout_s=5) == []


def test_a_run_that_fails_before_it_writes_leaves_no_folder(tmp_path: Path) -> None:
    trace_dir, token = tmp_path / "runs", new_token()
    done = mcagent("run", "--goal", GOAL, "--config", str(run_config(tmp_path, f"trace_dir: {trace_dir}\n")),
                   "--scenario", "room", "--port", "0", "--llm", f"scripted:{tmp_path / 'no-policy.py'}", token=token)
    assert done.returncode == 2 and "no-policy.py" in done.stderr and "Traceback" not in done.stderr, transcript(done)
    assert list(trace_dir.iterdir()) == []
    assert wait_until_gone(token, timeout_s=5) == []


def test_a_trace_into_another_runs_folder_is_refused_and_its_map_kept(tmp_path: Path) -> None:
    earlier = tmp_path / "earlier-run"
    earlier.mkdir()
    (earlier / MAP_FILE).write_bytes(b"what the earlier run saw")
    token = new_token()
    done = mcagent("run", "--goal", GOAL, "--config", str(run_config(tmp_path)), "--scenario", "room",
                   "--port", "0", "--llm", f"scripted:{EXPLORE_POLICY}", "--trace", str(earlier / "again.jsonl"),
                   token=token)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, transcript(done)
    assert lines[0] == (f"mcagent run: {earlier / MAP_FILE} holds another run's map, and a map is never overwritten: "
                        "give the run a trace path in a folder of its own")
    assert (earlier / MAP_FILE).read_bytes() == b"what the earlier run saw"
    assert sorted(p.name for p in earlier.iterdir()) == [MAP_FILE]
    assert wait_until_gone(token, timeout_s=5) == []
