"""A tiny real HTTP server on 127.0.0.1, run in a thread, that the fakes build on."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterable


@dataclass
class Response:
    """What a fake answers: a status, headers, and a JSON body, raw bytes, or an iterable of byte chunks."""

    status: int = 200
    json_body: Any = None
    chunks: Iterable[bytes] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None


def _form_fields(content_type: str, raw: bytes) -> dict[str, Any]:
    """A multipart form as a dict: text fields as strings, files as ``(filename, bytes)``."""
    message = BytesParser(policy=policy.default).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        fields[name] = (filename, content) if filename else content.decode("utf-8", "replace")
    return fields


class LocalServer:
    """Serves ``handle(method, path, headers, body)`` on a free port of 127.0.0.1 until ``close()``."""

    def __init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                content_type = self.headers.get("Content-Type") or ""
                if content_type.startswith("multipart/form-data"):
                    body = _form_fields(content_type, raw)
                else:
                    try:
                        body = json.loads(raw) if raw else {}
                    except ValueError:
                        body = {"_raw": raw.decode("utf-8", "replace")}
                headers = {k.lower(): v for k, v in self.headers.items()}
                response = owner.handle(self.command, self.path, headers, body)
                try:
                    self._write(response)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test); nothing to do

            def _write(self, response: Response) -> None:
                self.send_response(response.status)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                if response.chunks is not None:
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    for chunk in response.chunks:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                    return
                data = response.raw if response.raw is not None else json.dumps(response.json_body).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _serve

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

        self.closed = threading.Event()  # set on close: a scripted hang ends
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        # A short poll interval: closing the server (after every test) takes a twentieth of a second.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Response:
        """Answer one request; subclasses script this."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop serving and free the port."""
        self.closed.set()
        self._server.shutdown()
        self._server.server_close()
