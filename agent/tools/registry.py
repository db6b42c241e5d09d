"""@register_tool: a Python function made a tool, the second front door to the same ToolSpec.

    from agent.tools.registry import register_tool

    @register_tool(
        "Add two numbers and return the sum",
        slots=[{"name": "a", "type": "int", "required": True, "prompt": "Which first number?"},
               {"name": "b", "type": "int", "required": True, "prompt": "Which second number?"}],
        outputs=[{"name": "sum", "type": "int", "description": "a + b"}],
        is_complete=lambda total: total is not None,
    )
    def add_numbers(a: int, b: int) -> int:
        return a + b

The four parts are the register-tool seed's: a description, slots (agent/tools/schema.py's Slot,
the model a Skill.md's `slots:` key uses), outputs, and is-complete: a function given what the tool
returned (its data), or a check in the protocol expression language (a Skill.md's complete_when).
The decorator checks everything at import, as the loader checks a Skill.md, and returns a
RegisteredTool, which still calls like the function. The loader (agent/tools/loader.py) finds the
RegisteredTools of the modules the config lists (`tool_modules`) and of installed packages'
`mcagent.tools` entry points; the executor runs them as python tools, under the same timeout.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agent.tools.completion import incomplete
from agent.tools.runners import read_return
from agent.tools.schema import Output, Slot
from agent.tools.spec import Frontmatter, ToolSpec

# The name the executor passes a python tool's context under; a function that declares it gets it.
EXECUTOR_ARG = "executor"


class RegisteredTool:
    """A function and how it is a tool. Calling it calls the function; `tool` is what the executor runs."""

    def __init__(self, function: Callable[..., Any], front: Frontmatter, is_complete: Callable[[Any], Any] | None):
        self.function, self.front, self.is_complete = function, front, is_complete
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def spec(self, source: str, entry: str) -> ToolSpec:
        """The loaded tool, as a Skill.md of the same frontmatter would load; `entry` is module:attribute."""
        return self.front.spec(source, _defined_in(self.function), inspect.getdoc(self.function) or "", entry=entry)

    def tool(self, executor: Any = None, **args: Any) -> Any:
        """The python tool's one executable form: the function's return, or failed `incomplete`
        when is_complete says the step was not achieved."""
        if EXECUTOR_ARG in (_parameters(self.function) or {}):
            args[EXECUTOR_ARG] = executor
        returned = self.function(**args)
        if self.is_complete is None:
            return returned
        result = read_return(returned)
        if not result.ok or self.is_complete(result.data):
            return result
        name = getattr(self.is_complete, "__name__", "is_complete")
        return incomplete(f"{name}(data) to be true", result)


def register_tool(
    description: str,
    slots: Sequence[Slot | Mapping[str, Any]] = (),
    outputs: Sequence[Output | Mapping[str, Any]] = (),
    is_complete: Callable[[Any], Any] | str | None = None,
    *,
    name: str | None = None,
    when_to_use: str | None = None,
    examples: Sequence[Any] = (),
    invalidates: Sequence[str] = (),
    timeout_s: float | None = None,
    hidden: bool = False,
) -> Callable[[Callable[..., Any]], RegisteredTool]:
    """Makes a function a python tool (see the module docstring). `name` defaults to the function's,
    with - for _. A string is_complete is a complete_when check over data and args. Raises
    ValueError at once for what a Skill.md loader would refuse, or slots the function cannot take."""

    def decorate(function: Callable[..., Any]) -> RegisteredTool:
        front = Frontmatter(
            name=name or function.__name__.replace("_", "-"), type="python", description=description,
            when_to_use=when_to_use,
            slots=[Slot.model_validate(s) for s in slots], outputs=[Output.model_validate(o) for o in outputs],
            complete_when=is_complete if isinstance(is_complete, str) else None, examples=list(examples),
            invalidates=list(invalidates), timeout_s=timeout_s, hidden=hidden,
        )
        _check_signature(function, front.slots or [])
        return RegisteredTool(function, front, None if isinstance(is_complete, str) else is_complete)

    return decorate


def _check_signature(function: Callable[..., Any], slots: list[Slot]) -> None:
    """Every slot is a parameter the function takes, and every parameter it needs is a required slot."""
    parameters = _parameters(function)
    if parameters is None:
        return  # a builtin without a signature: the call itself will say
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    named = {s.name: s for s in slots}
    for slot in slots:
        if slot.name not in parameters and not takes_any:
            raise ValueError(f"slot {slot.name!r} is not a parameter of {function.__name__}()")
    for parameter in parameters.values():
        needed = parameter.default is parameter.empty and parameter.kind in (parameter.POSITIONAL_OR_KEYWORD,
                                                                             parameter.KEYWORD_ONLY)
        if needed and parameter.name != EXECUTOR_ARG and not (parameter.name in named and named[parameter.name].required):
            raise ValueError(f"{function.__name__}() needs {parameter.name!r}: give it a slot with required: true")


def _parameters(function: Callable[..., Any]) -> Mapping[str, inspect.Parameter] | None:
    try:
        return inspect.signature(function).parameters
    except (TypeError, ValueError):
        return None


def _defined_in(function: Callable[..., Any]) -> Path:
    try:
        return Path(inspect.getsourcefile(function) or "<unknown>")
    except TypeError:  # a builtin
        return Path(f"<{getattr(function, '__module__', None) or 'builtin'}>")
