"""Soaks: long runs in one process, sampled for leaks (`mcagent soak`)."""

from agent.soak.loop import SoakReport, soak
from agent.soak.sampling import Sample, SoakVerdict, judge

__all__ = ["Sample", "SoakReport", "SoakVerdict", "judge", "soak"]
