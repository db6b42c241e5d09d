"""`mcagent soak` for a few seconds on a real server: the table, the verdict, no process left."""

from __future__ import annotations

from support.procs import mcagent, new_token, transcript, wait_until_gone


def test_a_short_soak_prints_its_samples_and_a_verdict_and_leaves_nothing() -> None:
    token = new_token()
    done = mcagent("soak", "--minutes", "0.4", "--sample-s", "5", "--port", "0", token=token, timeout_s=120)
    lines = done.stdout.splitlines()
    assert lines[0].split()[:4] == ["t", "(s)", "episodes", "observ."], transcript(done)
    rows = [line.split() for line in lines[1:] if line.strip()[:1].isdigit()]
    assert len(rows) >= 5 and int(rows[-1][1]) >= 3  # episodes ran
    assert all(len(row) == 6 and row[3].count("/") == 3 for row in rows)  # python, bridge, server columns
    verdict = next(line for line in lines if line.startswith("verdict: "))
    assert done.returncode == (0 if verdict.startswith("verdict: pass") else 1), transcript(done)
    assert any(line.startswith("episodes: ") and "observations: " in line for line in lines)
    assert wait_until_gone(token, timeout_s=5) == []
