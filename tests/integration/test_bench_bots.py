"""`mcagent bench bots` on the real server: two bots walking, in one bridge process and in one
each; every row measured (the server ticking, round trips timed, walks ended, Node memory read:
two bridges hold more than one) and no process left behind."""

from __future__ import annotations

import json

from support.procs import mcagent, new_token, transcript, wait_until_gone


def test_bench_bots_measures_two_walking_bots_in_one_bridge_and_in_two() -> None:
    token = new_token()
    done = mcagent("bench", "bots", "--bots", "2", "--seconds", "6", "--json", token=token, timeout_s=240)
    assert done.returncode == 0, transcript(done)
    rows = {r["bridges"]: r for r in json.loads(done.stdout)}
    assert set(rows) == {"shared", "per-bot"}
    for r in rows.values():
        assert r["bots"] == 2 and r["ticks_per_s"] > 5  # the server ticked (20 nominal)
        assert r["round_trip"]["n"] >= 2 * 20  # about 20 state calls a second per bot
        assert r["walks_per_bot_min"] > 0
    assert rows["per-bot"]["node_rss_mb"] > rows["shared"]["node_rss_mb"]  # two Node processes, not one
    assert wait_until_gone(token, timeout_s=5) == []
