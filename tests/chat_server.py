"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, for
tests of the optional LLM: it answers what the test sets (``reply``: a text, or a function of
the request's body), or fails the way the
test says (``status``, ``hang``, ``trickle``). Not a mock of vmem: vmem talks to it over TCP with httpx,
exactly as it talks to Ollama or vLLM."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatServer:
    def __init__(self) -> None:
        self.reply = "{}"
        self.status = 200
        self.hang = 0.0  # seconds to wait before answering
        self.trickle = 0.0  # seconds between the answer's bytes (a server that never quite stops)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                if server.hang:
                    time.sleep(server.hang)
                if server.status != 200:
                    self._send(server.status, {"error": {"message": "boom"}})
                    return
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {
                                    "role": "assistant",
                                    "content": server.reply(body) if callable(server.reply) else server.reply,
                                },
                                "finish_reason": "stop",
                            }
                        ],
                    },
                )

            def _send(self, status: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    if server.trickle:
                        for i in range(len(raw)):
                            self.wfile.write(raw[i : i + 1])
                            self.wfile.flush()
                            time.sleep(server.trickle)
                    else:
                        self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connection refused)."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/v1"
