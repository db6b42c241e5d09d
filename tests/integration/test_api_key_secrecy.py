"""An API key never leaves the Authorization header: a real run in a flying-squid world against
a model server that answers its first requests and then fails, quoting the key it was sent in
its error (as some servers quote the key they refuse), ends `llm_error`, and the key is in none
of what the run printed or wrote: stdout, stderr, the trace, the notes, the server's files."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.trace import read_trace
from agent.trace.schema import RunEnd
from support.http_server import FakeHttpServer, Reply, Request
from support.planning import run_config
from support.procs import mcagent, new_token, transcript

KEY = "sk-secret-7f3a9c1e5b2d4086"


def failing_llama_server(request: Request) -> Reply:
    """llama.cpp's server until the first completion, which fails quoting the request's headers."""
    if request.path == "/props":
        return Reply(200, {"total_slots": 1, "model_alias": "m", "chat_template": "<|im_start|>"})
    if request.path == "/v1/models":
        return Reply(200, {"data": [{"id": "m", "meta": {"n_params": 1000}}]})
    if request.path == "/tokenize":
        return Reply(200, {"tokens": [1, 2, 3]})
    return Reply(500, {"error": {"message": f"worker crashed serving {request.headers.get('Authorization')}"}})


def failing_openai_server(request: Request) -> Reply:
    if request.path.endswith("/models"):
        return Reply(200, {"data": [{"id": "m"}]})
    return Reply(401, {"error": {"message": f"Incorrect API key provided: {request.headers.get('Authorization')}"}})


@pytest.mark.parametrize(("answer", "spec"), [(failing_llama_server, "llama-server:{url}"),
                                              (failing_openai_server, "openai:{url}/v1?mode=completion&constraint=none#m")])
def test_a_failed_runs_output_and_files_never_hold_the_key(answer, spec, tmp_path: Path):
    with FakeHttpServer(answer) as server:
        # llm_weight 1: the model is asked to choose (never measured, it would weigh nothing and the
        # runtime's prior would finish the room without a call to fail)
        done = mcagent("run", "--goal", "get out of the room to open sky", "--config",
                       str(run_config(tmp_path, "llm_weight: 1\n")),
                       "--scenario", "room", "--port", "0", "--llm", spec.format(url=server.url), "--max-steps", "2",
                       "--trace", str(tmp_path / "run" / "trace.jsonl"), token=new_token(), timeout_s=300,
                       env={"OPENAI_API_KEY": KEY}, cwd=tmp_path)
    assert any(r.headers.get("Authorization") == f"Bearer {KEY}" for r in server.requests)  # it was sent
    assert done.returncode == 1, transcript(done)
    ends = [e for e in read_trace(tmp_path / "run" / "trace.jsonl").events if isinstance(e, RunEnd)]
    assert ends and ends[-1].outcome == "llm_error", transcript(done)
    assert KEY not in done.stdout and KEY not in done.stderr
    written = [f for f in tmp_path.rglob("*") if f.is_file()]
    assert len(written) >= 3  # config, trace, notes at least
    holding = [str(f) for f in written if KEY.encode() in f.read_bytes()]
    assert holding == []
    assert "***" in done.stdout + done.stderr or "API key" in done.stdout + done.stderr  # the failure was said
