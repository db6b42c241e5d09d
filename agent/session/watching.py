"""What a planning command attaches around a run in the world: the bot's pose and events into
the trace, chat commands from the allowlist, method announcements in chat, and the run's
setup for the trace's run_start."""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from agent.bridge import BotConnection, BridgeError
from agent.bridge.models import BotEvent
from agent.chat import CHAT_SECRET_ENV, ChatCommand, ChatCommander, GoalExchange, announce, chat_secret, for_the_record
from agent.session.chat_goals import chat_reader
from agent.session.world import WorldSession
from agent.config import AgentConfig
from agent.llm import Metered, parse_spec
from agent.planner import Planner
from agent.server.exposure import is_loopback
from agent.trace import RunSetup, TraceWriter
from agent.trace.schema import Chat, ChatGoal, Command, Death, Disconnect, Error, Event, MethodEnd, MethodStart, Pose, Respawn
from agent.trace.writer import PoseSource

PACKAGE = "mcagent"


@contextmanager
def watching(session: WorldSession, planner: Planner, config: AgentConfig) -> Iterator[None]:
    """The bot's pose and events into the trace, chat commands and goals (read in the bot's
    world, asked back about when understood in part), announcements; a bot that joins again
    (agent/session/keeper.py) is watched the same way from then on."""
    trace = planner.trace
    if config.announce_methods:
        trace.subscribe(lambda event: _announce(session, event))
    commanders: list[ChatCommander] = []
    stops: list[Callable[[], None]] = []
    secret = chat_secret()
    # Where anyone may take any name, a name on the allowlist proves nothing.
    secret_required = config.server.public or not is_loopback(session.address.rpartition(":")[0])
    mc_version = session.server.version if session.server is not None else config.mc_version
    if secret_required and secret is None and config.chat_allowlist:
        print(f"chat: commands are refused: the server is open to the network and {CHAT_SECRET_ENV} is not set",
              file=sys.stderr)

    def watch(bot: BotConnection) -> None:
        trace.pose = _bot_pose(bot)
        stops.append(bot.events.subscribe(lambda event: _trace_bot_event(trace, event)))
        for old in commanders:
            old.close()
        commanders[:] = [ChatCommander(
            bot, config.chat_allowlist, on_stop=planner.control.request_stop, on_goal=planner.control.add_goal,
            status=planner.status_line, on_event=lambda record: trace.add(_chat_event(record)),
            secret=secret, secret_required=secret_required, read=chat_reader(bot, mc_version),
        )]

    watch(session.bot)
    stops.append(session.on_rejoin(watch))
    try:
        yield
    finally:
        for commander in commanders:
            commander.close()
        for stop in stops:
            stop()


def _bot_pose(bot: BotConnection) -> PoseSource:
    """The bot's pose, for tool calls: one state round trip (well under a millisecond); None
    when the bot cannot answer (disconnected), since a pose must never fail a call."""

    def pose() -> Pose | None:
        try:
            state = bot.state()
        except BridgeError:
            return None
        p = state.position
        return Pose(x=p.x, y=p.y, z=p.z, yaw_deg=state.yaw_deg, pitch_deg=state.pitch_deg)

    return pose


def _chat_event(record: ChatCommand | GoalExchange) -> Event:
    """A command, or a turn of a goal said in chat, as the trace's event."""
    if isinstance(record, GoalExchange):
        return ChatGoal(**record.model_dump())
    return Command(**record.model_dump())


def _trace_bot_event(trace: TraceWriter, event: BotEvent) -> None:
    """Chat, death, respawn and disconnects go into the trace; the rest is the bot's own business."""
    if event.kind in ("chat", "whisper"):
        trace.add(Chat(username=event.username, message=for_the_record(event.message or ""), whisper=event.kind == "whisper"))
    elif event.kind == "death":
        trace.add(Death())
    elif event.kind == "respawn":
        trace.add(Respawn())
    elif event.kind in ("kicked", "end"):
        trace.add(Disconnect(kind=event.kind, reason=event.reason or ""))
    elif event.kind == "error":
        trace.add(Error(source="bot", message=event.message or event.reason or "unknown error"))


def _announce(session: WorldSession, event: Event) -> None:
    if isinstance(event, MethodStart):
        announce(session.bot, f"{event.method} started")
    elif isinstance(event, MethodEnd):
        announce(session.bot, f"{event.method} ended: {event.outcome}")


def run_setup(config: AgentConfig, session: WorldSession, backend: Metered) -> RunSetup:
    server = session.server
    return RunSetup(
        config=config.model_dump(mode="json"),
        package_version=importlib.metadata.version(PACKAGE),
        mc_version=server.version if server is not None else session.bot.state().version,
        llm_backend=parse_spec(config.llm).kind,
        llm_model=backend.name.partition(":")[2],
        server=session.address,
        local_server=server is not None,
        scenario=server.scenario if server is not None else None,
        seed=server.seed if server is not None else None,
    )
