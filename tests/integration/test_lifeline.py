"""No Node process outlives the Python process that started it, however Python dies."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

from agent.bridge import BotConnection
from agent.server import ServerInfo
from support.procs import env_with_token, new_token, processes_with_token, wait_until_gone
from support.observing import seen
from support.waiting import wait_for

HOLDER = textwrap.dedent("""
    import sys, time
    from agent.bridge import connect
    bot = connect(port=int(sys.argv[1]), username=sys.argv[2])
    print("ready", flush=True)
    {ending}
""")


def _start_holder(server: ServerInfo, username: str, ending: str, token: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER.format(ending=ending), str(server.port), username],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
    )
    assert child.stdout.readline().strip() == "ready", child.stderr.read()
    return child


def test_sigkill_of_python_ends_its_node_bridge_and_bot(server: ServerInfo, observer: BotConnection) -> None:
    token = new_token()
    child = _start_holder(server, "doomed", "time.sleep(60)", token)
    try:
        assert wait_for(lambda: seen(observer, "doomed")), "observer never saw the doomed bot"
        assert processes_with_token(token), "the Node bridge should be running"
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert wait_until_gone(token, timeout_s=5) == [], "the Node bridge outlived its Python process"
        assert wait_for(lambda: not seen(observer, "doomed")), "the bot stayed online"
    finally:
        child.kill()


def test_exception_in_python_still_exits_promptly(server: ServerInfo) -> None:
    """An uncaught exception with a bot connected: Python exits, and takes Node with it."""
    token = new_token()
    child = _start_holder(server, "crasher", "raise RuntimeError('boom')", token)
    try:
        child.wait(timeout=10)
        assert child.returncode == 1 and "RuntimeError: boom" in child.stderr.read()
        assert wait_until_gone(token, timeout_s=5) == []
    finally:
        child.kill()



STARTING = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from agent.bridge import runtime
    # A runtime.js that installs no lifeline: the bridge as it is before Python has required ours.
    runtime.BRIDGE_DIR = Path(sys.argv[1])
    runtime.helpers()
    print("ready", flush=True)
    time.sleep(60)
""")


def test_sigkill_of_python_while_the_bridge_starts_ends_its_node(tmp_path) -> None:
    (tmp_path / "runtime.js").write_text("module.exports = {}\n")
    token = new_token()
    child = subprocess.Popen([sys.executable, "-c", STARTING, str(tmp_path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        assert len(processes_with_token(token)) == 2, "Python and its Node bridge"
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert wait_until_gone(token, timeout_s=5) == [], "the starting Node bridge outlived its Python process"
    finally:
        child.kill()
