"""Lanes: the episodes in flight hold distinct numbers below the workers' count, the lowest free first."""

from __future__ import annotations

import threading

import pytest

from agent.eval.lanes import Lanes


def test_the_lowest_free_lane_is_taken_and_a_lane_given_back_is_taken_again():
    lanes = Lanes(3)
    assert [lanes.take(), lanes.take()] == [0, 1]
    lanes.give_back(0)
    assert [lanes.take(), lanes.take()] == [0, 2]
    with pytest.raises(RuntimeError, match="more episodes in flight than workers"):
        lanes.take()


def test_threads_in_flight_at_once_never_share_a_lane():
    lanes, held, clashes = Lanes(4), set(), []
    lock = threading.Lock()

    def episode() -> None:
        for _ in range(200):
            with lanes.held() as lane:
                with lock:
                    clashes.extend([lane] if lane in held else [])
                    held.add(lane)
                with lock:
                    held.discard(lane)

    threads = [threading.Thread(target=episode) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert clashes == [] and lanes.take() == 0
