"""How each external tool type runs: python imports tool.py once, llm fills its prompt, and
every python return is read back into a ToolResult."""

from __future__ import annotations

import importlib.util
import json
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from agent.tools.context import LlmBackend, ToolContext
from agent.tools.frontmatter import PYTHON_ENTRY
from agent.tools.result import FAILURE_CODES, UNIFORM_KEYS, ToolFailure, ToolResult
from agent.tools.spec import ToolSpec

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class TimedOut(Exception):  # noqa: N818 - named for what happened
    """A python tool outlived its bound; `worker` is the thread left running it."""

    def __init__(self, worker: threading.Thread):
        super().__init__(worker.name)
        self.worker = worker


class PythonTools:
    """Imports each tool.py on its tool's first call and keeps its tool() for the next ones."""

    def __init__(self) -> None:
        self._entries: dict[Path, Callable[..., Any]] = {}

    def run(self, spec: ToolSpec, args: dict[str, Any], context: ToolContext, timeout_s: float | None) -> ToolResult:
        """The tool's return, read; within `timeout_s` (None: unbounded), else TimedOut."""
        path = spec.path.parent / PYTHON_ENTRY
        entry = self._entries.get(path)
        if entry is None:
            entry = self._entries[path] = import_entry(spec.name, path)
        if timeout_s is None:
            return read_return(entry(executor=context, **args))
        return read_return(call_within(lambda: entry(executor=context, **args), timeout_s, spec.name))


def call_within(fn: Callable[[], Any], timeout_s: float, name: str) -> Any:
    """`fn()` in a worker thread, waited for `timeout_s`. What it raises is raised here, the
    run's own BaseExceptions (a stop, a lost world) included; past the bound, TimedOut. A thread
    cannot be killed: the caller must make sure the abandoned one cannot act any more."""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread as it is
            outcome["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name=f"tool-{name}", daemon=True)
    worker.start()
    if not done.wait(timeout_s):
        raise TimedOut(worker)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def import_entry(name: str, path: Path) -> Callable[..., Any]:
    module_name = "mcagent_tool_" + re.sub(r"\W", "_", name)
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise ToolFailure("unavailable", f"cannot import {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    entry = getattr(module, "tool", None)
    if not callable(entry):
        raise ToolFailure("unavailable", f"{path} defines no top-level tool(input_value=None, **kwargs)")
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


def run_llm(llm: LlmBackend | None, spec: ToolSpec, args: dict[str, Any]) -> ToolResult:
    if llm is None:
        raise ToolFailure("unavailable", f"{spec.name} is an llm tool and no LLM backend is configured")
    return ToolResult.success(llm.complete(fill_template(spec.body, args)))


def fill_template(template: str, args: Mapping[str, Any]) -> str:
    """Replaces {arg} with the argument (text as is, anything else as JSON); other braces stay."""

    def value(match: re.Match[str]) -> str:
        name = match[1]
        if name not in args:
            return match[0]
        given = args[name]
        return given if isinstance(given, str) else json.dumps(given, ensure_ascii=False, default=str)

    return _PLACEHOLDER.sub(value, template)
