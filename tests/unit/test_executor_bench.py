"""`mcagent bench executor`: figures in microseconds, no Minecraft server needed."""

from __future__ import annotations

from agent.bench import executor_bench
from agent.bench.stats import Figure, table
from agent.cli import main


def test_bench_measures_dispatch_of_a_noop_python_tool():
    figures = executor_bench.run(calls=20)
    assert [f.name for f in figures][:2] == ["tool() called directly (floor)", "execute_action: no-op python tool"]
    assert all(f.n == 20 and 0 < f.p50_ms <= f.p95_ms for f in figures)


def test_cli_prints_microseconds(capsys):
    assert main(["bench", "executor", "--calls", "20"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert "p50 us" in header and "p95 us" in header and len(rows) == 4


def test_tables_still_default_to_milliseconds():
    figure = Figure(name="op", n=1, p50_ms=1.5, p95_ms=2.0, mean_ms=1.6)
    assert table([figure]).splitlines() == [
        "operation     p50 ms     p95 ms      n",
        "op             1.500      2.000      1",
    ]
    assert "1500.0" in table([figure], unit="us")
