"""agent.trace sits at the bottom of the import graph: its modules import only the standard
library, third-party packages, agent.errors and agent.trace itself, so that every layer above
(llm, planner, bridge, chat, tools, world, cli, replay, eval, bench) can import it without a loop."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import agent.trace

TRACE_DIR = Path(agent.trace.__file__).parent
ROOT = TRACE_DIR.parent.parent


def allowed(module: str) -> bool:
    return module == "agent.errors" or module == "agent.trace" or module.startswith("agent.trace.")


def agent_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every absolute import of an agent module in the file; `from agent
    import x` counts as agent.x. Relative imports stay inside agent.trace by construction."""
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


def test_trace_modules_import_nothing_above_them():
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(TRACE_DIR.rglob("*.py"))
        for line, module in agent_imports(path)
        if not allowed(module)
    ]
    assert not offending, "agent.trace may import only agent.errors and agent.trace.*:\n" + "\n".join(offending)


def test_importing_the_trace_loads_no_agent_module_above_it():
    # A fresh interpreter: in this one, other tests have imported the whole agent package already.
    loaded = subprocess.run(
        [sys.executable, "-c", "import agent.trace, sys; print(sorted(m for m in sys.modules if m.startswith('agent')))"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    modules = ast.literal_eval(loaded)
    above = [m for m in modules if m.startswith("agent.") and not allowed(m)]
    assert not above, f"import agent.trace loaded modules above it: {', '.join(above)}"


def test_the_cli_loads_no_llama_cpp_until_a_command_needs_it():
    # llama-cpp-python is an optional extra, and slow to import: `mcagent --help` must not need it.
    loaded = subprocess.run(
        [sys.executable, "-c", "import agent.cli, sys; print('llama_cpp' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert loaded == "False"
