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
from contextvars import ContextVar
from typing import Any

from agent.infospace import Infospace, InfospaceError
from agent.infospace.models import NAME_PATTERN
from agent.paths import WORLD_TOOLS_DIR
from agent.tools.completion import judged
from agent.tools.interfaces import LlmBackend, MethodRunner, Subplanner, ToolObserver
from agent.tools.loader import Toolbox
from agent.tools.primitives import PRIMITIVES
from agent.tools.result import ActionRecord, ToolFailure, ToolResult
from agent.tools.runners import PythonTools, TimedOut, run_llm
from agent.tools.schema import check_args
from agent.tools.slots import Evidence, missing_input
from agent.tools.spec import ToolSpec

# Keys of an action that are not arguments: which tool, and the $name to bind its result to.
TYPE_KEY, BIND_KEY = "type", "as"
# Recent records kept in memory for inspection; the full trace goes to the observer.
RECENT_RECORDS = 1000
# What a python tool gets once abandoned after its timeout, for every call it still makes.
ABANDONED = "abandoned: this python tool outlived its timeout and may not act any more"


class _Call:
    """One execute_action under way. A python tool runs in a worker thread that outlives its
    timeout; once its call has ended, nothing started under it may act."""

    __slots__ = ("action", "parent", "depth", "started_ns", "ended")

    def __init__(self, action: Mapping[str, Any], parent: _Call | None, depth: int):
        self.action, self.parent, self.depth = action, parent, depth
        self.started_ns = time.perf_counter_ns()
        self.ended = False

    def live(self) -> bool:
        """Neither it nor any call it is nested in has ended."""
        call: _Call | None = self
        while call is not None:
            if call.ended:
                return False
            call = call.parent
        return True


# The call under way in this context: the parent of the next one. A python tool's worker thread
# starts with a copy of its caller's context (runners.call_within), so its calls nest there, not
# by thread: a thread's id is reused once it ends.
_CURRENT: ContextVar[_Call | None] = ContextVar("mcagent_tool_call", default=None)


