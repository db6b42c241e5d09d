"""What a soak watches: each process's resident memory, open files, threads and children, read
from /proc (Linux), and the verdict over a soak's samples."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from agent.process_group import children_by_parent

# The share of the soak treated as warm-up (imports, caches, the first chunks): memory is
# compared from the first sample after it.
WARMUP_FRACTION = 0.2
# How much a process's RSS may grow from the end of the warm-up to the last sample.
RSS_TOLERANCE = 0.10
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ProcessSample(_Model):
    role: str = Field(description="python, bridge (Node, the bot) or server (Node, flying-squid)")
    pid: int
    rss_mb: float = Field(description="resident memory, MiB")
    open_files: int = Field(description="entries in /proc/PID/fd")
    threads: int
    children: int = Field(description="direct child processes")


class Sample(_Model):
    t_s: float = Field(description="seconds since the soak started")
    episodes: int
    observations: int = Field(description="world-tool calls so far")
    processes: list[ProcessSample]


class Growth(_Model):
    role: str
    from_mb: float
    to_mb: float

    @property
    def ratio(self) -> float:
        return (self.to_mb - self.from_mb) / self.from_mb if self.from_mb else 0.0


class SoakVerdict(_Model):
    passed: bool
    reason: str
    growth: list[Growth]
    kb_per_observation: float | None = Field(description="Python RSS growth after warm-up per observation made")


def sample_process(role: str, pid: int) -> ProcessSample | None:
    """One process's figures; None when it is gone."""
    proc = Path(f"/proc/{pid}")
    try:
        fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        open_files = len(os.listdir(proc / "fd"))
    except (FileNotFoundError, ProcessLookupError):
        return None
    # After the name: state(0) ppid(1) ... num_threads(17) ... rss(21), in pages.
    rss_mb = int(fields[21]) * _PAGE_KB / 1024
    return ProcessSample(role=role, pid=pid, rss_mb=round(rss_mb, 1), open_files=open_files, threads=int(fields[17]),
                         children=len(children_by_parent().get(pid, [])))


def judge(samples: list[Sample], duration_s: float) -> SoakVerdict:
    """RSS of every process flat within RSS_TOLERANCE from the first sample after the warm-up
    (WARMUP_FRACTION of the soak, and never the first sample) to the last one."""
    after = [s for s in samples[1:] if s.t_s >= WARMUP_FRACTION * duration_s]
    if len(after) < 2:
        return SoakVerdict(passed=False, reason="too few samples after the warm-up to judge (run it longer)",
                           growth=[], kb_per_observation=None)
    first, last = after[0], after[-1]
    growth = [Growth(role=p.role, from_mb=p.rss_mb, to_mb=q.rss_mb)
              for p in first.processes for q in last.processes if q.role == p.role]
    grown = [g for g in growth if g.ratio > RSS_TOLERANCE]
    observations = last.observations - first.observations
    python = next((g for g in growth if g.role == "python"), None)
    per = (python.to_mb - python.from_mb) * 1024 / observations if python and observations else None
    if grown:
        worst = max(grown, key=lambda g: g.ratio)
        reason = (f"{worst.role} RSS grew {worst.ratio:.0%} after the warm-up ({worst.from_mb:.0f} → "
                  f"{worst.to_mb:.0f} MiB), more than {RSS_TOLERANCE:.0%}")
        return SoakVerdict(passed=False, reason=reason, growth=growth, kb_per_observation=per)
    shown = ", ".join(f"{g.role} {g.ratio:+.1%}" for g in growth)
    return SoakVerdict(passed=True, reason=f"RSS flat within {RSS_TOLERANCE:.0%} after the warm-up ({shown})",
                       growth=growth, kb_per_observation=per)
