"""Benchmarks: each prints figures (p50, p95) that the README's performance table quotes."""