class Executor:
    """Runs tools from a Toolbox against an Infospace.

    `world` is the body world tools drive (a BotConnection for Minecraft), None without one;
    `world_map` is what the body has seen (agent.world.spatial's SpatialMemory; world tools
    start an in-memory one when none is given). `goal_check` is the run's goal check
    (agent.checks), which tools that pursue the goal default to; None outside a checked run.
    The planner narrows `goal_check` to the sub-goal it works on; `run_check` stays the run's
    whole check (the cells of a build in it no tool digs: agent/goals/builds.py).
    `llm` serves llm tools and `method_runner` method tools; without them those tools fail
    with code `unavailable`. `subplanner` serves `subplan()` to python tools. `on_say`
    receives what the say primitive says; `observer` is told of every call as it starts and ends.
    `tool_timeout_s` bounds a python tool whose Skill.md sets no `timeout_s` (None: unbounded);
    past its bound the call fails with code `timeout` and the tool, abandoned, may not act again.

    Before a call: a missing required argument fails `needs_input` (the slot's prompt), a bad one
    `bad_args`, an unconfirmed `verified: false` value `needs_input` (agent/tools/slots.py). After
    it: a success the tool's own check does not pass fails `incomplete` (agent/tools/completion.py).
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
        self.run_check = goal_check
        self.llm = llm
        self.method_runner = method_runner
        self.subplanner = subplanner
        self.records: deque[ActionRecord] = deque(maxlen=RECENT_RECORDS)
        self._on_say = on_say
        self.observer = observer
        self._python = PythonTools()
        self.evidence = Evidence()  # what confirms the values of verified: false slots (agent/tools/slots.py)
        self.tool_timeout_s = tool_timeout_s
        # The calls under way, outermost first. The lock keeps them and the observer's starts and
        # ends paired: an abandoned tool's thread may still be opening or ending a call.
        self._open: list[_Call] = []
        self._lock = threading.Lock()

    def execute_action(self, action: Mapping[str, Any]) -> ToolResult:
        """Runs {"type": NAME, ...args[, "as": NAME]} and returns its uniform result."""
        call = self._enter(action)
        if call is None:
            return ToolResult.failure("timeout", ABANDONED)
        token = _CURRENT.set(call)
        try:
            result, trace = self._caught(action)
        except BaseException:
            self._leave(call, None, None)  # a stop, Ctrl-C, a lost world: it ends the run, unrecorded
            raise
        finally:
            _CURRENT.reset(token)
        self._leave(call, result, trace)
        return result

    @property
    def cancelled(self) -> bool:
        """True in a call that may not act any more: a python tool it runs under outlived its
        timeout. A tool that acts in many steps (mc-explore) checks it between them."""
        call = _CURRENT.get()
        return call is not None and not call.live()

    def _caught(self, action: Mapping[str, Any]) -> tuple[ToolResult, str | None]:
        """The call's result, and the traceback of an exception nobody expected; a BaseException goes through."""
        try:
            return self._execute(action), None
        except (ToolFailure, InfospaceError) as e:
            return ToolResult.failure(e.code, str(e)), None
        except Exception as e:
            return ToolResult.failure("exception", f"{type(e).__name__}: {e}"), traceback.format_exc()

    def _enter(self, action: Mapping[str, Any]) -> _Call | None:
        """The call, opened and announced; None when the call it is made from has ended."""
        parent = _CURRENT.get()
        with self._lock:
            if parent is not None and not parent.live():
                return None
            call = _Call(action, parent, len(self._open))
            self._open.append(call)
            if self.observer is not None:
                self.observer.tool_started(action, call.depth, self._type_of(action))
        return call

    def _leave(self, call: _Call, result: ToolResult | None, trace: str | None) -> None:
        """Ends `call`, and first the calls still open inside it (an abandoned tool's, whose
        thread runs on), as failed, innermost first; records it unless `result` is None."""
        with self._lock:
            call.ended = True
            if call not in self._open:
                return  # a call it was nested in ended first, and closed it
            while (inner := self._open.pop()) is not call:
                self._record(inner, ToolResult.failure("timeout", ABANDONED), None)
            if result is not None:
                self._record(call, result, trace)

    def _type_of(self, action: Any) -> str | None:
        spec = self.toolbox.tools.get(action.get(TYPE_KEY)) if isinstance(action, Mapping) else None
        return spec.type if spec is not None else None

    def say(self, text: str) -> None:
        self._refuse_if_cancelled()
        if self._on_say is not None:
            self._on_say(text)

    def heard(self, text: str) -> None:
        self.evidence.said(text)

    def subplan(self, goal: str, tools: list[str] | None = None, max_steps: int | None = None) -> ToolResult:
        """For python tools: a sub-plan toward `goal` with only `tools`; its outcome comes back as a result."""
        self._refuse_if_cancelled()  # an abandoned tool may not ask the model either
        if self.subplanner is None:
            raise ToolFailure("unavailable", "subplan needs the planner, which is not running")
        return self.subplanner.subplan(goal, tools, max_steps, self)

    def _refuse_if_cancelled(self) -> None:
        if self.cancelled:
            raise ToolFailure("timeout", ABANDONED)

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
        asked = missing_input(spec, args)
        if asked:
            raise ToolFailure("needs_input", asked)
        reason = check_args(spec.schema_hint, args)
        if reason:
            raise ToolFailure("bad_args", f"{spec.name}: {reason}")
        unconfirmed = self.evidence.unconfirmed(spec, args)
        if unconfirmed:
            raise ToolFailure("needs_input", unconfirmed)
        result = self._dispatch(spec, args)
        if spec.type in ("python", "method"):  # the world's words; a primitive's or a model's are no evidence
            self.evidence.saw(result)
        result = judged(spec.complete_when, spec.schema_hint, args, result)
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
            return PRIMITIVES[spec.name](self, args)  # the loader keeps no primitive without code
        if spec.type == "python":
            return self._run_python(spec, args)
        if spec.type == "llm":
            return run_llm(self.llm, spec, args, self.infospace)
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
        try:
            return self._python.run(spec, args, self, timeout_s)
        except TimedOut:
            # Its thread runs on; the call's end (_leave) cuts it off from everything it could reach.
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

    def _record(self, call: _Call, result: ToolResult, trace: str | None) -> None:
        action = call.action
        is_map = isinstance(action, Mapping)
        record = ActionRecord(
            tool=action.get(TYPE_KEY) if is_map and isinstance(action.get(TYPE_KEY), str) else None,
            args={str(k): v for k, v in action.items() if k != TYPE_KEY} if is_map else {},
            depth=call.depth,
            status=result.status,
            code=result.code,
            reason=result.reason,
            resource_id=result.resource_id,
            duration_us=(time.perf_counter_ns() - call.started_ns) / 1000,
            error_trace=trace,
        )
        self.records.append(record)
        if self.observer is not None:
            self.observer.tool_finished(record, result)
