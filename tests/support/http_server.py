"""A stdlib HTTP server on a free 127.0.0.1 port, in a thread, for tests of HTTP clients.

    def answer(request: Request) -> Reply | Hang | Drop:
        return Reply(200, {"ok": True})

    with FakeHttpServer(answer) as server:
        post_json(server.url + "/generate", {...})
        server.requests      # every request it got: method, path, headers, body

`answer` runs on the server's thread for each request; what it raises becomes a 500 whose
body is the exception's text. HANG keeps the connection open without a word until the
server stops (a client's timeout); DROP closes it without an answer (a dropped connection);
TRICKLE answers 200 and then a byte of its body every 0.1 s, never done until the server
stops (a client whose timeout bounds each wait for a byte, not the whole request, never ends).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: Any = None  # JSON-encoded unless bytes or str, which go as they are
    headers: dict[str, str] = field(default_factory=dict)


class _Signal:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


HANG = _Signal("HANG")
DROP = _Signal("DROP")
TRICKLE = _Signal("TRICKLE")
TRICKLE_EVERY_S = 0.1

Answer = Callable[[Request], "Reply | _Signal"]


class FakeHttpServer:
    def __init__(self, answer: Answer):
        self.answer = answer
        self.requests: list[Request] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> FakeHttpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    def requests_after(self, settle_s: float = 5.0) -> list[Request]:
        """The requests once the first has been read, waiting up to settle_s for it: a client's
        bound can end while a loaded server thread has not yet read what the client sent."""
        deadline = time.monotonic() + settle_s
        while not self.requests and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._lock:
            return list(self.requests)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                self._serve()

            def do_POST(self) -> None:
                self._serve()

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = Request(self.command, self.path, dict(self.headers.items()), self.rfile.read(length))
                with server._lock:
                    server.requests.append(request)
                try:
                    reply = server.answer(request)
                except Exception as e:  # the fake's own failure: visible to the client as a 500
                    reply = Reply(500, f"{type(e).__name__}: {e}")
                if reply is HANG:
                    server._stopping.wait()
                    self.close_connection = True
                    return
                if reply is DROP:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if reply is TRICKLE:
                    self._trickle()
                    return
                assert isinstance(reply, Reply), reply
                body = reply.body
                if isinstance(body, str):
                    body = body.encode("utf-8")
                elif not isinstance(body, bytes):
                    body = json.dumps(body).encode("utf-8")
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _trickle(self) -> None:
                self.close_connection = True
                self.send_response(200)
                self.send_header("Content-Length", "1000000")
                self.end_headers()
                try:
                    while not server._stopping.wait(TRICKLE_EVERY_S):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                except OSError:  # the client hung up
                    pass

        return Handler


def closed_port_url() -> str:
    """A URL on a 127.0.0.1 port that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"
