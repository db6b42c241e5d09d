"""A package installed with pip adds a decorated tool through the `mcagent.tools` entry point:
`mcagent tools` lists it with its origin, and a scripted plan on the real server calls it,
its nested mc-status call and all. The package is the README's example (docs/examples)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent.paths import REPO_ROOT
from agent.trace import read_trace
from agent.trace.schema import ToolResult
from support.planning import FIXTURES, run_config
from support.procs import env_with_token, new_token, transcript, wait_until_gone
from support.wheels import build_wheel

EXAMPLE = REPO_ROOT / "docs" / "examples" / "mcagent-extra-tools"
WAY_TO_POLICY = FIXTURES / "planner" / "way_to_policy.py"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The example package, installed from its wheel by pip into a folder of its own."""
    where = tmp_path_factory.mktemp("package")
    wheel = build_wheel(EXAMPLE, where)
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                    "--target", str(where / "site"), str(wheel)], check=True, capture_output=True)
    return where / "site"


def _mcagent(site: Path, token: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**env_with_token(token), "PYTHONPATH": str(site)}  # the package is importable, as installed
    return subprocess.run([sys.executable, "-m", "agent.cli", *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)


def test_the_installed_tool_is_listed_with_where_it_came_from(site: Path, tmp_path: Path) -> None:
    listed = _mcagent(site, new_token(), "tools", "--json", "--config", str(run_config(tmp_path)))
    assert listed.returncode == 0, transcript(listed)
    tools = {tool["name"]: tool for tool in json.loads(listed.stdout)["tools"]}
    way = tools["way-to"]
    assert (way["type"], way["source"], way["origin"]) == ("python", "mcagent-extra-tools",
                                                           "mcagent_extra_tools.tools:way_to")
    assert [s["name"] for s in way["slots"]] == ["x", "z", "unit"] and way["outputs"][1]["name"] == "facing"
    text = _mcagent(site, new_token(), "tools", "--config", str(run_config(tmp_path)))
    assert "#MCAGENT-EXTRA-TOOLS" in text.stdout and "mcagent_extra_tools.tools:way_to" in text.stdout


def test_a_scripted_plan_calls_the_installed_tool_in_the_world(site: Path, tmp_path: Path) -> None:
    trace, token = tmp_path / "run" / "trace.jsonl", new_token()
    ran = _mcagent(site, token, "run", "--config", str(run_config(tmp_path)), "--scenario", "flat", "--port", "0",
                   "--llm", f"scripted:{WAY_TO_POLICY}", "--max-steps", "1", "--trace", str(trace))
    assert wait_until_gone(token, timeout_s=5) == []
    results = [e for e in read_trace(trace).events if isinstance(e, ToolResult) and e.outer_step == 1]
    assert [(r.tool, r.depth) for r in results] == [("mc-status", 1), ("way-to", 0)], transcript(ran)
    way = results[-1].result
    assert way["status"] == "success" and way["data"] == {"distance": 10.0, "facing": "east"}
