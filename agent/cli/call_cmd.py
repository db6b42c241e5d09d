"""`mcagent call`: run tools by hand, in order, in one session; one JSON line per result.

Notes and collections go into the configured infospace, as a run's do (said on stderr);
`--scratch` keeps them in a throwaway one."""

from __future__ import annotations

import argparse
import difflib
import json
import sys

from agent.cli.parser import add_config_flags, add_world_flags, load_from_args
from agent.cli.serving import add_server_flags, world_options
from agent.cli.tool_flags import add_tools_flags, load_tools
from agent.errors import ConfigError, McAgentError
from agent.infospace import Infospace, default_db_path
from agent.session import bot_session
from agent.tools import Executor, Toolbox

# --scratch: a throwaway infospace, gone when the command ends.
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
    p.add_argument("--scratch", action="store_true",
                   help="keep notes and collections in a throwaway infospace instead of the configured one")
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
    config = loaded.config
    where = SCRATCH_INFOSPACE if args.scratch else config.infospace or default_db_path(config.username)
    print("infospace: a scratch one, gone when this command ends" if args.scratch else f"infospace: {where}",
          file=sys.stderr)
    infospace = Infospace.open(where)
    failed = 0
    try:
        with bot_session(config, world_options(args, config)) as session:
            executor = Executor(toolbox, infospace, world=session.bot, tool_timeout_s=config.tool_timeout_s)
            for action in actions:
                executor.heard(json.dumps(action))  # the user typed these values: they count as confirmed
                result = executor.execute_action(action)
                failed += not result.ok
                print(json.dumps({"tool": action["type"], **result.as_dict()}), flush=True)
    finally:
        infospace.close()
    if failed:
        raise McAgentError(f"{failed} of {len(actions)} calls failed")
    return 0
