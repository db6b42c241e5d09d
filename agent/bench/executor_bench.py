"""`mcagent bench executor`: what execute_action itself costs, without a Minecraft server.

The no-op python tool is written to a temporary folder and loaded like any tool, so the
figure covers lookup, argument checking, dispatch, result handling and the action record.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from agent.bench.stats import Figure, measure
from agent.infospace import Infospace
from agent.tools import Executor, ToolSource, load_toolbox
from agent.tools.frontmatter import CORE_SOURCE
from agent.tools.loader import CORE_TOOLS_DIR, SKILLS_SOURCE
from agent.tools.runners import import_entry

NOOP_SKILL = """---
name: noop
type: python
description: "Does nothing: measures the executor's own overhead"
---
"""
NOOP_CODE = "def tool(input_value=None, **kwargs):\n    return None\n"
# Enough untimed calls to import the tool and warm SQLite's caches before timing.
WARMUP = 200


def run(*, calls: int) -> list[Figure]:
    """The direct call of the tool function (the floor), then execute_action on three tools."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "noop"
        folder.mkdir()
        (folder / "Skill.md").write_text(NOOP_SKILL, encoding="utf-8")
        (folder / "tool.py").write_text(NOOP_CODE, encoding="utf-8")
        sources = [
            ToolSource(label=CORE_SOURCE, folder=CORE_TOOLS_DIR),
            ToolSource(label=SKILLS_SOURCE, folder=Path(tmp)),
        ]
        infospace = Infospace.open(":memory:")
        executor = Executor(load_toolbox(sources), infospace)
        noop = import_entry("noop", folder / "tool.py")
        run_action = executor.execute_action
        cases = [
            ("tool() called directly (floor)", lambda: noop(executor=executor)),
            ("execute_action: no-op python tool", lambda: run_action({"type": "noop"})),
            ("execute_action: think (primitive)", lambda: run_action({"type": "think", "thought": "t"})),
            ("execute_action: create-note (SQLite)", lambda: run_action({"type": "create-note", "content": "n"})),
        ]
        try:
            return [measure(name, fn, calls=calls, warmup=WARMUP) for name, fn in cases]
        finally:
            infospace.close()
