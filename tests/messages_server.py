"""A real HTTP server on 127.0.0.1 speaking the Anthropic Messages API, for tests of the
memory tool: each request is answered with the next assistant turn of ``script`` (a tool
call, or text that ends the turn), and every request is kept (``requests``), so a test
reads the tool results the SDK sent back. The SDK talks to it over TCP, as to the API."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class MessagesServer:
    def __init__(self, script: list[dict[str, Any] | str]) -> None:
        #: each turn: a memory tool input (the model calls the tool), or the closing text
        self.script = list(script)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append({"path": self.path, "body": body, "beta": self.headers.get("anthropic-beta")})
                n = len(server.requests)
                turn = server.script[n - 1] if n <= len(server.script) else "Done."
                if isinstance(turn, str):
                    content, stop = [{"type": "text", "text": turn}], "end_turn"
                else:
                    content = [{"type": "tool_use", "id": f"toolu_{n:04d}", "name": "memory", "input": turn}]
                    stop = "tool_use"
                self._send(
                    {
                        "id": f"msg_{n:04d}",
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model", "claude-test"),
                        "content": content,
                        "stop_reason": stop,
                        "stop_sequence": None,
                        "usage": {"input_tokens": 10, "output_tokens": 10},
                    }
                )

            def _send(self, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def tool_results(self) -> list[tuple[str, bool]]:
        """(what each tool call answered, whether it was an error), in order."""
        if not self.requests:
            return []
        out = []
        for message in self.requests[-1]["body"]["messages"]:
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if block.get("type") == "tool_result":
                    content = block.get("content")
                    text = content if isinstance(content, str) else "".join(c.get("text", "") for c in content or [])
                    out.append((text, bool(block.get("is_error"))))
        return out

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
