"""Finding tools: every subfolder holding a Skill.md, in the core, world and skills folders.

Loading never stops at a bad file: each problem becomes one LoadError and the rest load.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.paths import REPO_ROOT, WORLD_TOOLS_DIR
from agent.tools.frontmatter import CORE_SOURCE, ToolFileError, parse_skill
from agent.tools.schema import check_args
from agent.tools.spec import LoadError, ToolSpec

CORE_TOOLS_DIR = Path(__file__).resolve().parent.parent / "core_tools"
SKILL_FILES = ("Skill.md", "SKILL.md")
SKILLS_SOURCE = "skills"


class ToolSource(BaseModel):
    """A folder of tool folders and the source label its tools carry."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str
    folder: Path
    required: bool = False


class Toolbox(BaseModel):
    """Every tool that loaded, by name, and every problem found on the way."""

    model_config = ConfigDict(extra="forbid")
    tools: dict[str, ToolSpec] = {}
    errors: list[LoadError] = []


def standard_sources(
    world: str, tool_folders: list[Path], base: Path | None = None, extra: list[Path] | None = None
) -> list[ToolSource]:
    """Core first (a user tool can never shadow a primitive), then the world's tools, then skills.

    `tool_folders` (from config) are relative to `base`, the config file's folder, else the
    repository; `extra` (--tools-dir) are relative to the working directory and must exist.
    """
    root = base or REPO_ROOT
    sources = [ToolSource(label=CORE_SOURCE, folder=CORE_TOOLS_DIR, required=True)]
    sources.append(ToolSource(label=world, folder=WORLD_TOOLS_DIR / world))
    sources += [ToolSource(label=SKILLS_SOURCE, folder=root / folder) for folder in tool_folders]
    sources += [ToolSource(label=SKILLS_SOURCE, folder=folder, required=True) for folder in extra or []]
    return _distinct(sources)


def _distinct(sources: list[ToolSource]) -> list[ToolSource]:
    seen: dict[Path, ToolSource] = {}
    for source in sources:
        seen.setdefault(source.folder.resolve(), source)
    return list(seen.values())


def load_toolbox(sources: list[ToolSource]) -> Toolbox:
    box = Toolbox()
    for source in sources:
        if not source.folder.is_dir():
            if source.required:
                box.errors.append(LoadError(path=source.folder, message="tools folder does not exist"))
            continue
        for skill in _skill_files(source.folder):
            _load_one(box, skill, source.label)
    _check_literal_calls(box)
    return box


def _check_literal_calls(box: Toolbox) -> None:
    """A method's literal arguments (`Call mc-map with {"radius": 8}`) are checked against the
    called tool's schema once every tool is loaded: a protocol that would always be refused is
    a load error. A method whose call is wrong is left out, as a broken Skill.md is."""
    for spec in list(box.tools.values()):
        for step in spec.protocol.steps if spec.protocol is not None else []:
            for call in step.calls:
                called = box.tools.get(call.tool)
                problem = check_args(called.schema_hint, call.args) if called and call.args is not None else None
                if problem:
                    box.errors.append(LoadError(path=spec.path, line=call.line,
                                                message=f"STEP {step.number} calls {call.tool} with {problem}"))
                    box.tools.pop(spec.name, None)


def _skill_files(folder: Path) -> list[Path]:
    found = []
    for child in sorted(folder.iterdir()):
        skill = next((child / name for name in SKILL_FILES if (child / name).is_file()), None)
        if skill is not None:
            found.append(skill)
    return found


def _load_one(box: Toolbox, path: Path, label: str) -> None:
    try:
        spec = parse_skill(path.read_text(encoding="utf-8"), path, label)
    except ToolFileError as e:
        box.errors.append(e.error)
        return
    except (OSError, UnicodeDecodeError) as e:
        box.errors.append(LoadError(path=path, message=f"cannot read: {e}"))
        return
    first = box.tools.get(spec.name)
    if first is not None:
        message = f"tool {spec.name!r} is already defined by {first.path}; tool names must be unique"
        box.errors.append(LoadError(path=path, message=message))
        return
    box.tools[spec.name] = spec
