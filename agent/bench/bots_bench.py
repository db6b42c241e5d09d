"""`mcagent bench bots`: N bots on one local server (the flat field), each walking back and forth
while it asks its state over and over: the server's tick rate, the bridge's round trip (a state
snapshot) under that load, the walks done and the Node memory; with every bot in one bridge
process (one Python process, a thread per bot) or a bridge process per bot (a Python process per
bot, as the eval's workers run). Figures, never assertions: docs/performance.md keeps them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from typing import Literal

import numpy as np
import psutil
from pydantic import BaseModel, Field

from agent.bench.stats import Figure, from_samples
from agent.bench.world_bench import SPAWN_TIMEOUT_S, wait_standing
from agent.bridge import BotConnection, connect, runtime
from agent.server import LocalServer, ServerSettings, load_scenario

Bridges = Literal["shared", "per-bot"]
FIELD = "flat"
# Blocks east and west of the spawn each bot walks between (world x).
WALK_BLOCKS = 6
# Seconds a walk may take to end.
WALK_TIMEOUT_S = 20.0
# The pause between two state calls of one bot: a planner asks about this often, not flat out.
POLL_S = 0.05
# flying-squid moves the day's clock 20 ticks at a time, once per 20 ticks: a window's tick rate is
# good to 20 ticks over its length.
TICKS_PER_DAY = 24000


class Drive(BaseModel):
    """What one bot measured over the window."""

    round_trips_ms: list[float]
    walks: int = Field(description="walks to the other side that ended within the window")
    ticks_per_s: float = Field(description="the server's, from the day's clock over the window")
    node_rss_mb: float = Field(description="the bridge process's resident memory at the end")


class BotsRow(BaseModel):
    bots: int
    bridges: Bridges
    ticks_per_s: float
    round_trip: Figure
    walks_per_bot_min: float = Field(description="walks a bot ended per minute, over every bot")
    node_rss_mb: float = Field(description="every bridge process's resident memory, summed")


def row(bots: int, bridges: Bridges, seconds: float) -> BotsRow:
    """One server, `bots` bots on it, the window `seconds` long."""
    with LocalServer(ServerSettings(), scenario=load_scenario(FIELD)) as info:
        drives = _shared(info.port, bots, seconds) if bridges == "shared" else _per_bot(info.port, bots, seconds)
    samples = np.array([ms for d in drives for ms in d.round_trips_ms])
    rss = [d.node_rss_mb for d in drives]  # shared: one process, read by every bot
    return BotsRow(bots=bots, bridges=bridges, ticks_per_s=round(drives[0].ticks_per_s, 1),
                   round_trip=from_samples("state snapshot", samples),
                   walks_per_bot_min=round(sum(d.walks for d in drives) / bots / seconds * 60, 1),
                   node_rss_mb=round(max(rss) if bridges == "shared" else sum(rss), 1))


def _shared(port: int, bots: int, seconds: float) -> list[Drive]:
    with ExitStack() as stack:
        joined = [stack.enter_context(connect(port=port, username=f"bench{i}")) for i in range(bots)]
        drives: list[Drive | None] = [None] * bots
        threads = [threading.Thread(target=lambda i=i: drives.__setitem__(i, drive(joined[i], seconds)))
                   for i in range(bots)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return [d for d in drives if d is not None]


def _per_bot(port: int, bots: int, seconds: float) -> list[Drive]:
    procs = [subprocess.Popen([sys.executable, "-m", "agent.bench.bots_bench", str(port), f"bench{i}", str(seconds)],
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True) for i in range(bots)]
    outs = [p.communicate(timeout=seconds + 2 * SPAWN_TIMEOUT_S + WALK_TIMEOUT_S)[0] for p in procs]
    return [Drive.model_validate_json(out.strip().splitlines()[-1]) for out in outs]


def drive(bot: BotConnection, seconds: float) -> Drive:
    """Walks `bot` back and forth on one thread while timing its state calls on this one."""
    wait_standing(bot, time.perf_counter() + SPAWN_TIMEOUT_S, f"{SPAWN_TIMEOUT_S:g} s after it joined")
    home = bot.state().position
    stop, walks = threading.Event(), [0]
    walker = threading.Thread(target=_walk, args=(bot, home.x, home.y, home.z, stop, walks))
    start, day0 = time.monotonic(), bot.state().time_of_day
    walker.start()
    samples = []
    while time.monotonic() - start < seconds:
        t = time.perf_counter()
        bot.state()
        samples.append((time.perf_counter() - t) * 1000)
        time.sleep(POLL_S)
    ticks = (bot.state().time_of_day - day0) % TICKS_PER_DAY
    elapsed = time.monotonic() - start
    stop.set()
    walker.join()
    return Drive(round_trips_ms=samples, walks=walks[0], ticks_per_s=ticks / elapsed, node_rss_mb=_node_rss_mb())


def _walk(bot: BotConnection, x: float, y: float, z: float, stop: threading.Event, walks: list[int]) -> None:
    side = 1
    while not stop.is_set():
        reply = bot.call("goto", {"x": x + side * WALK_BLOCKS, "y": y, "z": z, "range": 0, "timeout_s": WALK_TIMEOUT_S,
                                  "allow_dig": False, "allow_build": False, "max_drop": 3}, timeout_s=WALK_TIMEOUT_S + 5)
        walks[0] += bool(reply.get("reached")) and not stop.is_set()
        side = -side


def _node_rss_mb() -> float:
    pid = runtime.node_pid()
    return psutil.Process(pid).memory_info().rss / 2**20 if pid else 0.0


def table(found: list[BotsRow]) -> str:
    lines = ["| bots | bridges | ticks/s | state p50 ms | state p95 ms | walks/bot/min | Node RSS MB |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r.bots} | {r.bridges} | {r.ticks_per_s:.1f} | {r.round_trip.p50_ms:.1f} | {r.round_trip.p95_ms:.1f} "
              f"| {r.walks_per_bot_min:.1f} | {r.node_rss_mb:.0f} |" for r in found]
    return "\n".join(lines)


if __name__ == "__main__":  # one bot of a per-bot run: PORT USERNAME SECONDS; prints its Drive as JSON
    port, username, window = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    with connect(port=port, username=username) as joined:
        print(json.dumps(drive(joined, window).model_dump()))
