"""Marks every test under tests/integration/ as `integration`, and puts the slowest files first
(tests/durations.json, see support/durations.py) so that no worker is left with a long file at the end."""

import os

import pytest

from support.durations import file_seconds

# llama.cpp's OpenMP threads spin while they wait for each other, and the workers share the 2
# cores: two model tests at once spun each other 14 times slower (test_llamacpp_bounds twice at
# once: 345 s each; 24 s with passive waits; a `make test` whose file order ran them together
# took 15m52s, 11m35s before). Set before llama_cpp loads libgomp, which reads it once; the
# llama-servers the tests start inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "integration" in item.path.parts:
            item.add_marker(pytest.mark.integration)
    seconds = file_seconds()
    # A stable sort: a file's tests stay together and in order, unlisted files as collected.
    items.sort(key=lambda item: -seconds.get(item.nodeid.split("::")[0], 0))
