"""The rooms of agent/ (its top-level packages and modules) stand in layers, written once in
LAYERS: a module imports only its own room, rooms on its layer and rooms below, and no two rooms
import each other. Two packages sit at the very bottom, so that every layer above can import them
without a loop: agent.trace imports only agent.errors and itself; agent.protocol, the language of
method protocols, only itself (agent.tools reads Skill.md bodies with it, the planner runs them)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from agent.paths import REPO_ROOT

ROOT = REPO_ROOT
AGENT_DIR = REPO_ROOT / "agent"

# Bottom to top. A room is a package or a module directly under agent/; a new one goes in here.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths", "process_group"),     # what every layer shares
    ("config", "trace", "node", "infospace", "protocol"),  # settings, the trace, Node, the notes, method protocols
    ("mc",),                                   # the game's words: Vec3, frames, names, game data
    ("bridge", "llm", "serving", "versions"),  # the body's wire, the model's, model servers, what doctor reports
    ("checks", "chat", "world_view", "diagnostics"),  # what holds in the world; chat; views; backend checks
    ("tools", "server", "goals", "blueprint"),  # the tool catalogue, the local server, reading a goal, blueprints
    ("world", "planner"),                      # support for world tools; the planner
    ("session", "replay"),                     # a run; reading one back
    ("eval", "soak"),                          # many runs
    ("bench",),                                # figures
    ("cli",),                                  # the commands
)
LAYER = {room: level for level, rooms in enumerate(LAYERS) for room in rooms}


# Each bottom package, and the agent modules it may import besides its own.
BOTTOM = {"agent.trace": ("agent.errors",), "agent.protocol": ()}


def allowed(package: str, module: str) -> bool:
    return module == package or module.startswith(f"{package}.") or module in BOTTOM[package]


def agent_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every absolute import of an agent module in the file; `from agent
    import x` counts as agent.x. Relative imports stay inside their own package by construction."""
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


def room_of(path: Path) -> str:
    return path.relative_to(AGENT_DIR).parts[0].removesuffix(".py")


def rooms_on_disk() -> set[str]:
    return {room_of(p) for p in AGENT_DIR.iterdir()
            if (p.is_dir() and (p / "__init__.py").is_file()) or (p.suffix == ".py" and p.name != "__init__.py")}


def arrows() -> list[tuple[str, str, str]]:
    """(file:line, from room, to room) for every import of one room by another."""
    found = []
    for path in sorted(AGENT_DIR.rglob("*.py")):
        if path.parent == AGENT_DIR and path.name == "__init__.py":
            continue
        source = room_of(path)
        for line, module in agent_imports(path):
            target = module.split(".")[1] if "." in module else None
            if target is not None and target != source:
                found.append((f"{path.relative_to(ROOT)}:{line}", source, target))
    return found


def test_every_room_of_agent_is_in_the_table():
    table = f"the table LAYERS in {Path(__file__).relative_to(ROOT)}"
    missing = sorted(rooms_on_disk() - LAYER.keys())
    gone = sorted(LAYER.keys() - rooms_on_disk())
    assert not missing, f"agent/{', agent/'.join(missing)} in no layer: add it to {table}"
    assert not gone, f"{', '.join(gone)} no longer under agent/: take it out of {table}"


def test_no_module_imports_a_room_above_its_own():
    found = arrows()
    assert len(found) > 300  # the imports were read
    upward = [f"{where}: {source} -> {target} (layer {LAYER[source]} imports layer {LAYER[target]})"
              for where, source, target in found
              if source in LAYER and target in LAYER and LAYER[target] > LAYER[source]]
    assert not upward, "imports that run up the layers (LAYERS, bottom to top):\n" + "\n".join(upward)


def test_no_two_rooms_import_each_other():
    first: dict[tuple[str, str], str] = {}
    for where, source, target in arrows():
        first.setdefault((source, target), where)
    both = [f"{a} <-> {b}: {first[a, b]} ({a} -> {b}) and {first[b, a]} ({b} -> {a})"
            for a, b in sorted(first) if a < b and (b, a) in first]
    assert not both, "rooms that import each other:\n" + "\n".join(both)


@pytest.mark.parametrize("package", BOTTOM)
def test_bottom_modules_import_nothing_above_them(package: str):
    folder = ROOT.joinpath(*package.split("."))
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(folder.rglob("*.py"))
        for line, module in agent_imports(path)
        if not allowed(package, module)
    ]
    assert not offending, f"{package} imports modules above it:\n" + "\n".join(offending)


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`: in this one, other tests have
    imported the whole agent package already."""
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(sorted(sys.modules))"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(ast.literal_eval(out.splitlines()[-1]))


@pytest.mark.parametrize("package", BOTTOM)
def test_importing_a_bottom_package_loads_no_agent_module_above_it(package: str):
    modules = _loaded_after(f"import {package}")
    above = sorted(m for m in modules if m.startswith("agent.") and not allowed(package, m))
    assert not above, f"import {package} loaded modules above it: {', '.join(above)}"


def test_the_cli_loads_no_llama_cpp_until_a_command_needs_it():
    # llama-cpp-python is an optional extra, and slow to import: `mcagent --help`, which builds
    # every command's parser, must not need it.
    assert "llama_cpp" not in _loaded_after("from agent.cli import build_parser\nbuild_parser()")


@pytest.mark.parametrize("command", ["server", "connect", "call", "replay", "report", "config", "doctor"])
def test_a_command_that_plans_nothing_loads_no_planner(command: str):
    # `mcagent COMMAND` imports only its command: the planner's SGLang alone costs some 0.5 CPU-s.
    started = (f"import contextlib, io\nfrom agent.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
               f"    try:\n        main([{command!r}, '--help'])\n    except SystemExit:\n        pass")
    loaded = sorted({"sglang", "agent.planner", "agent.bench"} & _loaded_after(started))
    assert loaded == [], f"mcagent {command} loads {loaded}"
