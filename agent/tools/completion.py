"""Is-complete: a tool's own check of a successful result, written in the expression language of
method protocols (agent/protocol/expressions.py) over two roots:

    data   the result's data: a world tool's report, a python tool's return
    args   the call's arguments, every one the tool declares: one not given is its schema
           default, else null

    complete_when: data.gone                                          (mc-dig: the block is not there)
    complete_when: args.blocks == null or data.moved >= args.blocks - 0.5    (mc-move)

A success whose check is false, or cannot be answered (a field missing from data), becomes failed,
code incomplete, naming the check; the data stays, for the planner to read. A decorated tool may
give a Python function instead (agent/tools/registry.py); both end the same way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from agent.protocol.expressions import Expression, ExpressionError, parse_expression
from agent.tools.result import ToolResult
from agent.tools.schema import JsonSchema

ROOTS = ("data", "args")


@lru_cache(maxsize=256)
def parse_completion(source: str) -> Expression:
    """The check in `source`; a ValueError naming the problem, its column and what is accepted."""
    try:
        return parse_expression(source, ROOTS)
    except ExpressionError as e:
        raise ValueError(e.message) from None


def unknown_args(source: str, declared: list[str]) -> str | None:
    """A problem when the check reads an argument the tool does not take, else None."""
    for root, parts in parse_completion(source).paths():
        if root == "args" and parts and parts[0] not in declared:
            accepted = ", ".join(declared) or "none"
            return f"complete_when reads args.{parts[0]}, which the tool does not take (arguments: {accepted})"
    return None


def judged(source: str | None, schema: JsonSchema | None, args: dict[str, Any], result: ToolResult) -> ToolResult:
    """`result`, or failed `incomplete` when it is a success that the check `source` does not pass.
    An argument not given is its schema default in the check, else null."""
    if source is None or not result.ok:
        return result
    defaults = {name: prop.default for name, prop in schema.properties.items()} if schema else {}
    scope = {"data": result.data, "args": defaults | args}
    verdict = parse_completion(source).holds(scope)
    if verdict:
        return result
    return incomplete(f"{source} {'is false' if verdict is False else 'could not be judged'}", result)


def incomplete(why: str, result: ToolResult) -> ToolResult:
    """The failure a success that did not achieve its step becomes: what was expected, what came."""
    came = f"; the tool said: {result.value}" if result.value else ""
    return ToolResult.failure("incomplete", f"incomplete: expected {why}{came}", result.data)
