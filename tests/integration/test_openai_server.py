"""The planner through `openai:` against a real OpenAI-compatible server: llama-cpp-python's,
serving the embedded SmolLM2 on a loopback port (agent/serving/model_server.py). No fake stands in:
the runs below plan in a real flying-squid world with a real bot, and what the server
reported (tokens, cache hits, latencies) is read back from the trace."""

from __future__ import annotations

import json

import pytest

from agent.llm import open_backend
from agent.serving.model_server import LocalLlamaServer
from agent.trace import read_trace
from agent.trace.schema import LlmCall, OuterStep, RunEnd, RunStart
from support.planning import rig, run_config
from support.procs import mcagent, new_token, transcript

GOAL = "get out of the room to open sky"


@pytest.fixture(scope="module")
def server():
    # One thread: the Minecraft server, the bridge and the planner share the two cores with it.
    with LocalLlamaServer(engine="llama-cpp-python", threads=1) as running:
        yield running


def _run(tmp_path, spec: str) -> list:
    """A run whose model chooses every tool (llm_weight 1: these tests are of the server's path, and a
    model never measured weighs nothing, agent/planner/prior.py)."""
    trace = tmp_path / "run" / "trace.jsonl"
    done = mcagent("run", "--goal", GOAL, "--config", str(run_config(tmp_path, "llm_weight: 1\n")), "--scenario", "room",
                   "--port", "0", "--llm", spec, "--max-steps", "2", "--trace", str(trace),
                   token=new_token(), timeout_s=300)
    assert done.returncode in (0, 1), transcript(done)
    events = read_trace(trace).events
    [end] = [e for e in events if isinstance(e, RunEnd) and e.plan == 0]
    assert end.outcome in ("success", "max_steps"), transcript(done)  # the world decides; the server never failed
    return events


def test_completion_mode_constrains_every_choice_with_the_servers_grammar_and_reuses_its_cache(server, tmp_path):
    events = _run(tmp_path, server.spec("completion"))
    start = next(e for e in events if isinstance(e, RunStart))
    assert start.capabilities.select and start.capabilities.json_schema and not start.capabilities.whole_turns
    calls = [e for e in events if isinstance(e, LlmCall)]
    assert calls and all(c.backend == server.spec("completion") for c in calls)
    for step in (e for e in events if isinstance(e, OuterStep)):
        assert step.tool in start.tools  # held to the catalog by the grammar, never a near miss
        assert step.note is None or "not a valid" not in step.note
    selects = [c for c in calls if c.kind == "select"]
    assert selects and all(c.completion in c.choices for c in selects)
    # What the server reported lands in the trace: tokens in and out, its cache hits, the latency.
    assert all(c.tokens_in > 0 and c.latency_s > 0 for c in calls)
    later = calls[1:]
    assert later and sum(c.tokens_prefilled for c in later) < 0.25 * sum(c.tokens_in for c in later)


def test_chat_mode_asks_each_decision_as_one_json_reply_held_to_the_tools(server, tmp_path):
    events = _run(tmp_path, server.spec("chat"))
    start = next(e for e in events if isinstance(e, RunStart))
    assert start.capabilities.whole_turns and start.capabilities.json_schema
    calls = [e for e in events if isinstance(e, LlmCall)]
    assert calls and {c.kind for c in calls} == {"gen"}
    # A reply the grammar held parses, and names a tool of the catalog. SmolLM2 sometimes loops
    # ("1.1.1.…") until the turn's token bound cuts it off: such a reply is asked once more, and
    # if it is cut off again the step fails as having no tool, never as a tool it did not name.
    decisions = [d for d in map(_parsed, (c.completion for c in calls)) if d is not None]
    actions = [d for d in decisions if "TOOL_NAME" in d]
    assert actions and all(d["TOOL_NAME"] in start.tools for d in actions)
    steps = [e for e in events if isinstance(e, OuterStep)]
    assert steps and all(s.decided.tool == "model" for s in steps)
    assert all(s.tool in start.tools or (s.tool is None and "not a JSON object" in s.note) for s in steps)
    assert all(c.tokens_in > 0 and c.latency_s > 0 for c in calls)
    if len(calls) > 1:
        assert calls[-1].tokens_prefilled < calls[-1].tokens_in // 2  # the growing chat reuses its prefix


def _parsed(text: str) -> dict | None:
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        return None


def test_the_unmodified_llama_cpp_server_serves_the_planner_with_its_cache_hits_unknown():
    with LocalLlamaServer(engine="llama-cpp-python", threads=1, plain=True) as plain:
        backend = open_backend(plain.spec())
        # Three tools: a select still chooses among several, but each of its choices is a whole
        # prompt prefilled again (the plain server keeps no cache); the full catalog's 29 took 32 s.
        r = rig(None, backend=backend, max_steps=1, tools=["measure", "think", "size"])
        result = r.run()
    assert result.outcome in ("done", "max_steps") and backend.capabilities.select
    calls = [e for e in r.trace.events if isinstance(e, LlmCall)]
    assert any(c.kind == "select" and len(c.choices) == 3 for c in calls)
    assert calls and all(c.tokens_prefilled == c.tokens_in > 0 for c in calls)  # no cache figure: all counted
