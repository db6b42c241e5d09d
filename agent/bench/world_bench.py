"""`mcagent bench world`: what a world costs. Chunk generation per generator, timed in Node as
flying-squid calls it (bridge/chunk-bench.js), and the time from a local server's start to a
bot standing in its world, for flying-squid's superflat and our natural generator side by side."""

from __future__ import annotations

import json
import subprocess
import time

import numpy as np

from agent.bench.stats import Figure, from_samples
from agent.bridge import BotConnection, connect
from agent.mc.version import DEFAULT_VERSION
from agent.node import node_binary, node_environment
from agent.paths import BRIDGE_DIR
from agent.server import LocalServer, ServerSettings

GENERATORS = ["superflat", "natural"]
CHUNK_BENCH = BRIDGE_DIR / "chunk-bench.js"
# Seconds a bot may take to stand on the ground once joined.
SPAWN_TIMEOUT_S = 30.0


def chunk_figures(*, chunks: int, seed: int, version: str = DEFAULT_VERSION) -> list[Figure]:
    """Milliseconds per chunk for each generator, `chunks` chunks around (0, 0)."""
    options = {"version": version, "seed": seed, "chunks": chunks, "generators": GENERATORS}
    done = subprocess.run([node_binary(), str(CHUNK_BENCH), json.dumps(options)], capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL, env=node_environment(), check=True)
    timings = json.loads(done.stdout)
    return [from_samples(f"one chunk, {name}", np.array(timings[name])) for name in GENERATORS]


def ready_figures(*, runs: int, seed: int) -> list[Figure]:
    """Seconds (as ms) from a local server's start to a bot on the ground, `runs` times each."""
    figures = []
    for name in GENERATORS:
        samples = np.array([_to_standing(ServerSettings(generator=name, seed=seed)) for _ in range(runs)])
        figures.append(from_samples(f"server start to a bot standing, {name}", samples * 1000))
    return figures


def _to_standing(settings: ServerSettings) -> float:
    start = time.perf_counter()
    with LocalServer(settings) as info, connect(port=info.port, username="bencher") as bot:
        wait_standing(bot, start + SPAWN_TIMEOUT_S, f"{SPAWN_TIMEOUT_S:g} s after the {settings.generator} server started")
        return time.perf_counter() - start


def wait_standing(bot: BotConnection, deadline: float, when: str) -> None:
    """Polls until `bot` stands on the ground; TimeoutError past `deadline` (time.perf_counter)."""
    while not bot.state().on_ground:
        if time.perf_counter() > deadline:
            raise TimeoutError(f"the bot was not standing {when}")
        time.sleep(0.05)
