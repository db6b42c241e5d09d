from agent.bridge import timeouts
from agent.world.respawn import Respawned
from agent.world.toolkit import NoArgs, call, run_tool

# bridge/helpers/respawn.js waits up to 10 s for the new spawn.
RESPAWN_S = 10.0


Result = Respawned


def summarize(r: Result) -> str:
    return f"{'respawned' if r.respawned else 'already alive'} at {r.position.text()}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("respawn", timeout_s=RESPAWN_S + timeouts.CALL_S), Result, summarize)
