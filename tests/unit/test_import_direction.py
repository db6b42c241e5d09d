"""Two packages sit at the bottom of the import graph, so that every layer above can import them
without a loop: agent.trace imports only the standard library, third-party packages,
agent.errors and agent.trace itself (llm, planner, bridge, chat, tools, world, cli, replay, eval
and bench import it); agent.protocol, the language of method protocols, imports only itself
(agent.tools reads Skill.md bodies with it, the planner runs what it parsed)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from agent.paths import REPO_ROOT

# Each bottom package, and the agent modules it may import besides its own.
BOTTOM = {"agent.trace": ("agent.errors",), "agent.protocol": ()}


def allowed(package: str, module: str) -> bool:
    return module == package or module.startswith(f"{package}.") or module in BOTTOM[package]


def agent_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every absolute import of an agent module in the file; `from agent
    import x` counts as agent.x. Relative imports stay inside their package by construction."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == "agent":
                found += [(node.lineno, f"agent.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return [(line, module) for line, module in found if module == "agent" or module.startswith("agent.")]


@pytest.mark.parametrize("package", BOTTOM)
def test_bottom_modules_import_nothing_above_them(package: str):
    folder = REPO_ROOT.joinpath(*package.split("."))
    offending = [
        f"{path.relative_to(REPO_ROOT)}:{line} imports {module}"
        for path in sorted(folder.rglob("*.py"))
        for line, module in agent_imports(path)
        if not allowed(package, module)
    ]
    assert not offending, f"{package} imports modules above it:\n" + "\n".join(offending)


@pytest.mark.parametrize("package", BOTTOM)
def test_importing_a_bottom_package_loads_no_agent_module_above_it(package: str):
    # A fresh interpreter: in this one, other tests have imported the whole agent package already.
    loaded = subprocess.run(
        [sys.executable, "-c", f"import {package}, sys; print(sorted(m for m in sys.modules if m.startswith('agent')))"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout
    modules = ast.literal_eval(loaded)
    above = [m for m in modules if m.startswith("agent.") and not allowed(package, m)]
    assert not above, f"import {package} loaded modules above it: {', '.join(above)}"


def test_the_cli_loads_no_llama_cpp_until_a_command_needs_it():
    # llama-cpp-python is an optional extra, and slow to import: `mcagent --help` must not need it.
    loaded = subprocess.run(
        [sys.executable, "-c", "import agent.cli, sys; print('llama_cpp' in sys.modules)"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert loaded == "False"
