"""A team on the real server (`mcagent run --team FILE`, `--bots N`): a bot per teammate in one
world, each planning on its own thread; each carries what the team file gives it and lacks the
tools it is denied; the team's goal is reached when one bot reaches it, and the others stop;
each bot's trace is in a folder of its own, and `mcagent replay FOLDER` shows them as one
timeline. With the in-process model, the team gets a llama-server with a slot per bot; with
--viewer, each bot gets a viewer of its own. Ctrl-C stops every bot and still prints the team's
summary."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from agent.trace import read_trace
from support.planning import FIXTURES, NOTE_POLICY, run_config
from support.procs import (env_with_token, interruptible, listening_addresses, mcagent, new_token, transcript,
                           wait_until_gone)

FIRST_OFFER = FIXTURES / "planner" / "first_offer_policy.py"


def test_a_team_file_gives_each_bot_its_own_and_the_team_is_done_when_one_is_done(tmp_path: Path) -> None:
    team = tmp_path / "team.yaml"
    team.write_text("goal: Craft 4 sticks\nbots:\n"
                    "  - {name: Ada, inventory: [{name: oak_planks, count: 2}]}\n"
                    "  - {name: Bob, inventory: [], denied: [mc-craft, craft]}\n")
    trace, token = tmp_path / "run" / "trace.jsonl", new_token()
    done = mcagent("run", "--team", str(team), "--scenario", "flat", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{FIRST_OFFER}", "--max-steps", "4",
                   "--trace", str(trace), token=token, timeout_s=300)
    assert done.returncode == 0, transcript(done)
    assert "team: Ada, Bob; goal: Craft 4 sticks" in done.stdout
    # the team's goal is the team's to hold (team_has): Ada's sticks reach it for Bob too
    assert "team: verified (Ada" in done.stdout and "team_has stick 4 holds: 4 with Ada" in done.stdout, transcript(done)
    ada, bob = (read_trace(tmp_path / "run" / name / "trace.jsonl") for name in ("Ada", "Bob"))
    assert ada.end.outcome == "success" and bob.end.outcome in ("success", "stopped"), transcript(done)
    assert "mc-craft" in ada.start.tools and not {"mc-craft", "craft"} & set(bob.start.tools)
    assert any(line.startswith("Ada: step ") for line in done.stdout.splitlines()), transcript(done)
    assert wait_until_gone(token, timeout_s=5) == []

    shown = mcagent("replay", str(tmp_path / "run"), token=new_token(), timeout_s=60)
    lines = shown.stdout.splitlines()
    assert shown.returncode == 0 and any(l.startswith("Ada: ") for l in lines) and any(l.startswith("Bob: ") for l in lines)


def test_bots_n_with_the_in_process_model_share_a_llama_server_a_slot_each(tmp_path: Path) -> None:
    # A goal with no check: the model is asked DONE (and a note's words), so each slot serves calls.
    # A goal with a check would cost the model none: the runtime's prior chooses (agent/planner/prior.py).
    trace, token = tmp_path / "run" / "trace.jsonl", new_token()
    done = mcagent("run", "--bots", "2", "--goal", "keep notes of what you see", "--scenario", "flat", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", "llamacpp", "--max-steps", "1",
                   "--trace", str(trace), token=token, timeout_s=400)
    assert "team: mcagent1, mcagent2; goal: keep notes of what you see" in done.stdout, transcript(done)
    for i in (1, 2):
        run = read_trace(tmp_path / "run" / f"mcagent{i}" / "trace.jsonl")
        assert run.start.llm.endswith(f"?slot={i - 1}") and run.start.llm.startswith("llama-server:http://127.0.0.1:")
        assert run.end is not None and run.end.usage.calls >= 1, transcript(done)
    assert wait_until_gone(token, timeout_s=10) == []  # the llama-server too


def test_bench_team_measures_each_bots_steps_and_episodes_an_hour(tmp_path: Path) -> None:
    token = new_token()
    done = mcagent("bench", "team", "--bots", "1,2", "--steps", "1", "--llm", f"scripted:{FIRST_OFFER}",
                   "--out", str(tmp_path), "--json", token=token, timeout_s=300)
    assert done.returncode == 0, transcript(done)
    rows = json.loads(done.stdout)
    assert [(r["bots"], r["steps"]) for r in rows] == [(1, 1), (2, 2)]  # every bot planned its step
    assert all(r["episodes_per_hour"] > 0 and r["step_llm"]["n"] == r["steps"] for r in rows)
    assert wait_until_gone(token, timeout_s=5) == []


def test_ctrl_c_stops_every_bot_and_ends_the_team_with_its_summary_and_130(tmp_path: Path) -> None:
    trace, token, errors = tmp_path / "run" / "trace.jsonl", new_token(), tmp_path / "stderr.txt"
    with errors.open("w") as stderr:  # the child keeps its own copy
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "run", "--bots", "2", "--goal", "keep notes of what you see", "--port",
             "0", "--config", str(run_config(tmp_path)), "--llm", f"scripted:{NOTE_POLICY}", "--max-steps", "1000",
             "--trace", str(trace), "--viewer", "--viewer-port", "0"],
            stdout=subprocess.PIPE, stderr=stderr, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
            preexec_fn=interruptible,
        )
    try:
        seen: set[str] = set()
        for line in proc.stdout:  # both bots past their second step
            seen |= {bot for bot in ("mcagent1", "mcagent2") if line.startswith(f"{bot}: step 2 ")}
            if len(seen) == 2:
                break
        assert len(seen) == 2, "the bots never reached step 2"
        viewers = _viewers(errors.read_text())  # printed when each bot joined, before any step
        assert set(viewers) == {"mcagent1", "mcagent2"} and len(set(viewers.values())) == 2, viewers
        for url in viewers.values():
            assert "Prismarine Viewer" in urllib.request.urlopen(url, timeout=5).read().decode()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    err = errors.read_text()
    assert proc.returncode == 130, err
    assert out.count("outcome: stopped (stopped, as Ctrl-C asked)") == 2 and "team: not verified" in out, out + err
    assert "Traceback" not in err
    for bot in ("mcagent1", "mcagent2"):
        assert read_trace(tmp_path / "run" / bot / "trace.jsonl").end.outcome == "stopped"
    assert wait_until_gone(token, timeout_s=5) == []
    assert all(listening_addresses(urlsplit(url).port) == [] for url in viewers.values()), "a viewer outlived the run"


def _viewers(stderr: str) -> dict[str, str]:
    """The viewers a run said it started on stderr: {bot: url}."""
    return {bot: url for url, bot in re.findall(r"^viewer: (\S+) follows (\S+) ", stderr, re.MULTILINE)}


def test_bots_on_threads_of_their_own_call_the_bridge_at_once_and_each_gets_its_own_reply(bot, observer) -> None:
    """A thread per bot, all starting together, each asking its bot's state over and over: every
    call comes back, with its own bot's answer (a reply handed to the wrong call, or lost, fails)."""
    start, wrong, errors = threading.Barrier(6), [], []

    def ask(conn) -> None:
        start.wait()
        for _ in range(150):
            try:
                if conn.state().username != conn.username:
                    wrong.append(conn.username)
            except Exception as e:  # noqa: BLE001 - counted: no call may fail
                errors.append(f"{conn.username}: {e}")

    threads = [threading.Thread(target=ask, args=(conn,)) for conn in (bot, observer) * 3]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes: a race shows at once
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert (errors, wrong) == ([], [])


