"""Layered settings: defaults, then files, then flags, with where each value came from.

Used for every settings model (the agent config, the local server's settings),
so precedence, provenance and error wording are the same everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from agent.errors import ConfigError

M = TypeVar("M", bound=BaseModel)
DEFAULT_SOURCE = "default"


class StrictModel(BaseModel):
    """A settings model: unknown keys are errors, values are checked on assignment."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=True)


class Layer(BaseModel):
    """One source of settings: `values` is nested like the model, `source` names it for people."""

    model_config = ConfigDict(frozen=True)
    source: str
    values: dict[str, Any]


def read_yaml_layer(path: Path) -> Layer:
    """Reads a YAML mapping; any problem is one ConfigError line naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config file {path}: {e.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigError(f"{where}: invalid YAML: {e.problem}") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: invalid YAML: {e}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values at the top level, got {type(data).__name__}")
    return Layer(source=str(path), values=data)


def flag_layer(flags: dict[str, Any]) -> Layer:
    """A layer from CLI flags given as {"dotted.key": value}; None means the flag was not given."""
    values: dict[str, Any] = {}
    for dotted, value in flags.items():
        if value is None:
            continue
        *parents, leaf = dotted.split(".")
        node = values
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return Layer(source="command line", values=values)


def _flatten(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in values.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, f"{dotted}."))
        else:
            flat[dotted] = value
    return flat


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def resolve(model: type[M], layers: list[Layer]) -> tuple[M, dict[str, str]]:
    """Merges the layers over the model's defaults and validates the result.

    Returns the model and, for every leaf key, the source its value came from.
    """
    raw = model().model_dump(mode="json")
    sources = {key: DEFAULT_SOURCE for key in _flatten(raw)}
    for layer in layers:
        raw = _merge(raw, layer.values)
        sources.update({key: layer.source for key in _flatten(layer.values)})
    return _validated(model, raw, sources), sources


def load_model_file(model: type[M], path: Path) -> M:
    """A whole model from one YAML file (no defaults layer: required keys must be there)."""
    layer = read_yaml_layer(path)
    return _validated(model, layer.values, {key: layer.source for key in _flatten(layer.values)})


def _validated(model: type[M], raw: dict[str, Any], sources: dict[str, str]) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        raise ConfigError(_describe(e, model, sources)) from None


def _describe(error: ValidationError, model: type[BaseModel], sources: dict[str, str]) -> str:
    """All validation problems as one line: source, key, what is wrong and what is accepted."""
    problems = []
    for err in error.errors():
        loc = [str(part) for part in err["loc"]]
        key = ".".join(loc)
        source = _source_of(key, sources)
        if err["type"] == "extra_forbidden":
            parent = ".".join(loc[:-1])
            accepted = ", ".join(_fields_at(model, loc[:-1]))
            under = f" under '{parent}'" if parent else ""
            problems.append(f"{source}: unknown key '{key}' (accepted{under}: {accepted})")
        else:
            message = err["msg"].removeprefix("Value error, ")
            problems.append(f"{source}: {key}: {message} (got {err.get('input')!r})")
    return "; ".join(problems)


def _source_of(key: str, sources: dict[str, str]) -> str:
    """The source of `key`, or of the nearest enclosing key that has one (list items, sections)."""
    parts = key.split(".")
    while parts:
        prefix = ".".join(parts)
        if prefix in sources:
            return sources[prefix]
        inner = [s for k, s in sources.items() if k.startswith(f"{prefix}.") and s != DEFAULT_SOURCE]
        if inner:
            return inner[-1]
        parts.pop()
    return next(iter(set(sources.values()) - {DEFAULT_SOURCE}), DEFAULT_SOURCE)


def _fields_at(model: type[BaseModel], loc: list[str]) -> list[str]:
    for part in loc:
        annotation = model.model_fields[part].annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return []
        model = annotation
    return list(model.model_fields)


def provenance_table(model: BaseModel, sources: dict[str, str]) -> list[tuple[str, Any, str]]:
    """(dotted key, value, source) for every leaf of the model, in field order."""
    flat = _flatten(model.model_dump(mode="json"))
    return [(key, value, sources.get(key, DEFAULT_SOURCE)) for key, value in flat.items()]
