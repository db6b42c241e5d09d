"""Keeping the bot in the world for a whole run, between the planner's steps.

A bot that lost its server (kicked, the connection dropped, the server died) fails its calls
at once with code `disconnected`, and an action in flight ends within a tick of the loss
(bridge/helpers/index.js). After the step, `after_step` brings it back: a local server that
died is started again on its port with the block changes it had (its journal), the bot
joins again with bounded backoff (config `reconnect`: attempts, total seconds) and goes back
to where it stood, and everything that held the old bot takes the new one (the executor, the
trace's pose, chat commands). If that fails the run ends at once: WorldLost, outcome
`disconnected`. A dead bot is respawned. Each is told to the model in one line.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from agent.bridge import BotDisconnected, BridgeError, timeouts
from agent.config.model import ReconnectSettings
from agent.mc.geometry import Vec3
from agent.planner.context import BodyNews
from agent.planner.control import WorldLost
from agent.server.local_server import ServerError
from agent.session.world import WorldSession
from agent.trace.schema import Rejoin
from agent.world.respawn import Respawned

# The first wait between tries to join; it doubles each time, within the total.
FIRST_BACKOFF_S = 0.5
# A killed server's socket closes a moment before its process is seen ended (the kernel closes
# its files, then reaps it; on a loaded machine that moment was long enough to read it alive).
SEEN_ENDED_S = 1.0
# A respawn waits for the new spawn (bridge/helpers/respawn.js: 10 s).
RESPAWN_S = 10.0
# Closer than this to where it stood before, the bot is not moved back.
BACK_WITHIN_BLOCKS = 1.0


class BodyKeeper:
    """The planner's BodyKeeper for a WorldSession; `record` takes the trace's Rejoin events."""

    def __init__(self, session: WorldSession, settings: ReconnectSettings, record: Callable[[Rejoin], None]):
        self.session, self.settings, self._record = session, settings, record
        self._last: Vec3 | None = None  # where the bot stood after the last step it was in the world

    def after_step(self) -> BodyNews | None:
        if not self.session.bot.connected:
            return self._rejoin()
        try:
            life = self.session.bot.call("respawn", timeout_s=RESPAWN_S + timeouts.CALL_S)
        except BotDisconnected:
            return self._rejoin()
        except BridgeError:
            return None  # the bot is there but did not answer: the next step will tell
        state = Respawned.model_validate(life)
        self._last = state.position
        if not state.respawned:
            return None
        return BodyNews(f"WORLD: you died; the runtime respawned you at {state.position.text()}.", respawned=True)

    def _rejoin(self) -> BodyNews:
        lost = self.session.bot.ended_reason or "connection lost"
        started = time.monotonic()
        restarted, restored = self._restart_if_dead(lost)
        attempts = self._join(lost, started)
        where = self._go_back()
        seconds = time.monotonic() - started
        self._record(Rejoin(lost=lost, attempts=attempts, seconds=seconds, server_restarted=restarted,
                            blocks_restored=restored))
        server = " after the local server was started again" if restarted else ""
        said = (f"WORLD: the connection to the server was lost ({lost}); the bot joined again{server} "
                f"in {seconds:.1f} s and is {where}. The step above may not have finished: check, then go on.")
        return BodyNews(said, rejoined=True)

    def _restart_if_dead(self, lost: str) -> tuple[bool, int]:
        """(whether the local server was started again, the block changes it put back)."""
        local = self.session.local
        if local is None or not local.ended_within(SEEN_ENDED_S):
            return False, 0
        how = local.ended_how()
        if not self.settings.restart_server or self.settings.attempts == 0:
            raise WorldLost(f"the local server died ({how}; {lost}) and reconnect.restart_server is off")
        try:
            info = local.restart()
        except ServerError as e:
            raise WorldLost(f"the local server died ({how}) and did not start again: {e}") from None
        self.session.server = info
        return True, info.restored

    def _join(self, lost: str, started: float) -> int:
        """Joins again with doubling waits, within the attempts and seconds allowed; the attempts made."""
        delay, problem = FIRST_BACKOFF_S, "no attempt allowed (reconnect.attempts is 0)"
        for attempt in range(1, self.settings.attempts + 1):
            left = self.settings.total_s - (time.monotonic() - started)
            if left <= 0:
                break
            try:
                self.session.join_again(timeout_s=min(timeouts.CONNECT_S, left))
                return attempt
            except BridgeError as e:
                problem = str(e)
            time.sleep(max(0.0, min(delay, self.settings.total_s - (time.monotonic() - started))))
            delay *= 2
        spent = time.monotonic() - started
        raise WorldLost(f"lost the server ({lost}) and could not join again ({spent:.1f} s, "
                        f"{self.settings.attempts} attempts allowed): {problem}")

    def _go_back(self) -> str:
        """Puts the bot back where it stood (a restarted server spawns it at the world's spawn);
        where it is, in words. A bot lost again meanwhile is the next step's to find."""
        try:
            return self._moved_back()
        except BridgeError as e:
            return f"somewhere unknown ({e})"

    def _moved_back(self) -> str:
        bot = self.session.bot
        here = bot.state().position
        if self._last is None or here.distance_to(self._last) <= BACK_WITHIN_BLOCKS:
            return f"at {here.text()}"
        if not self.session.teleport(self._last):
            return f"at {here.text()} (it could not be moved back to {self._last.text()})"
        return f"back at {bot.state().position.text()}, where it stood before"
