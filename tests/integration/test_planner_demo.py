"""`mcagent demo`: the planner on the embedded SmolLM2 explores the cave scenario, within the
5 minutes the issue allows on 2 cores, and says where the trace is."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from agent.trace import read_trace
from agent.trace.schema import MethodStep, RunEnd
from support.procs import mcagent, new_token, transcript, wait_until_gone

pytest.importorskip("llama_cpp", reason="llama-cpp-python is built by scripts/bootstrap.sh")

DEMO_BOUND_S = 300


def test_demo_explores_the_cave_and_prints_where_the_trace_is(tmp_path):
    config = tmp_path / "mcagent.yaml"
    config.write_text(f"infospace: {tmp_path / 'notes.db'}\ntrace_dir: {tmp_path / 'runs'}\n"
                      f"tool_folders: [{Path(__file__).resolve().parents[2] / 'skills'}]\n")
    token = new_token()
    started = time.monotonic()
    done = mcagent("demo", "--port", "0", "--config", str(config), token=token, timeout_s=DEMO_BOUND_S)
    assert time.monotonic() - started < DEMO_BOUND_S
    assert done.returncode == 0, transcript(done)
    out = done.stdout
    assert "goal: explore the area until you find open sky (scenario cave, LLM llamacpp)" in out
    assert "bot mcagent at x=0.50 y=5.00 z=0.50, facing north" in out
    assert re.search(r"^step 1\.1 +mc-", out, re.MULTILINE), out
    assert re.search(r"^step 1 +explore-area ", out, re.MULTILINE), out
    # The cave's check judges the run; the closing line is its verdict on where the bot ended.
    assert "understood: 1. sky_visible (the check given)" in out
    outcome = re.search(r"^outcome: (success|max_steps) \((.+)\)$", out, re.MULTILINE)
    verdict = out.strip().splitlines()[-1]
    assert outcome and verdict.startswith("goal check after the run: sky_visible "), out
    assert (outcome[1] == "success") == verdict.startswith("goal check after the run: sky_visible holds"), out
    trace = Path(re.search(r"^trace: (.+)$", out, re.MULTILINE)[1])
    assert trace.is_file() and trace.parent.parent == tmp_path / "runs"
    events = read_trace(trace).events
    assert any(isinstance(e, RunEnd) and e.plan == 0 for e in events)
    assert any(isinstance(e, MethodStep) for e in events)
    # The demo's trace opens in replay and in report.
    shown = mcagent("replay", str(trace), token=token)
    assert shown.returncode == 0 and re.search(r"^step 1\.1 +mc-", shown.stdout, re.MULTILINE), shown.stderr
    assert "abnormally" not in shown.stdout
    report = tmp_path / "report.html"
    assert mcagent("report", str(trace), "-o", str(report), token=token).returncode == 0
    html = report.read_text()
    assert '<polyline id="path"' in html and '<svg id="time"' in html
    assert wait_until_gone(token, timeout_s=5) == []
