"""A Mineflayer bot driven from Python.

Every call is one round trip to bridge/helpers/index.js, answered with one JSON
string, bounded by an explicit timeout. Failures come back as BridgeError with
the helper's code; once the bot has left the server every call raises
BotDisconnected with the reason, at once.
"""

from __future__ import annotations

import json
import math
from typing import Any

from agent.bridge import runtime, timeouts
from agent.bridge.errors import BotDisconnected, BridgeError, ConnectError
from agent.bridge.events import EventLog
from agent.bridge.models import MAX_CHAT_LENGTH, BlockBox, BotEvent, BotState, BridgeReply, MoveReport, Orientation, PlayerPose, ViewerInfo
from agent.errors import first_line

# Events after which the bot is gone for good.
_ENDING = {"end", "kicked"}


class BotConnection:
    """One bot in the bridge's Node process. Use `connect()` to make one; close it (or use `with`)."""

    def __init__(self, handle: Any, *, host: str, port: int, username: str):
        self.host, self.port, self.username = host, port, username
        self.events = EventLog()
        self._handle = handle
        self._ended: str | None = None
        self._closed = False
        from javascript import On  # noqa: PLC0415 - the bridge is running by now

        # JSPyBridge tags the handler function with attributes: it must be a plain function.
        def listener(*args: Any) -> None:
            self._on_event(*args)

        with runtime.guarded():
            self._invoke = runtime.entry("invoke")  # read once, as Node started (runtime.ENTRIES)
            # Kept so that close() needs no round trip to find the channel again (Node may be gone).
            self._channel = handle.events
            self._listener = On(self._channel, "event")(listener)
        runtime.register(self)

    # --- events ---------------------------------------------------------

    def _on_event(self, *args: Any) -> None:
        # Runs on JSPyBridge's callback thread; the payload is the last argument.
        try:
            event = self.events.push(BotEvent.model_validate_json(args[-1]))
        except Exception:  # noqa: BLE001 - a bad event must not kill the callback thread
            return
        if event.kind in _ENDING and self._ended is None:
            self._ended = f"kicked: {event.reason}" if event.kind == "kicked" else f"connection ended ({event.reason})"

    # --- calls ----------------------------------------------------------

    @property
    def bot(self) -> Any:
        """The raw Mineflayer bot proxy, for what the helpers do not cover.

        Each access is a round trip. Keep the returned proxy in a variable while using it:
        JSPyBridge may free the JS object of a temporary proxy before a chained call reaches it.
        """
        self._check_usable()
        return self._handle.bot

    def _check_usable(self) -> None:
        if self._closed:
            raise BotDisconnected("bot connection was closed")
        if self._ended is not None:
            raise BotDisconnected(f"bot is disconnected: {self._ended}")
        if not runtime.node_alive():
            raise BotDisconnected("the Node bridge process has exited or was abandoned after an interrupt")

    def call(self, action: str, args: dict[str, Any] | None = None, *, timeout_s: float = timeouts.CALL_S) -> Any:
        """Runs a helper action; returns its result, or raises BridgeError with the helper's code.
        The helpers take their arguments as checked (a world tool's model holds their bounds); only
        numbers JavaScript cannot hold are refused here, before anything is sent."""
        self._check_usable()
        if not _sendable(args or {}):
            raise BridgeError(f"{action}: an argument is NaN, an infinity or an integer past 2**53; "
                              "expected numbers JavaScript holds exactly", code="bad_args")
        try:
            reply = _bridged(self._invoke, self._handle, action, json.dumps(args or {}), timeout_s=timeout_s)
        except BridgeError:
            if action != "stop":
                self.halt()  # the helper may still be running: it stops before its next step
            raise
        if reply.ok:
            return reply.result
        if reply.code == "disconnected":
            # Node heard of the loss first (its event may still be on the way): same reason either way.
            self._ended = self._ended or (reply.message or "connection lost").removeprefix("bot is disconnected: ")
            raise BotDisconnected(reply.message or "bot is disconnected")
        raise BridgeError(f"{action}: {reply.message}", code=reply.code or "internal")

    def halt(self) -> None:
        """Stops what the bot is doing: movement keys, the pathfinder, and any multi-step helper
        (it stops before its next step: bridge/helpers/stepwise.js). Best effort: never raises."""
        try:
            _bridged(self._invoke, self._handle, "stop", "{}", timeout_s=timeouts.CALL_S)
        except BridgeError:
            pass

    def state(self) -> BotState:
        return BotState.model_validate(self.call("state"))

    def player_pose(self, username: str) -> PlayerPose:
        """Where another player stands and looks, as this bot sees it."""
        return PlayerPose.model_validate(self.call("playerPose", {"username": username}))

    def look(self, yaw_deg: float, pitch_deg: float = 0.0) -> Orientation:
        """Turns to a yaw and pitch in degrees (Minecraft's convention, see models.py)."""
        return Orientation.model_validate(self.call("look", {"yaw_deg": yaw_deg, "pitch_deg": pitch_deg}))

    def hold(self, controls: list[str], seconds: float) -> MoveReport:
        """Holds movement controls (forward, back, left, right, jump, sprint, sneak) for `seconds`;
        stops early on a collision or a fall."""
        result = self.call("hold", {"controls": controls, "seconds": seconds}, timeout_s=seconds + timeouts.CALL_S)
        return MoveReport.model_validate(result)

    def chat(self, text: str) -> None:
        """Says `text` in the game's chat, cut to the protocol's limit (a server drops a client
        that sends more)."""
        self.call("chat", {"text": text[:MAX_CHAT_LENGTH]})

    def scan_box(self, radius: int, half_height: int) -> BlockBox:
        """Block names within `radius` blocks horizontally and `half_height` vertically of the feet block."""
        return BlockBox.model_validate(self.call("scanBox", {"radius": radius, "half_height": half_height}))

    def block_at(self, x: int, y: int, z: int) -> str | None:
        """Name of the block at world block coordinates; None where the chunk is not loaded."""
        return self.call("blockAt", {"x": x, "y": y, "z": z})

    def start_viewer(self, port: int, *, host: str = "127.0.0.1", first_person: bool = False) -> ViewerInfo:
        """Starts the web viewer (prismarine-viewer) for this bot; it stops when the bot leaves.

        It listens on `host` only: 127.0.0.1 unless a person asks for more.
        """
        args = {"port": port, "host": host, "first_person": first_person}
        return ViewerInfo.model_validate(self.call("viewer", args, timeout_s=timeouts.CALL_S + timeouts.MARGIN_S))

    # --- lifetime -------------------------------------------------------

    @property
    def connected(self) -> bool:
        return not self._closed and self._ended is None

    @property
    def ended_reason(self) -> str | None:
        """Why the bot left the server ("kicked: ...", "connection ended (...)"); None while it is on it."""
        return self._ended

    def close(self) -> None:
        """Leaves the server and removes the event handler. Idempotent, never raises.

        When Node is already gone (a terminal's Ctrl-C reaches it too) there is nothing to leave.
        """
        if self._closed:
            return
        self._closed = True
        if not runtime.node_alive():
            return  # nothing to leave; JSPyBridge's exit hook does not wait on a dead Node
        from javascript import off  # noqa: PLC0415

        try:
            with runtime.guarded():
                off(self._channel, "event", self._listener)
            _bridged(runtime.entry("quit"), self._handle, "client quit", timeout_s=timeouts.QUIT_S)
        except Exception:  # noqa: BLE001 - leaving is best effort; Node's lifeline ends the bot if Python goes
            pass

    def __enter__(self) -> BotConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def connect(
    *,
    host: str = "127.0.0.1",
    port: int,
    username: str = "mcagent",
    version: str | None = None,
    timeout_s: float = timeouts.CONNECT_S,
) -> BotConnection:
    """Joins a server in offline mode and waits for spawn; `version` None asks the server.

    Raises ConnectError with one line a person can act on (refused, kicked, timeout, ...).
    """
    handle = _bridged(runtime.entry("createHandle"), timeout_s=timeouts.CALL_S, raw=True)
    conn = BotConnection(handle, host=host, port=port, username=username)
    args = {"host": host, "port": port, "username": username, "version": version, "timeout_ms": int(timeout_s * 1000)}
    reply = _bridged(runtime.entry("connect"), handle, json.dumps(args), timeout_s=timeout_s + timeouts.MARGIN_S)
    if not reply.ok:
        conn.close()
        raise ConnectError(reply.message or "connect failed", code=reply.code or "join_failed")
    return conn


def _bridged(fn: Any, *args: Any, timeout_s: float, raw: bool = False) -> Any:
    """One JSPyBridge call with an explicit bound; JS-side throws and timeouts become BridgeError."""
    try:
        with runtime.guarded():
            answer = fn(*args, timeout=timeout_s)
    except Exception as e:  # noqa: BLE001 - JSPyBridge raises bare Exception on timeouts
        raise BridgeError(f"bridge call failed: {first_line(e)}", code="bridge") from None
    return answer if raw else BridgeReply.model_validate_json(answer)


# JavaScript's numbers are doubles: integers past this lose digits (JSON.parse reads 1e400 as
# Infinity), and NaN and infinities are no JSON at all.
_SAFE_INTEGER = 2**53


def _sendable(value: Any) -> bool:
    """Whether every number anywhere in `value` reaches a helper as it is."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int):
        return abs(value) <= _SAFE_INTEGER
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return all(_sendable(item) for item in items)