def test_two_bots_with_an_iron_ingot_each_craft_shears_one_asking_the_other(tmp_path: Path) -> None:
    """`mcagent run --bots 2 --scenario ingot-each`: shears take two ingots and each bot carries
    one; the craft refuses for want of what a teammate carries, the bot that gathers asks, the
    other hands its ingot over, and the shears are the team's."""
    trace, token = tmp_path / "run" / "trace.jsonl", new_token()
    done = mcagent("run", "--bots", "2", "--scenario", "ingot-each", "--port", "0", "--config",
                   str(run_config(tmp_path)), "--llm", f"scripted:{FIRST_OFFER}", "--max-steps", "8",
                   "--trace", str(trace), token=token, timeout_s=300)
    assert done.returncode == 0 and "team: verified (mcagent1, mcagent2 reached it)" in done.stdout, transcript(done)
    lines = done.stdout.splitlines()
    assert any(l.startswith("mcagent1: step ") and "mc-tell" in l for l in lines), transcript(done)
    assert any(l.startswith("mcagent2: read before step ") and "mcagent1: please give me 1 iron_ingot" in l for l in lines)
    assert any(l.startswith("mcagent2: step ") and "mc-give" in l and "success" in l for l in lines), transcript(done)
    assert "team_has shears 1 holds: 1 with mcagent1" in done.stdout
    assert wait_until_gone(token, timeout_s=5) == []
