"""Finding tools: every subfolder holding a Skill.md, in the core, world and skills folders, and
every @register_tool function of the configured modules and installed `mcagent.tools` entry points.

Loading never stops at a bad file or module: each problem becomes one LoadError and the rest load.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from agent.paths import REPO_ROOT, WORLD_TOOLS_DIR
from agent.tools.frontmatter import CORE_SOURCE, PYTHON_ENTRY, ToolFileError, parse_skill
from agent.tools.model_schema import ModelSchemaError, model_schema, model_slots
from agent.tools.primitives import PRIMITIVES
from agent.tools.registry import RegisteredTool
from agent.tools.runners import args_model
from agent.tools.schema import check_args
from agent.tools.spec import LoadError, ToolSpec, schema_problem

CORE_TOOLS_DIR = Path(__file__).resolve().parent.parent / "core_tools"
SKILL_FILES = ("Skill.md", "SKILL.md")
SKILLS_SOURCE = "skills"
# The entry point group through which an installed package adds tools: NAME = "package.module".
ENTRY_POINT_GROUP = "mcagent.tools"


class ToolSource(BaseModel):
    """Where tools come from, and the source label they carry: a folder of tool folders, or a
    Python module whose @register_tool functions are tools ("module" or "module:attribute")."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str
    folder: Path | None = None
    module: str | None = Field(None, min_length=1)
    required: bool = False

    @model_validator(mode="after")
    def _one_place(self) -> ToolSource:
        if (self.folder is None) == (self.module is None):
            raise ValueError("a tool source is a folder or a module, one of the two")
        return self


class Toolbox(BaseModel):
    """Every tool that loaded, by name, and every problem found on the way."""

    model_config = ConfigDict(extra="forbid")
    tools: dict[str, ToolSpec] = {}
    errors: list[LoadError] = []


def standard_sources(
    world: str, tool_folders: list[Path], base: Path | None = None, extra: list[Path] | None = None,
    modules: list[str] | None = None,
) -> list[ToolSource]:
    """Core first (a user tool can never shadow a primitive), then the world's tools, then skills,
    then decorated tools: the config's `tool_modules`, then installed packages' entry points.

    `tool_folders` (from config) are relative to `base`, the config file's folder, else the
    repository; `extra` (--tools-dir) are relative to the working directory and must exist.
    """
    root = base or REPO_ROOT
    sources = [ToolSource(label=CORE_SOURCE, folder=CORE_TOOLS_DIR, required=True)]
    sources.append(ToolSource(label=world, folder=WORLD_TOOLS_DIR / world))
    sources += [ToolSource(label=SKILLS_SOURCE, folder=root / folder) for folder in tool_folders]
    sources += [ToolSource(label=SKILLS_SOURCE, folder=folder, required=True) for folder in extra or []]
    sources += [ToolSource(label=_package_of(module), module=module, required=True) for module in modules or []]
    return _distinct(sources + installed_sources())


def installed_sources() -> list[ToolSource]:
    """The modules installed packages name in the `mcagent.tools` entry point group, labelled by package."""
    return [ToolSource(label=ep.dist.name if ep.dist else ep.name, module=ep.value, required=True)
            for ep in entry_points(group=ENTRY_POINT_GROUP)]


def _package_of(module: str) -> str:
    """The label of a configured module's tools: its top package, as `mytools` for mytools.mining:dig."""
    return module.partition(":")[0].split(".")[0]


def _distinct(sources: list[ToolSource]) -> list[ToolSource]:
    seen: dict[Path | str, ToolSource] = {}
    for source in sources:
        seen.setdefault(source.folder.resolve() if source.folder else str(source.module), source)
    return list(seen.values())


def load_toolbox(sources: list[ToolSource]) -> Toolbox:
    box = Toolbox()
    for source in sources:
        if source.module is not None:
            _load_module(box, source.module, source.label)
        elif source.folder is not None and source.folder.is_dir():
            for skill in _skill_files(source.folder):
                _load_one(box, skill, source.label)
        elif source.required:
            box.errors.append(LoadError(path=source.folder, message="tools folder does not exist"))
    _check_literal_calls(box)
    return box


def _load_module(box: Toolbox, target: str, label: str) -> None:
    """The @register_tool functions of a module (or the one `module:attribute` names)."""
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # noqa: BLE001 - a broken plugin is one load error, not a crash
        box.errors.append(LoadError(path=Path(module_name), message=f"cannot import: {type(e).__name__}: {e}"))
        return
    found = {attribute: getattr(module, attribute, None)} if attribute else vars(module)
    tools = {name: value for name, value in found.items() if isinstance(value, RegisteredTool)}
    if not tools:
        box.errors.append(LoadError(path=Path(module_name), message=f"{target} holds no @register_tool function"))
    for name, registered in tools.items():
        _add(box, registered.spec(label, f"{module_name}:{name}"))


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
    if spec.type == "primitive" or (spec.type == "python" and spec.schema_hint is None):
        spec = _with_model_schema(box, spec)
    if spec is not None:
        _add(box, spec)


def _with_model_schema(box: Toolbox, spec: ToolSpec) -> ToolSpec | None:
    """The tool with the schema of its arguments model: a primitive's beside its code in
    agent/tools/primitives/, a python tool's `Args` in its tool.py (none: it takes no arguments).
    A primitive without code, a tool.py that cannot be imported, or a model the schemas cannot
    express is a load error, and the tool is left out."""
    primitive = PRIMITIVES.get(spec.name) if spec.type == "primitive" else None
    if spec.type == "primitive" and primitive is None:
        box.errors.append(LoadError(path=spec.path, message=f"primitive {spec.name!r} has no implementation"))
        return None
    code = spec.path if primitive is not None else spec.path.parent / PYTHON_ENTRY
    try:
        model = primitive.args if primitive is not None else args_model(spec.name, code)
        schema = model_schema(model) if model is not None else None
        slots = model_slots(model, schema) if model is not None else None
    except ModelSchemaError as e:
        box.errors.append(LoadError(path=code, message=str(e)))
        return None
    except Exception as e:  # noqa: BLE001 - a broken tool.py is one load error, not a crash
        box.errors.append(LoadError(path=code, message=f"cannot import: {type(e).__name__}: {e}"))
        return None
    problem = schema_problem(schema, spec.complete_when)
    if problem:
        box.errors.append(LoadError(path=spec.path, message=problem))
        return None
    return spec.model_copy(update={"schema_hint": schema, "slots": slots})


def _add(box: Toolbox, spec: ToolSpec) -> None:
    first = box.tools.get(spec.name)
    if first is not None:
        message = f"tool {spec.name!r} is already defined by {first.entry or first.path}; tool names must be unique"
        box.errors.append(LoadError(path=spec.path, message=message))
        return
    box.tools[spec.name] = spec
