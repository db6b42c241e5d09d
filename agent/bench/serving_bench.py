"""`mcagent bench serving`: one model server, many agents. An eval suite is run once per engine
and number of workers, every episode of a run sharing one model server on this machine:
llama-server with as many slots as workers (each worker keeps its slot: eval lanes), or
llama-cpp-python's server (one prompt's cache, one request at a time). Each run's throughput is
the eval's own (episodes per hour over the driver's wall time, first start to last end)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from agent.eval.episode import core_share, episode_specs
from agent.eval.records import EpisodeRecord
from agent.eval.runner import run_all
from agent.eval.suite import Suite, Task
from agent.eval.throughput import Throughput, throughput
from agent.serving.model_server import Engine, LocalLlamaServer
from agent.paths import SERVER_CONFIG_DIR

# The suite the README's throughput table is measured on.
SUITE = SERVER_CONFIG_DIR / "eval" / "explore.yaml"


class ServingRow(BaseModel):
    """One run: the engine, its slots, the workers sharing it, and what they got through."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    engine: Engine
    slots: int
    rate: Throughput
    successes: int
    errors: int = Field(description="episodes that could not run (timed out, crashed)")
    speedup: float = Field(description="episodes per hour over this engine's one-worker run's")


def measure(suite: Suite, tasks: list[Task], engines: list[Engine], workers: list[int], *, seeds: int, out: Path,
            threads: int | None, timeout_s: float, config: Path | None,
            on_row: Callable[[ServingRow], None]) -> list[ServingRow]:
    """Every engine with every worker count, in order, each run on a server of its own."""
    rows: list[ServingRow] = []
    for engine in engines:
        alone: float | None = None
        for count in workers:
            records, rate = _run(suite, tasks, engine, count, seeds=seeds, out=out / f"{engine}-{count}w",
                                 threads=threads, timeout_s=timeout_s, config=config)
            alone = alone or (rate.episodes_per_hour if count == 1 else None)
            row = ServingRow(engine=engine, slots=count if engine == "llama-server" else 1, rate=rate,
                             successes=sum(r.success for r in records),
                             errors=sum(r.outcome == "error" for r in records),
                             speedup=round(rate.episodes_per_hour / alone, 2) if alone else 0.0)
            on_row(row)
            rows.append(row)
    return rows


def _run(suite: Suite, tasks: list[Task], engine: Engine, workers: int, *, seeds: int, out: Path,
         threads: int | None, timeout_s: float, config: Path | None) -> tuple[list[EpisodeRecord], Throughput]:
    parallel = workers if engine == "llama-server" else 1
    with LocalLlamaServer(engine=engine, parallel=parallel, threads=threads) as server:
        specs = episode_specs(suite, tasks, [server.spec()], seeds, out, config, threads=core_share(workers))
        started = time.monotonic()
        records = run_all(specs, out, workers, timeout_s, lambda record, done: None)
        return records, throughput(records, time.monotonic() - started, workers)


HEAD = ("engine", "slots", "workers", "elapsed", "episodes/hour", "vs 1 worker", "LLM tokens/s (generated/s)",
        "median episode", "success")


def table_rows(rows: list[ServingRow]) -> list[tuple[str, ...]]:
    return [(row.engine, str(row.slots), str(row.rate.workers), f"{row.rate.elapsed_s:.0f} s",
             f"{row.rate.episodes_per_hour:.0f}", f"{row.speedup:.2f}x",
             f"{row.rate.tokens_per_s:.0f} ({row.rate.tokens_out_per_s:.1f})",
             f"{row.rate.median_episode_s:.1f} s" if row.rate.median_episode_s is not None else "-",
             f"{row.successes}/{row.rate.episodes}" + (f", {row.errors} errors" if row.errors else ""))
            for row in rows]
