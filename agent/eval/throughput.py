"""How much an eval got through: episodes per hour and LLM tokens per second over the whole
run, so that a user can size workers against one model server."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from pydantic import BaseModel, ConfigDict, Field

from agent.eval.records import EpisodeRecord

THROUGHPUT_FILE = "throughput.json"


class Throughput(BaseModel):
    """An eval's rate of work: `elapsed_s` is the driver's wall time, first start to last end."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    episodes: int = Field(ge=0)
    workers: int = Field(ge=1, description="episodes run at once")
    elapsed_s: float = Field(gt=0)
    episodes_per_hour: float
    tokens_in: int = Field(ge=0, description="prompt tokens over every episode")
    tokens_out: int = Field(ge=0, description="generated tokens over every episode")
    tokens_per_s: float = Field(description="(in + out) over elapsed_s")
    tokens_out_per_s: float
    median_episode_s: float | None = Field(description="the median episode's own wall time")

    def text(self) -> str:
        episode = f"{self.median_episode_s:.1f} s" if self.median_episode_s is not None else "-"
        return (f"throughput: {self.episodes} episodes in {self.elapsed_s:.0f} s with {self.workers} "
                f"worker{'s' if self.workers != 1 else ''}: {self.episodes_per_hour:.0f} episodes/hour, "
                f"{self.tokens_per_s:.0f} LLM tokens/s ({self.tokens_out_per_s:.1f} generated/s); "
                f"median episode {episode}")


def throughput(records: Sequence[EpisodeRecord], elapsed_s: float, workers: int) -> Throughput:
    elapsed_s = max(elapsed_s, 1e-6)
    tokens_in = sum(r.tokens_in for r in records)
    tokens_out = sum(r.tokens_out for r in records)
    return Throughput(
        episodes=len(records), workers=workers, elapsed_s=round(elapsed_s, 3),
        episodes_per_hour=round(len(records) * 3600 / elapsed_s, 1), tokens_in=tokens_in, tokens_out=tokens_out,
        tokens_per_s=round((tokens_in + tokens_out) / elapsed_s, 1), tokens_out_per_s=round(tokens_out / elapsed_s, 2),
        median_episode_s=round(median(r.wall_s for r in records), 2) if records else None,
    )
