"""Timing samples and their percentiles."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from pydantic import BaseModel, ConfigDict


class Figure(BaseModel):
    """Latency of one operation over `n` calls, in milliseconds."""

    model_config = ConfigDict(frozen=True)
    name: str
    n: int
    p50_ms: float
    p95_ms: float
    mean_ms: float


def measure(name: str, fn: Callable[[], object], *, calls: int, warmup: int = 5) -> Figure:
    """Calls `fn` `warmup` times untimed, then `calls` times timed one by one."""
    for _ in range(warmup):
        fn()
    samples = np.empty(calls)
    for i in range(calls):
        start = time.perf_counter()
        fn()
        samples[i] = time.perf_counter() - start
    return from_samples(name, samples * 1000)


def from_samples(name: str, ms: np.ndarray) -> Figure:
    """The figure of latencies measured elsewhere, in milliseconds."""
    return Figure(
        name=name,
        n=len(ms),
        p50_ms=float(np.percentile(ms, 50)),
        p95_ms=float(np.percentile(ms, 95)),
        mean_ms=float(ms.mean()),
    )


# Units a table can show, with the factor from milliseconds and the decimals worth printing.
UNITS: dict[str, tuple[float, int]] = {"ms": (1.0, 3), "us": (1000.0, 1)}


def table(figures: list[Figure], unit: str = "ms") -> str:
    """p50 and p95 of each figure in `unit`: ms (bridge round trips) or us (in-process dispatch)."""
    scale, decimals = UNITS[unit]
    width = max(len("operation"), *(len(f.name) for f in figures))
    lines = [f"{'operation':<{width}}  {'p50 ' + unit:>9}  {'p95 ' + unit:>9}  {'n':>5}"]
    lines += [
        f"{f.name:<{width}}  {f.p50_ms * scale:>9.{decimals}f}  {f.p95_ms * scale:>9.{decimals}f}  {f.n:>5}"
        for f in figures
    ]
    return "\n".join(lines)
