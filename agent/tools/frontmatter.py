"""Reading one Skill.md: strict frontmatter, a body checked for the tool's type, a ToolSpec or one error.

Every problem is a ToolFileError naming the file, the line and what was expected there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from agent.protocol.models import MethodProtocol
from agent.protocol.method_protocol import ProtocolError, parse_protocol
from agent.tools.result import VALUE_LIMIT
from agent.tools.schema import JsonSchema, Slot
from agent.tools.spec import TOOL_TYPES, Frontmatter, LoadError, ToolSpec

FENCE = "---"
PYTHON_ENTRY = "tool.py"
# The source that ships the built-in primitives; no other source may declare one.
CORE_SOURCE = "core"


class ToolFileError(Exception):
    """A Skill.md that cannot be loaded; `error` says where and what was expected."""

    def __init__(self, error: LoadError):
        super().__init__(str(error))
        self.error = error


def parse_skill(text: str, path: Path, source: str) -> ToolSpec:
    """The spec in `text`, the contents of `path` (a Skill.md in a folder named after the tool)."""
    lines = text.removeprefix("\ufeff").splitlines()
    close = _closing_fence(lines, path)
    data, key_lines = _read_yaml("\n".join(lines[1:close]), path)
    front = _validate(data, key_lines, path)
    if front.name != path.parent.name:
        message = f"name {front.name!r} must equal its folder's name {path.parent.name!r}"
        raise _error(path, key_lines["name"], message)
    body = "\n".join(lines[close + 1 :])
    protocol = _check_body(front, body, close + 2, path, source, key_lines.get("type", 1))
    return front.spec(source, path, body, protocol)


# What each type needs beyond the frontmatter, said the way the error reports it.
_BODY = "a type: {} tool needs a body after the frontmatter: {}"
_NEEDS = {
    "llm": _BODY.format("llm", "the prompt template"),
    "instruction": _BODY.format("instruction", "the text to add to the planner's context"),
    "python": f"a type: python tool needs {PYTHON_ENTRY} beside its Skill.md, with tool(input_value=None, **kwargs)",
    "primitive": "type: primitive is reserved for the built-in operations; use python, llm, instruction or method",
}


def _check_body(
    front: Frontmatter, body: str, body_line: int, path: Path, source: str, type_line: int
) -> MethodProtocol | None:
    """The parsed protocol of a method; for the other types, a check that what they need is there."""
    if front.type == "method":
        try:
            return parse_protocol(body, body_line)
        except ProtocolError as e:
            raise _error(path, e.line, e.message) from None
    if front.type == "instruction" and len(body.strip()) > VALUE_LIMIT:
        # The planner reads a result's value, which holds this many characters of the text.
        raise _error(path, type_line, f"an instruction's text is {len(body.strip())} characters; "
                                      f"at most {VALUE_LIMIT} reach the planner whole")
    if front.type in ("llm", "instruction"):
        missing = not body.strip()
    elif front.type == "python":
        missing = not (path.parent / PYTHON_ENTRY).is_file()
    else:
        missing = source != CORE_SOURCE
    if missing:
        raise _error(path, type_line, _NEEDS[front.type])
    return None


def _error(path: Path, line: int, message: str) -> ToolFileError:
    return ToolFileError(LoadError(path=path, line=line, message=message))


def _closing_fence(lines: list[str], path: Path) -> int:
    if not lines or lines[0].strip() != FENCE:
        expected = f"expected '{FENCE}' on the first line, opening the frontmatter (name, type, description)"
        raise _error(path, 1, expected)
    for i, line in enumerate(lines[1:], start=1):
        if line.strip() == FENCE:
            return i
    raise _error(path, len(lines), f"the frontmatter opened on line 1 is never closed; expected a '{FENCE}' line")


def _read_yaml(text: str, path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """The frontmatter mapping and, for each key, its line in the file (the fence is line 1)."""
    try:
        node, data = _compose(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise _error(path, mark.line + 2 if mark else 1, f"invalid YAML in the frontmatter: {e.problem}") from None
    except (yaml.YAMLError, ValueError) as e:
        # ReaderError (a control character) and bad dates (2001-13-40) carry no usable mark.
        raise _error(path, 1, f"invalid YAML in the frontmatter: {e}") from None
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        raise _error(path, 2, "expected the frontmatter to be 'key: value' lines (name, type, description)")
    key_lines: dict[str, int] = {}
    for key, _ in node.value:
        line = key.start_mark.line + 2
        if not isinstance(key, yaml.ScalarNode) or key.tag != "tag:yaml.org,2002:str":
            raise _error(path, line, "expected a key such as name, type or description")
        if key.value in key_lines:
            raise _error(path, line, f"key {key.value!r} given twice (first on line {key_lines[key.value]})")
        key_lines[key.value] = line
    return data, key_lines


def _compose(text: str) -> tuple[yaml.Node | None, Any]:
    """The document's node tree (for key lines) and its value, from one parse."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        return node, loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()


def _validate(data: dict[str, Any], key_lines: dict[str, int], path: Path) -> Frontmatter:
    try:
        return Frontmatter.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        # Union members appear in loc as tags such as "literal['a','b']"; people want the key path.
        loc = [str(part) for part in first["loc"] if "[" not in str(part)]
        # A check across keys names none in loc; its message starts with the key it is about.
        key = loc[0] if loc else next((k for k in key_lines if _message(first).startswith(f"{k} ")), None)
        line = key_lines.get(key, 1) if key else 1
        raise _error(path, line, _describe(first, loc)) from None


def _describe(error: Any, loc: list[str]) -> str:
    key = ".".join(loc)
    if error["type"] == "missing":
        extra = f" (one of: {', '.join(TOOL_TYPES)})" if key == "type" else ""
        return f"missing required key {key!r}{extra}"
    if error["type"] == "extra_forbidden":
        accepted = ", ".join(_accepted_keys(loc))
        return f"unknown key {key!r} (accepted: {accepted})"
    return f"{key}: {_message(error)}" if key else _message(error)


def _message(error: Any) -> str:
    return error["msg"].removeprefix("Value error, ")


def _accepted_keys(loc: list[str]) -> list[str]:
    if len(loc) == 1:
        return list(Frontmatter.model_fields)
    if loc[0] == "slots":
        return list(Slot.model_fields)
    return [field.alias or name for name, field in JsonSchema.model_fields.items()]
