"""A world tool's parts are found under its one name: the folder mc-x holds the Skill.md named
mc-x and the tool.py with its `Args` and its `Result`; its bridge helper is
bridge/helpers/x.js, which registers the action the tool calls; an integration test names it.
And a helper owns no default of the tool's: called without the values the tool sends, it fails
bad_args before it touches the bot."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import yaml
from pydantic import BaseModel

from agent.node import node_binary
from agent.paths import BRIDGE_DIR, REPO_ROOT, WORLD_TOOLS_DIR
from agent.tools.frontmatter import PYTHON_ENTRY
from agent.tools.runners import import_tool_module
from agent.world.toolkit import ToolArgs

TOOLS_DIR = WORLD_TOOLS_DIR / "minecraft"
TOOLS = sorted(p.name for p in TOOLS_DIR.iterdir() if (p / "Skill.md").is_file())
HELPERS = BRIDGE_DIR / "helpers"
INTEGRATION = REPO_ROOT / "tests" / "integration"
# mc-explore has no bridge action of its own: it walks with mc-goto's `goto` and surveys into the map.
NO_HELPER = {"mc-explore"}
# Actions a tool makes through agent code rather than in its tool.py: mc-map surveys with
# agent/world/spatial/feed.py's survey_into.
CALLED_THROUGH = {"mc-map": {"survey"}}
CALL = re.compile(r"""\bcall\(\s*"(\w+)\"""")
PICK = re.compile(r"pick\(require\('\./([\w-]+)'\), \[([^\]]*)\]\)")


def registered() -> dict[str, set[str]]:
    """The actions bridge/helpers/index.js registers, by the helper file they come from."""
    index = (HELPERS / "index.js").read_text(encoding="utf-8")
    return {file: set(re.findall(r"'(\w+)'", names)) for file, names in PICK.findall(index)}


def called(name: str) -> set[str]:
    """The bridge actions the tool's tool.py names."""
    return set(CALL.findall((TOOLS_DIR / name / PYTHON_ENTRY).read_text(encoding="utf-8")))


def helper_of(name: str) -> str:
    return name.removeprefix("mc-")


def test_every_world_tool_is_named_mc_something() -> None:
    assert TOOLS and all(name.startswith("mc-") for name in TOOLS)


@pytest.mark.parametrize("name", TOOLS)
def test_the_skill_in_the_folder_is_named_as_the_folder(name: str) -> None:
    front = yaml.safe_load((TOOLS_DIR / name / "Skill.md").read_text(encoding="utf-8").split("---")[1])
    assert front["name"] == name


@pytest.mark.parametrize("name", TOOLS)
def test_the_result_model_is_in_the_tool_py_beside_the_args(name: str) -> None:
    module = import_tool_module(name, TOOLS_DIR / name / PYTHON_ENTRY)
    result, args = getattr(module, "Result", None), getattr(module, "Args", None)
    assert isinstance(result, type) and issubclass(result, BaseModel), f"{name}: its tool.py names no Result model"
    assert args is None or issubclass(args, ToolArgs), f"{name}: Args is not a ToolArgs model"


@pytest.mark.parametrize("name", TOOLS)
def test_the_bridge_helper_is_named_as_the_tool_and_registers_what_it_calls(name: str) -> None:
    actions = registered()
    every = set().union(*actions.values())
    assert called(name) <= every, f"{name} calls actions index.js does not register: {called(name) - every}"
    if name in NO_HELPER:
        assert helper_of(name) not in actions and not (HELPERS / f"{helper_of(name)}.js").exists()
        return
    assert (HELPERS / f"{helper_of(name)}.js").is_file(), f"{name}: no bridge/helpers/{helper_of(name)}.js"
    own = actions.get(helper_of(name), set())
    assert own & (called(name) | CALLED_THROUGH.get(name, set())), \
        f"{name}: {helper_of(name)}.js registers {sorted(own)}, none of what the tool calls ({sorted(called(name))})"


@pytest.mark.parametrize("name", TOOLS)
def test_an_integration_test_names_the_tool(name: str) -> None:
    assert any(name in path.read_text(encoding="utf-8") for path in INTEGRATION.glob("test_*.py")), name


# Every action invoked with no arguments on a bot that has nothing but a body: what it answers.
INVOKE_EMPTY = """
const { EventEmitter } = require('events')
const helpers = require('./helpers')
const handle = { ended: null, bot: { entity: {}, isAlive: true }, events: new EventEmitter().setMaxListeners(0) }
Promise.all(JSON.parse(process.argv[1]).map((name) => helpers.invoke(handle, name, '{}').then(JSON.parse)))
  .then((replies) => { console.log(JSON.stringify(replies)); process.exit(0) })
"""


def sent_always(name: str) -> bool:
    """Whether the tool's Args model always sends a value (one required, or with a default other than None)."""
    args = getattr(import_tool_module(name, TOOLS_DIR / name / PYTHON_ENTRY), "Args", None)
    return args is not None and any(f.is_required() or f.get_default(call_default_factory=True) is not None
                                    for f in args.model_fields.values())


def test_a_helper_refuses_a_call_without_the_values_its_tool_sends() -> None:
    actions = registered()
    asked = sorted({action for name in TOOLS if name not in NO_HELPER and sent_always(name)
                    for action in called(name) & actions.get(helper_of(name), set())})
    done = subprocess.run([node_binary(), "-e", INVOKE_EMPTY, json.dumps(asked)], capture_output=True, text=True,
                          cwd=BRIDGE_DIR, check=True, timeout=60)
    replies = dict(zip(asked, json.loads(done.stdout)))
    assert len(replies) > 15
    wrong = {action: reply for action, reply in replies.items() if reply.get("code") != "bad_args"}
    assert not wrong, wrong
    assert all("\n" not in reply["message"] for reply in replies.values())
