"""`mcagent call`: run tools by hand, in order, in one session; one JSON line per result."""

from __future__ import annotations

import argparse
import difflib
import json

from agent.cli.parser import add_config_flags, add_world_flags, load_from_args
from agent.cli.serving import add_server_flags, world_options
from agent.cli.tools_cmd import add_tools_flags, load_tools
from agent.errors import ConfigError, McAgentError
from agent.infospace import Infospace
from agent.session import bot_session
from agent.tools import Executor, Toolbox

# A throwaway infospace: calling tools by hand must not write into the agent's memory.
SCRATCH_INFOSPACE = ":memory:"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "call",
        help="run tools in order in one session and print each uniform return as a JSON line",
        description="Example: mcagent call mc-look '{\"facing\": \"north\"}' mc-observe-blocks --scenario room",
    )
    p.add_argument("steps", nargs="+", metavar="TOOL [JSON_ARGS]", help="tool names, each optionally followed by its JSON arguments")
    add_config_flags(p, "--port", "--username", "--version")
    add_world_flags(p)
    add_server_flags(p)
    add_tools_flags(p)
    p.set_defaults(handler=run)


def parse_steps(tokens: list[str], toolbox: Toolbox) -> list[dict]:
    """[name, '{json}', name, ...] -> actions; a bad name or bad JSON is a ConfigError (exit 2)."""
    actions: list[dict] = []
    for token in tokens:
        if token.lstrip().startswith("{"):
            if not actions or len(actions[-1]) > 1:
                raise ConfigError(f"arguments {token} follow no tool name")
            try:
                args = json.loads(token)
            except json.JSONDecodeError as e:
                raise ConfigError(f"arguments of {actions[-1]['type']} are not valid JSON: {e.msg} at column {e.colno}") from None
            if not isinstance(args, dict):
                raise ConfigError(f"arguments of {actions[-1]['type']} must be a JSON object, got {token}")
            actions[-1].update(args)
            continue
        if token not in toolbox.tools:
            close = difflib.get_close_matches(token, toolbox.tools, n=1)
            raise ConfigError(f"no tool named {token!r}" + (f"; did you mean {close[0]!r}?" if close else ""))
        actions.append({"type": token})
    return actions


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    toolbox = load_tools(loaded, args)
    actions = parse_steps(args.steps, toolbox)
    infospace = Infospace.open(SCRATCH_INFOSPACE)
    failed = 0
    try:
        with bot_session(loaded.config, world_options(args, loaded.config)) as session:
            executor = Executor(toolbox, infospace, world=session.bot)
            for action in actions:
                result = executor.execute_action(action)
                failed += not result.ok
                print(json.dumps({"tool": action["type"], **result.as_dict()}), flush=True)
    finally:
        infospace.close()
    if failed:
        raise McAgentError(f"{failed} of {len(actions)} calls failed")
    return 0
