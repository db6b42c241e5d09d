"""execute_action: the one door to every tool. Validates, dispatches by type, never raises.

Every call, nested ones included, leaves an ActionRecord: the trace the planner's step
records are built from.
"""

from __future__ import annotations

import difflib
import re
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict

from agent.infospace import Infospace, InfospaceError
from agent.infospace.models import NAME_PATTERN
from agent.paths import WORLD_TOOLS_DIR
from agent.tools.context import LlmBackend, MethodRunner, Subplanner, ToolObserver
from agent.tools.loader import Toolbox
from agent.tools.primitives import PRIMITIVES
from agent.tools.result import FailureCode, ToolFailure, ToolResult
from agent.tools.runners import PythonTools, TimedOut, run_llm
from agent.tools.schema import check_args
from agent.tools.spec import ToolSpec

# Keys of an action that are not arguments: which tool, and the $name to bind its result to.
TYPE_KEY, BIND_KEY = "type", "as"
# Recent records kept in memory for inspection; the full trace goes to the observer.
RECENT_RECORDS = 1000
# What a python tool gets once abandoned after its timeout, for every call it still makes.
ABANDONED = "abandoned: this python tool outlived its timeout and may not act any more"


class ActionRecord(BaseModel):
    """One tool call as it happened. depth 0 is the planner's call; nested calls count up."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tool: str | None
    args: dict[str, Any]
    depth: int
    status: str
    code: FailureCode | None = None
    reason: str | None = None
    resource_id: str | None = None
    duration_us: float
    error_trace: str | None = None


class Executor:
    """Runs tools from a Toolbox against an Infospace.

    `world` is the body world tools drive (a BotConnection for Minecraft), None without one;
    `world_map` is what the body has seen (agent.world.spatial's SpatialMemory; world tools
    start an in-memory one when none is given). `goal_check` is the run's goal check
    (agent.checks), which tools that pursue the goal default to; None outside a checked run.
    `llm` serves llm tools and `method_runner` method tools; without them those tools fail
    with code `unavailable`. `subplanner` serves `subplan()` to python tools. `on_say`
    receives what the say primitive says; `observer` is told of every call as it starts and ends.
    """

    def __init__(
        self,
        toolbox: Toolbox,
        infospace: Infospace,
        *,
        world: Any = None,
        world_map: Any = None,
        goal_check: Any = None,
        llm: LlmBackend | None = None,
        method_runner: MethodRunner | None = None,
        subplanner: Subplanner | None = None,
        on_say: Callable[[str], None] | None = None,
        observer: ToolObserver | None = None,
        tool_timeout_s: float | None = None,
    ):
        self.toolbox = toolbox
        self.infospace = infospace
        self.world = world
        self.world_map = world_map
        self.goal_check = goal_check
        self.llm = llm
        self.method_runner = method_runner
        self.subplanner = subplanner
        self.records: deque[ActionRecord] = deque(maxlen=RECENT_RECORDS)
        self._on_say = on_say
        self.observer = observer
        self._python = PythonTools()
        self.tool_timeout_s = tool_timeout_s
        self._depth = 0
        # The calls under way, outermost first, and the threads of python tools abandoned after
        # their timeout: guarded together, since an abandoned tool may still be finishing a call.
        self._open: list[Any] = []
        self._abandoned: set[int | None] = set()
        self._lock = threading.Lock()

    def execute_action(self, action: Mapping[str, Any]) -> ToolResult:
        """Runs {"type": NAME, ...args[, "as": NAME]} and returns its uniform result."""
        if threading.get_ident() in self._abandoned:
            return ToolResult.failure("timeout", ABANDONED)
        started = time.perf_counter_ns()
        trace = None
        with self._lock:
            self._depth += 1
            self._open.append(action)
        if self.observer is not None:
            self.observer.tool_started(action, self._depth - 1, self._type_of(action))
        try:
            result = self._execute(action)
        except (ToolFailure, InfospaceError) as e:
            result = ToolResult.failure(e.code, str(e))
        except Exception as e:
            result = ToolResult.failure("exception", f"{type(e).__name__}: {e}")
            trace = traceback.format_exc()
        finally:
            abandoned = self._leave()
        if not abandoned:
            self._record(action, result, (time.perf_counter_ns() - started) / 1000, trace)
        return result

    def _leave(self) -> bool:
        """Ends the innermost call; True (touching nothing) in an abandoned tool's thread, whose
        calls its caller already ended (`_abandon`)."""
        with self._lock:
            if threading.get_ident() in self._abandoned:
                return True
            self._depth -= 1
            self._open.pop()
            return False

    def _abandon(self, worker: threading.Thread, level: int) -> None:
        """A python tool outlived its bound: its thread may not act again, and the calls it left
        open (above `level`) end here as failed, so that depths and the trace stay paired."""
        with self._lock:
            self._abandoned.add(worker.ident)
        while True:
            with self._lock:
                if len(self._open) <= level:
                    return
                action = self._open.pop()
                self._depth -= 1
            self._record(action, ToolResult.failure("timeout", ABANDONED), 0.0, None)

    def _type_of(self, action: Any) -> str | None:
        spec = self.toolbox.tools.get(action.get(TYPE_KEY)) if isinstance(action, Mapping) else None
        return spec.type if spec is not None else None

    def say(self, text: str) -> None:
        if self._on_say is not None:
            self._on_say(text)

    def subplan(self, goal: str, tools: list[str] | None = None, max_steps: int | None = None) -> ToolResult:
        """For python tools: a sub-plan toward `goal` with only `tools`; its outcome comes back as a result."""
        if self.subplanner is None:
            raise ToolFailure("unavailable", "subplan needs the planner, which is not running")
        return self.subplanner.subplan(goal, tools, max_steps, self)

    @contextmanager
    def plan_scope(self) -> Iterator[None]:
        """$names bound inside belong to the plan and are gone after it, unless persisted."""
        with self.infospace.plan_scope():
            yield

    def _execute(self, action: Mapping[str, Any]) -> ToolResult:
        spec = self._tool(action)
        bind_as = action.get(BIND_KEY)
        if bind_as is not None and not (isinstance(bind_as, str) and re.fullmatch(NAME_PATTERN, bind_as)):
            raise ToolFailure("bad_args", f'"as": expected a name such as ores or iron_2, got {bind_as!r}')
        args = {key: value for key, value in action.items() if key not in (TYPE_KEY, BIND_KEY)}
        reason = check_args(spec.schema_hint, args)
        if reason:
            raise ToolFailure("bad_args", f"{spec.name}: {reason}")
        result = self._dispatch(spec, args)
        if spec.type in ("python", "llm"):
            result = self._keep(result)
        if bind_as is not None and result.ok:
            if result.resource_id is None:
                raise ToolFailure("bad_action", f"{spec.name} ran but gave no note or collection to bind to ${bind_as}")
            self.infospace.bind(bind_as, result.resource_id)
        return result

    def _tool(self, action: Mapping[str, Any]) -> ToolSpec:
        name = action.get(TYPE_KEY) if isinstance(action, Mapping) else None
        if not isinstance(name, str):
            raise ToolFailure("bad_action", 'expected an action {"type": TOOL_NAME, ...arguments}')
        spec = self.toolbox.tools.get(name)
        if spec is None:
            close = difflib.get_close_matches(name, self.toolbox.tools, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ToolFailure("bad_action", f"no tool named {name!r}{hint}")
        return spec

    def _dispatch(self, spec: ToolSpec, args: dict[str, Any]) -> ToolResult:
        if spec.type == "primitive":
            implementation = PRIMITIVES.get(spec.name)
            if implementation is None:
                raise ToolFailure("unavailable", f"primitive {spec.name!r} has a Skill.md but no implementation")
            return implementation(self, **args)
        if spec.type == "python":
            return self._run_python(spec, args)
        if spec.type == "llm":
            return run_llm(self.llm, spec, args)
        if spec.type == "instruction":
            return ToolResult.success(spec.body)
        if self.method_runner is None:
            reason = f"{spec.name} is a method tool; the method runner is not available until the planner lands"
            raise ToolFailure("unavailable", reason)
        return self.method_runner(spec, args, self)

    def _run_python(self, spec: ToolSpec, args: dict[str, Any]) -> ToolResult:
        # World tools bound each bridge call themselves (mc-explore may walk for 120 s): the
        # default is for the python tools of skills and users, whose time nothing else bounds.
        default_s = None if WORLD_TOOLS_DIR in spec.path.parents else self.tool_timeout_s
        timeout_s = spec.timeout_s or default_s
        level = len(self._open)  # this call's own entry is the last one open
        try:
            return self._python.run(spec, args, self, timeout_s)
        except TimedOut as e:
            self._abandon(e.worker, level)
            raise ToolFailure("timeout", f"{spec.name} did not finish within {timeout_s:g} s") from None

    def _keep(self, result: ToolResult) -> ToolResult:
        """As the seed says, an external tool's raw data becomes a Note the planner can refer to."""
        if not result.ok or result.data is None or result.resource_id is not None:
            return result
        try:
            note = self.infospace.store.create_note(result.data)
        except (TypeError, ValueError) as e:
            raise ToolFailure("bad_return", f"the tool returned data that is not JSON: {e}") from None
        return result.model_copy(update={"resource_id": note.id})

    def _record(self, action: Any, result: ToolResult, duration_us: float, trace: str | None) -> None:
        is_map = isinstance(action, Mapping)
        record = ActionRecord(
            tool=action.get(TYPE_KEY) if is_map and isinstance(action.get(TYPE_KEY), str) else None,
            args={str(k): v for k, v in action.items() if k != TYPE_KEY} if is_map else {},
            depth=self._depth,
            status=result.status,
            code=result.code,
            reason=result.reason,
            resource_id=result.resource_id,
            duration_us=duration_us,
            error_trace=trace,
        )
        self.records.append(record)
        if self.observer is not None:
            self.observer.tool_finished(record, result)
