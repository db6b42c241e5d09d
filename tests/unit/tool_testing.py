"""Shared helpers for the tool and infospace tests: fixture folders and a ready executor."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.infospace import Infospace
from agent.tools import Executor, Toolbox, ToolSource, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURE_TOOLS = FIXTURES / "tools"
MIXED_TOOLS = FIXTURES / "mixed"


def fixture_toolbox(*extra: Path) -> Toolbox:
    """The core primitives plus tests/fixtures/tools and any `extra` folders, as skills."""
    sources = [ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True)]
    sources += [ToolSource(label="skills", folder=folder, required=True) for folder in (FIXTURE_TOOLS, *extra)]
    return load_toolbox(sources)


def make_executor(path: Path | str = ":memory:", **options) -> Executor:
    return Executor(fixture_toolbox(), Infospace.open(path), **options)


def run(executor: Executor, tool: str, /, **args) -> dict:
    """execute_action({"type": tool, **args}) as the seed's uniform dict."""
    return executor.execute_action({"type": tool, **args}).as_dict()


@pytest.fixture
def ex():
    """An executor over the fixture tools and an in-memory infospace (import it to use it)."""
    executor = make_executor()
    yield executor
    executor.infospace.close()
