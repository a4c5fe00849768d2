"""The app's own files beside Gradio's, and the owner's link preview on the page itself.

A pure ASGI middleware in front of Gradio's routes: it answers ``GET``/``HEAD`` for the owner's face
(:mod:`replica.web.face`), ``/widget.js`` (the chat bubble for the owner's own site) and ``/privacy``
(the owner's privacy text), counts each open of the page (:mod:`replica.web.opens`), and puts the owner's preview tags (:mod:`replica.web.preview`) in the HTML
Gradio serves at ``/``. Everything else passes through untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import anyio.to_thread

from replica.settings import default
from replica.web.face import Face
from replica.web.guard import Message, Receive, Scope, Send
from replica.web.preview import Preview, page_url, preview_tags, with_preview

WIDGET_JS = (Path(__file__).resolve().parent / "assets" / "widget.js").read_text(encoding="utf-8")
MAX_PAGE_BYTES = 4 * 1024 * 1024  # Gradio's page is about 100 KB: anything bigger passes through as it is


@dataclass(frozen=True)
class SiteFiles:
    """What the middleware serves: the face (``None`` when it is a URL elsewhere), the widget script,
    the privacy page's HTML, and the preview; ``public_url`` / ``trusted_proxy_hops`` make the
    page's absolute address."""

    face: Face | None
    widget_js: str
    privacy_html: str
    preview: Preview
    public_url: str | None = None
    trusted_proxy_hops: int = default("trusted_proxy_hops")
    count_open: Callable[[Scope], None] | None = None  # counts each GET / (replica.web.opens), off the event loop

    def files(self) -> dict[str, tuple[bytes, str]]:
        """Path -> (body, content type) of each file served."""
        served = {
            "/widget.js": (self.widget_js.encode(), "text/javascript; charset=utf-8"),
            "/privacy": (self.privacy_html.encode(), "text/html; charset=utf-8"),
        }
        if self.face:  # also as /favicon.ico, which browsers and crawlers ask for by name (else Gradio's logo)
            served[self.face.path] = served["/favicon.ico"] = (self.face.data, self.face.media_type)
        return served


class SiteRoutes:
    """The middleware: ``site`` says what it serves (see :class:`SiteFiles`)."""

    def __init__(self, app: Any, site: SiteFiles):
        self.app = app
        self.site = site
        self._files = site.files()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path in self._files:
            body, media_type = self._files[path]
            await respond(send, body, media_type, head=scope["method"] == "HEAD")
        elif path == "/" and scope["method"] == "GET":
            if self.site.count_open is not None:
                await anyio.to_thread.run_sync(self.site.count_open, scope)
            await self.app(scope, receive, PreviewedPage(send, self.tags(scope)))
        else:
            await self.app(scope, receive, send)

    def tags(self, scope: Scope) -> str:
        url = page_url(scope, self.site.public_url, self.site.trusted_proxy_hops)
        return preview_tags(self.site.preview, url)


async def respond(send: Send, body: bytes, media_type: str, head: bool = False) -> None:
    headers = [
        (b"content-type", media_type.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"public, max-age=3600"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})


class PreviewedPage:
    """A ``send`` that holds Gradio's HTML page back until it is whole, then sends it with the owner's
    preview tags in place of Gradio's (and its length corrected). Any other answer passes as it is."""

    def __init__(self, send: Send, tags: str):
        self.send = send
        self.tags = tags
        self.start: Message | None = None
        self.chunks: list[bytes] = []
        self.size = 0

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers", []))
            html = headers.get(b"content-type", b"").startswith(b"text/html")
            if message.get("status") == 200 and html and b"content-encoding" not in headers:
                self.start = message
                return
        elif message["type"] == "http.response.body" and self.start is not None:
            self.chunks.append(message.get("body", b""))
            self.size += len(self.chunks[-1])
            if message.get("more_body") and self.size <= MAX_PAGE_BYTES:
                return
            await self.release(self.start, more_body=bool(message.get("more_body")))
            return
        await self.send(message)

    async def release(self, start: Message, more_body: bool) -> None:
        """Send what was held back since ``start`` (the page's ``http.response.start``): the whole page
        with the preview put in and its length corrected, or, past the most held, the part held as it
        came (the rest then passes through)."""
        body = b"".join(self.chunks)
        if not more_body:  # the whole page: the preview put in
            body = with_preview(body.decode("utf-8"), self.tags).encode("utf-8")
        headers = start["headers"]
        if not more_body:
            headers = [(k, v) for k, v in headers if k != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
        await self.send({**start, "headers": headers})
        await self.send({"type": "http.response.body", "body": body, "more_body": more_body})
        self.start = None


def widget_script(owner: str, face: str) -> str:
    """The widget's script with what it shows filled in: the owner's name and the face's path (or URL)."""
    config = json.dumps({"owner": owner, "face": face}).replace("</", "<\\/")
    return WIDGET_JS.replace("/*REPLICA_WIDGET_CONFIG*/ {}", config, 1)
