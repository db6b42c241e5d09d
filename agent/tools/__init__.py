"""Tools: Skill.md folders loaded as serializable specs, run through one executor.

    toolbox = load_toolbox(standard_sources(config.world, config.tool_folders))
    executor = Executor(toolbox, Infospace.open(path))
    executor.execute_action({"type": "create-note", "content": "hello", "as": "greeting"})
"""

from agent.tools.catalog import catalog_entries, catalog_text
from agent.tools.executor import Executor
from agent.tools.interfaces import LlmBackend, MethodRunner, ToolContext
from agent.tools.loader import Toolbox, ToolSource, load_toolbox, standard_sources
from agent.tools.result import ActionRecord, ToolFailure, ToolResult
from agent.tools.spec import LoadError, ToolSpec

__all__ = [
    "ActionRecord",
    "Executor",
    "LlmBackend",
    "LoadError",
    "MethodRunner",
    "ToolContext",
    "ToolFailure",
    "ToolResult",
    "ToolSource",
    "ToolSpec",
    "Toolbox",
    "catalog_entries",
    "catalog_text",
    "load_toolbox",
    "standard_sources",
]
