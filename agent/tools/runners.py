"""How each external tool type runs: python imports tool.py once, llm fills its prompt, and
every python return is read back into a ToolResult."""

from __future__ import annotations

import contextvars
import importlib
import importlib.util
import json
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from agent.infospace import Infospace
from agent.infospace.models import Note
from agent.tools.frontmatter import PYTHON_ENTRY
from agent.tools.interfaces import LlmBackend, ToolContext
from agent.tools.result import FAILURE_CODES, UNIFORM_KEYS, ToolFailure, ToolResult
from agent.tools.spec import ToolSpec

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(:note)?\}")
# How much of a note `{name:note}` puts in an llm tool's prompt: a scan or a map fits.
NOTE_CHARS = 6000


class TimedOut(Exception):  # noqa: N818 - named for what happened
    """A python tool outlived its bound; its thread runs on, abandoned."""


class PythonTools:
    """Finds each tool.py's entry, `tool(executor=..., **args)`, on its tool's first call (the
    module imported once per process: at load already, when its Args model is the schema), or
    a decorated tool's, and keeps it for the next calls."""

    def __init__(self) -> None:
        self._entries: dict[Path | str, Callable[..., Any]] = {}

    def run(self, spec: ToolSpec, args: dict[str, Any], context: ToolContext, timeout_s: float | None) -> ToolResult:
        """The tool's return, read; within `timeout_s` (None: unbounded), else TimedOut."""
        where = spec.entry or spec.path.parent / PYTHON_ENTRY
        entry = self._entries.get(where)
        if entry is None:
            entry = self._entries[where] = decorated_entry(where) if isinstance(where, str) else import_entry(spec.name, where)
        if timeout_s is None:
            return read_return(entry(executor=context, **args))
        return read_return(call_within(lambda: entry(executor=context, **args), timeout_s, spec.name))


def call_within(fn: Callable[[], Any], timeout_s: float, name: str) -> Any:
    """`fn()` in a worker thread, waited for `timeout_s`. What it raises is raised here, the
    run's own BaseExceptions (a stop, a lost world) included; past the bound, TimedOut. A thread
    cannot be killed: the caller must make sure the abandoned one cannot act any more. The worker
    runs in a copy of the caller's context, so the calls it makes nest in the caller's."""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread as it is
            outcome["error"] = e
        finally:
            done.set()

    context = contextvars.copy_context()
    threading.Thread(target=context.run, args=(work,), name=f"tool-{name}", daemon=True).start()
    if not done.wait(timeout_s):
        raise TimedOut(f"{name} after {timeout_s:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# Each tool.py runs once per process, as any module: the loader imports it for its Args model and
# its calls use that same import, so the schema and the code always come from one reading of it.
_MODULES: dict[Path, ModuleType] = {}
_IMPORTING = threading.RLock()


def import_tool_module(name: str, path: Path) -> ModuleType:
    """The tool.py at `path`, imported once; what it raises on import is raised here."""
    key = path.resolve()
    with _IMPORTING:
        if key not in _MODULES:
            module_spec = importlib.util.spec_from_file_location("mcagent_tool_" + re.sub(r"\W", "_", name), path)
            if module_spec is None or module_spec.loader is None:
                raise ToolFailure("unavailable", f"cannot import {path}")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
            _MODULES[key] = module
        return _MODULES[key]


def args_model(name: str, path: Path) -> type[BaseModel] | None:
    """The arguments model the tool.py at `path` defines as `Args`, if it defines one."""
    model = getattr(import_tool_module(name, path), "Args", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def import_entry(name: str, path: Path) -> Callable[..., Any]:
    entry = getattr(import_tool_module(name, path), "tool", None)
    if not callable(entry):
        raise ToolFailure("unavailable", f"{path} defines no top-level tool(input_value=None, **kwargs)")
    return entry


def decorated_entry(target: str) -> Callable[..., Any]:
    """The executable form of the @register_tool function `module:attribute`."""
    module_name, _, attribute = target.partition(":")
    registered = getattr(importlib.import_module(module_name), attribute, None)
    entry = getattr(registered, "tool", None)
    if not callable(entry):
        raise ToolFailure("unavailable", f"{target} is no longer a @register_tool function")
    return entry


def read_return(returned: Any) -> ToolResult:
    """A ToolResult, a uniform dict (it has "status"), or a plain value meaning success with that data."""
    if isinstance(returned, ToolResult):
        return returned
    if not (isinstance(returned, Mapping) and "status" in returned):
        return ToolResult.success(returned)
    unknown = sorted(set(returned) - UNIFORM_KEYS)
    if unknown:
        accepted = ", ".join(sorted(UNIFORM_KEYS))
        raise ToolFailure("bad_return", f"uniform return has unknown key {unknown[0]!r} (accepted: {accepted})")
    status, value = returned["status"], returned.get("value")
    if status == "success":
        shown = None if value is None else str(value)
        return ToolResult.success(returned.get("data"), shown, returned.get("resource_id"))
    if status == "failed":
        reason = returned.get("reason") or "the tool reported a failure without a reason"
        code = returned.get("code") if returned.get("code") in FAILURE_CODES else "tool_failed"
        return ToolResult.failure(code, str(reason), returned.get("data"))
    raise ToolFailure("bad_return", f"uniform return has status {status!r}; expected 'success' or 'failed'")


def run_llm(llm: LlmBackend | None, spec: ToolSpec, args: dict[str, Any], infospace: Infospace) -> ToolResult:
    if llm is None:
        raise ToolFailure("unavailable", f"{spec.name} is an llm tool and no LLM backend is configured")
    return ToolResult.success(llm.complete(fill_template(spec.body, args, infospace)))


def fill_template(template: str, args: Mapping[str, Any], infospace: Infospace | None = None) -> str:
    """Replaces {arg} with the argument (text as is, anything else as JSON), and {arg:note} with
    the content of the note or collection the argument names (Note_N, Collection_N, $name), as
    JSON, clipped; other braces stay."""

    def value(match: re.Match[str]) -> str:
        name = match[1]
        if name not in args:
            return match[0]
        given = args[name]
        if match[2]:
            given = _content(infospace, given)
        return given if isinstance(given, str) else json.dumps(given, ensure_ascii=False, default=str)

    return _PLACEHOLDER.sub(value, template)


def _content(infospace: Infospace | None, ref: Any) -> str:
    if infospace is None or not isinstance(ref, str):
        raise ToolFailure("bad_args", f"expected a note: Note_N, Collection_N or $name, got {ref!r}")
    found = infospace.resource(ref)
    content = found.content if isinstance(found, Note) else [n.content for n in infospace.notes_of(found)]
    text = json.dumps(content, ensure_ascii=False, default=str)
    return text if len(text) <= NOTE_CHARS else text[:NOTE_CHARS] + " ... (clipped)"
