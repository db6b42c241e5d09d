"""Marks every test under tests/integration/ as `integration`, and puts the slowest files first
(tests/durations.json, see support/durations.py) so that no worker is left with a long file at the end."""

import pytest

from support.durations import file_seconds


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "integration" in item.path.parts:
            item.add_marker(pytest.mark.integration)
    seconds = file_seconds()
    # A stable sort: a file's tests stay together and in order, unlisted files as collected.
    items.sort(key=lambda item: -seconds.get(item.nodeid.split("::")[0], 0))
