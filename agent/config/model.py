"""The agent's configuration: one model, one YAML file, every key overridable by a flag."""

from __future__ import annotations

from pathlib import Path
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from agent.config.layers import StrictModel
from agent.paths import DEFAULT_SERVER_SETTINGS, SKILLS_DIR

Port = Annotated[int, Field(ge=0, le=65535)]


def _matching(pattern: str, accepted: str):
    """A string type checked against `pattern`, whose error says what is `accepted`."""

    def check(value: str) -> str:
        if not re.fullmatch(pattern, value):
            raise ValueError(f"expected {accepted}")
        return value

    return Annotated[str, AfterValidator(check)]


# Offline-mode names: what vanilla and flying-squid accept.
Username = _matching(r"[A-Za-z0-9_]{3,16}", "3 to 16 letters, digits or underscores")
McVersion = _matching(r"1\.\d+(\.\d+)?", "a Minecraft release such as 1.20.4")
LlmSpec = _matching(
    r"sglang:.+|llama-server:.+|openai:.+|llamacpp(:.+)?|scripted:.+|replay:.+|random(:-?\d+)?",
    "sglang:URL, llama-server:URL[?slot=N], openai:BASE_URL#MODEL, llamacpp[:NAME|PATH.gguf], scripted:PATH, "
    "replay:TRACE or random[:SEED]",
)

PythonModule = _matching(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*)?",
                         "a Python module such as mytools.mining, or module:function")


class ServerTarget(StrictModel):
    """Which Minecraft server the bot joins."""

    kind: Literal["local", "remote"] = Field(
        "local", description="local: start the embedded flying-squid server; remote: join host:port"
    )
    host: str = Field("127.0.0.1", description="address to join (remote) or to bind (local)")
    public: bool = Field(
        False, description="local server: may bind a host other than loopback; its operators are then only "
                           "server-config's operators, and chat commands need the chat secret",
    )
    port: Port = Field(25565, description="server port; for a local server 0 picks a free one")
    settings: Path = Field(DEFAULT_SERVER_SETTINGS, description="local server settings file (server-config/)")
    scenario: str | None = Field(
        None, description="local server only: a scenario name from server-config/scenarios/ or a YAML path"
    )


class ViewerSettings(StrictModel):
    """The web viewer (prismarine-viewer) that --viewer starts."""

    host: str = Field("127.0.0.1", description="address it listens on; anything but loopback exposes it")
    port: Port = Field(3007, description="its port; 0 picks a free one")
    first_person: bool = Field(False, description="through the bot's eyes instead of from behind it")


class ReconnectSettings(StrictModel):
    """What a run does when the bot loses its server (agent/session/rejoin.py)."""

    attempts: int = Field(5, ge=0, le=100, description="tries to rejoin after a disconnect; 0: end the run at once")
    total_s: float = Field(30.0, gt=0, le=3600, description="seconds all tries together may take")
    restart_server: bool = Field(
        True, description="local server only: start it again (same world folder) when it died"
    )


class AgentConfig(StrictModel):
    """Everything mcagent reads from mcagent.yaml. Later steps add their keys here."""

    server: ServerTarget = ServerTarget()
    username: Username = "mcagent"
    mc_version: McVersion | None = Field(
        None, description="version to serve and join with; null: a local server serves 1.20.4, the bot asks the server"
    )
    llm: LlmSpec = "llamacpp"
    llm_threads: int | None = Field(
        None, ge=1, le=256, description="CPU threads of an in-process model (llamacpp); null: every core"
    )
    llm_thoughts: bool | None = Field(
        None, description="ask the model for THOUGHTS and the outer NEXT_TASK (free text); null: the backend's "
                          "default, off for an in-process model under 1 B parameters (mcagent llm check shows its text)",
    )
    llm_weight: float | None = Field(
        None, ge=0, le=1, description="the model's weight in tool choices against the runtime's prior (0: never "
                                      "asked, 1: SayCan's product); null: as mcagent llm check measured it on the "
                                      "choice set, 0 when never measured",
    )
    llm_api_key_env: str = Field(
        "OPENAI_API_KEY", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="the environment variable holding an openai: server's API key (never written anywhere)",
    )
    llm_timeout_s: float = Field(120.0, gt=0, le=3600, description="sglang:/openai: seconds one request may take")
    llm_retries: int = Field(3, ge=0, le=10, description="sglang:/openai: further tries after a 429, a 5xx or a drop")
    tool_timeout_s: float = Field(
        60.0, gt=0, le=3600, description="seconds a python tool may run when its Skill.md sets no timeout_s"
    )
    reconnect: ReconnectSettings = ReconnectSettings()
    world: str = Field("minecraft", description="which world-tools/<world>/ folder supplies the world tools")
    tool_folders: list[Path] = Field(
        default_factory=lambda: [SKILLS_DIR],
        description="folders scanned for Skill.md tools (relative ones: to the config file's folder)",
    )
    tool_modules: list[PythonModule] = Field(
        default_factory=list,
        description="Python modules whose @register_tool functions are tools (installed packages' "
                    "mcagent.tools entry points are always read)",
    )
    trace_dir: Path = Field(Path("runs"), description="where run traces are written")
    viewer: ViewerSettings = ViewerSettings()
    infospace: Path | None = Field(
        None, description="the SQLite file of notes and collections; null: one per username in the user's data folder"
    )
    chat_allowlist: list[Username] = Field(
        default_factory=list, description="players allowed to steer the bot from chat"
    )
    max_steps: int = Field(20, ge=1, le=1000, description="outer planner steps per run (mcagent run --max-steps)")
    catalog: Literal["ranked", "full"] = Field(
        "ranked", description="what the outer loop offers the model: ranked, the tools that fit the goal best; "
                              "full, every tool (mcagent run --catalog; --tools names them)")
    catalog_size: int = Field(6, ge=1, le=64, description="how many tools a ranked catalog offers")
    method_max_steps: int | None = Field(
        None, ge=1, le=1000, description="inner steps per method call; null: the method's own max_steps, else 24"
    )
    announce_methods: bool = Field(
        True, description="run and demo: the bot says in chat when a method starts and ends, and how"
    )
