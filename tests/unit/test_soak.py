"""The soak's verdict rule and its sampling, with made-up samples and this very process."""

from __future__ import annotations

import os

from agent.soak import Sample, judge
from agent.soak.sampling import ProcessSample, sample_process


def _sample(t_s: float, python_mb: float, node_mb: float = 100.0, observations: int = 0) -> Sample:
    processes = [ProcessSample(role="python", pid=1, rss_mb=python_mb, open_files=9, threads=7, children=2),
                 ProcessSample(role="bridge", pid=2, rss_mb=node_mb, open_files=19, threads=11, children=0)]
    return Sample(t_s=t_s, episodes=int(t_s), observations=observations, processes=processes)


def test_growth_during_the_warm_up_does_not_count() -> None:
    samples = [_sample(0, 60), _sample(50, 80), _sample(120, 85, observations=100), _sample(300, 88, observations=500)]
    verdict = judge(samples, duration_s=300)
    assert verdict.passed, verdict.reason
    assert verdict.kb_per_observation == (88 - 85) * 1024 / 400


def test_growth_past_the_tolerance_after_the_warm_up_fails_naming_the_process() -> None:
    samples = [_sample(0, 80), _sample(60, 80), _sample(120, 80, node_mb=100), _sample(300, 81, node_mb=115)]
    verdict = judge(samples, duration_s=300)
    assert not verdict.passed
    assert verdict.reason.startswith("bridge RSS grew 15% after the warm-up (100 → 115 MiB)")


def test_too_few_samples_cannot_pass() -> None:
    assert not judge([_sample(0, 80), _sample(10, 80)], duration_s=10).passed


def test_this_process_is_sampled_from_proc() -> None:
    me = sample_process("python", os.getpid())
    assert me is not None and me.rss_mb > 10 and me.threads >= 1 and me.open_files >= 3
    assert sample_process("gone", 2**22 + 12345) is None
