"""`mcagent bench tools` measures mc-map's own cost on a map of at least 10,000 known cells."""

from __future__ import annotations

from agent.bench.tools_bench import map_figure, plain_with_pillars
from agent.world.spatial import SpatialMemory


def test_the_benchmarks_map_is_as_big_as_the_issue_says_and_has_frontiers_to_find():
    memory = SpatialMemory.open(None)
    memory.record(plain_with_pillars(16))
    assert memory.known_cells() >= 10_000
    assert memory.frontiers((0, 0, 0), radius=16) and (1, 0, 0) in memory.reachable((0, 0, 0))
    figure = map_figure(calls=5)
    assert figure.n == 5 and f"{memory.known_cells():,} known cells" in figure.name
