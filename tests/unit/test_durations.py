"""tests/durations.json, which orders the slowest test files first, names files that exist."""

from pathlib import Path

from support.durations import DURATIONS, file_seconds


def test_every_listed_file_exists_and_the_list_is_longest_first() -> None:
    seconds = file_seconds()
    root = DURATIONS.parent.parent
    assert seconds, "tests/durations.json is missing or empty"
    assert [path for path in seconds if not (root / path).is_file()] == []
    assert list(seconds.values()) == sorted(seconds.values(), reverse=True)
