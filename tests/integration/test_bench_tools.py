"""`mcagent bench tools` on the real server prints a figure for every world tool it times, mc-find
and mc-collect (on a sandfield server of its own) among them, and leaves no process behind."""

from __future__ import annotations

import json

from support.procs import mcagent, new_token, transcript, wait_until_gone


def test_bench_tools_times_mc_find_and_mc_collect() -> None:
    token = new_token()
    done = mcagent("bench", "tools", "--calls", "2", "--json", token=token, timeout_s=180)
    assert done.returncode == 0, transcript(done)
    figures = {f["name"]: f for f in json.loads(done.stdout)["figures"]}
    find = next(f for name, f in figures.items() if name.startswith("mc-find stone radius 16"))
    collect = next(f for name, f in figures.items() if name.startswith("mc-collect 1 sand"))
    assert find["n"] == 2 and collect["n"] == 2
    assert collect["p50_ms"] > 700  # sand takes 0.75 s to dig by hand: a collect that dug nothing would be quicker
    assert wait_until_gone(token, timeout_s=5) == []
